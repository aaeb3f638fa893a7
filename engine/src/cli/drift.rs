//! `probity resolve`, `index` and `drift`: the drift guard's commands (docs/drift.md).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde_json::json;

use probity::contract::{SCHEMA_VERSION, Status, data};
use probity::resolve::Severity;

use super::{emit, refused, repo_root, ui};

/// The `--fail-on` values.
const FAIL_ON: [&str; 3] = ["needs-acknowledgement", "medium", "high"];

/// A `--fail-on` value, checked by the parser.
fn fail_on(s: Option<&str>) -> Option<Severity> {
    s.and_then(Severity::parse)
}

/// `ok`, or `not_clean` when the most severe result reaches the threshold.
fn drift_status(max: Severity, threshold: Option<Severity>) -> Status {
    Status::of_exit_code(probity::drift::exit_code(max, threshold))
}

/// Options shared by the drift-guard commands.
#[derive(Args)]
pub(super) struct DriftCommon {
    /// Repository root.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Declarations cache directory (default: the user cache dir, `probity/drift`).
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    /// Do not read or write the declarations cache.
    #[arg(long)]
    no_cache: bool,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
#[command(group(clap::ArgGroup::new("refs_in").required(true).args(["refs", "refs_file"])))]
pub(super) struct ResolveArgs {
    /// References: `@decorator`, `Class.method`, `Type::method`, `module.function`,
    /// `crate::a::b`, `./path/module.func`, `--cli-flag` (after `--`), `path/to/file`, `name`.
    #[arg(value_name = "REF")]
    refs: Vec<String>,
    /// A JSON file with the references: an array of strings (or of `{"ref": ...}`).
    #[arg(long = "refs", value_name = "FILE.json")]
    refs_file: Option<PathBuf>,
    #[command(flatten)]
    higher: HigherArgs,
    /// Exit 1 when a result reaches this severity.
    #[arg(long, value_name = "SEVERITY", value_parser = FAIL_ON)]
    fail_on: Option<String>,
    #[command(flatten)]
    common: DriftCommon,
}

#[derive(Args)]
pub(super) struct IndexArgs {
    /// Parse every file and do nothing else (benchmark baseline).
    #[arg(long, hide = true)]
    parse_only: bool,
    /// Write the declarations as a SCIP index to this file (replaced atomically) instead of
    /// listing them (docs/drift.md, "SCIP export").
    #[arg(long, value_name = "OUT.scip")]
    scip: Option<PathBuf>,
    #[command(flatten)]
    common: DriftCommon,
}

#[derive(Args)]
pub(super) struct DriftArgs {
    /// The plan (markdown).
    #[arg(long, value_name = "PLAN.md")]
    plan: PathBuf,
    #[command(flatten)]
    higher: HigherArgs,
    /// Exit 1 when a result reaches this severity (default: only hard blocks, which rung 2
    /// never raises; a MISSING proved by `--scip` is one).
    #[arg(long, value_name = "SEVERITY", value_parser = FAIL_ON)]
    fail_on: Option<String>,
    #[command(flatten)]
    common: DriftCommon,
}

/// The rungs above tree-sitter (`resolve`, `drift`).
#[derive(Args)]
pub(super) struct HigherArgs {
    /// A SCIP index of the repository (any indexer's): rung 4 confirms verdicts, contradicts
    /// or proves absence where it covers every file (docs/drift.md, "Rung 4").
    #[arg(long, value_name = "INDEX.scip")]
    scip: Option<PathBuf>,
    /// A language server's command line (words separated by spaces, e.g. `pyright-langserver
    /// --stdio`): rung 3 asks it about the UNCHECKABLE references only and may make them
    /// VERIFIED; it never makes a MISSING (docs/drift.md, "Rung 3").
    #[arg(long, value_name = "CMD")]
    lsp: Option<String>,
    /// The budget of the language server rung, start-up included (default 60); its process
    /// group is killed when it runs out.
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=3600), requires = "lsp")]
    lsp_timeout: Option<u64>,
}

/// The higher rungs the options ask for: the SCIP index read (refused when it cannot be), the
/// language server's argv (refused `invalid_argument` when empty).
fn higher_rungs(
    h: &HigherArgs,
) -> probity::Result<(
    Option<probity::authority::ScipIndex>,
    Option<probity::authority::LspRung>,
)> {
    let scip = h
        .scip
        .as_deref()
        .map(probity::authority::ScipIndex::read)
        .transpose()?;
    let lsp = match &h.lsp {
        None => None,
        Some(cmd) => {
            let argv: Vec<String> = cmd.split_whitespace().map(str::to_owned).collect();
            if argv.is_empty() {
                return Err(probity::Error::new(
                    probity::reason::Reason::InvalidArgument,
                    "--lsp: the language server's command line is empty",
                ));
            }
            let budget = h.lsp_timeout.map_or(
                probity::authority::DEFAULT_LSP_TIMEOUT,
                std::time::Duration::from_secs,
            );
            Some((argv, budget))
        }
    };
    Ok((scip, lsp))
}

/// Root, cache and thread pool of a drift-guard command.
pub(super) fn drift_setup(c: &DriftCommon) -> probity::Result<(PathBuf, probity::index::Cache)> {
    if let Some(n) = c.threads {
        // Fails only if a pool exists already, which it cannot at this point.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global();
    }
    let root = repo_root(c.root.as_deref());
    probity::index::check_root(&root)?;
    Ok((
        root,
        probity::index::Cache::new(c.cache_dir.clone(), c.no_cache),
    ))
}

pub(super) fn resolve_cmd(a: ResolveArgs) -> ExitCode {
    let json = a.common.json;
    let threshold = fail_on(a.fail_on.as_deref());
    let (root, cache) = match drift_setup(&a.common) {
        Ok(x) => x,
        Err(e) => return refused("resolve", json, &e),
    };
    let mut refs = a.refs.clone();
    if let Some(f) = &a.refs_file {
        match probity::resolve::read_refs_file(f) {
            Ok(more) => refs.extend(more),
            Err(e) => return refused("resolve", json, &e),
        }
    }
    let (scip, lsp) = match higher_rungs(&a.higher) {
        Ok(x) => x,
        Err(e) => return refused("resolve", json, &e),
    };
    let rungs = probity::authority::Rungs {
        scip: scip.as_ref(),
        lsp,
    };
    let d = data::Resolve::run(root, &refs, &cache, &rungs);
    let max = d.max_severity;
    emit("resolve", json, drift_status(max, threshold), &d, || {
        for r in &d.results {
            let detail = match r.verdict {
                probity::resolve::Verdict::Verified => format!(
                    "{} {}{}",
                    r.kind.map_or("", |k| k.as_str()),
                    r.location.as_deref().unwrap_or(""),
                    r.signature
                        .as_deref()
                        .map(|s| format!("  {s}"))
                        .unwrap_or_default()
                ),
                probity::resolve::Verdict::Ambiguous => r
                    .candidates
                    .iter()
                    .map(|c| c.location.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
                probity::resolve::Verdict::Missing if !r.suggestions.is_empty() => {
                    format!("did you mean {}?", r.suggestions.join(", "))
                }
                _ => r.reason.clone().unwrap_or_default(),
            };
            let padded = format!("{:<11}", r.verdict.as_str());
            let rung = if r.rung == probity::resolve::RUNG {
                String::new()
            } else {
                format!("  [rung {}: {}]", r.rung, r.authority)
            };
            println!(
                "{} {:<22} {}  {}{rung}",
                ui::paint(ui::verdict_tone(r.verdict), &padded),
                r.severity.as_str(),
                r.reference,
                detail
            );
            for c in &r.calls {
                println!(
                    "{:<11} {:<22} {}  {}{}",
                    "",
                    format!("call {}", c.verdict.as_str()),
                    c.cited,
                    c.expected.as_deref().unwrap_or(""),
                    c.reason
                        .as_deref()
                        .map(|w| format!(" ({w})"))
                        .unwrap_or_default()
                );
            }
        }
        if let Some(s) = &d.scip {
            println!("{}", probity::drift::scip_summary(s));
        }
        if let Some(l) = &d.lsp {
            println!("{}", probity::drift::lsp_summary(l));
        }
    })
}

pub(super) fn index_cmd(a: IndexArgs) -> ExitCode {
    let json = a.common.json;
    let (root, cache) = match drift_setup(&a.common) {
        Ok(x) => x,
        Err(e) => return refused("index", json, &e),
    };
    if a.parse_only {
        let n = probity::index::parse_only(&root);
        let d = data::Index {
            files: Vec::new(),
            root,
            stats: probity::index::Stats {
                files_parsed: n,
                ..Default::default()
            },
            scip: None,
        };
        return emit("index", json, Status::Ok, &d, || {
            println!("{n} files parsed")
        });
    }
    if let Some(out) = a.scip {
        return scip_cmd(&root, &cache, out, json);
    }
    // Streamed file by file (the whole index is never held): the envelope `emit` would print
    // around a `data::Index`, `data` last so that its `files` can be written one by one.
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let (mut n_files, mut n_decls) = (0usize, 0usize);
    let mut ok = true;
    if json {
        // Keys in sorted order (as a `serde_json::Value` prints them): `command`, then `data`,
        // whose `files` are written one by one, then the rest after them.
        let command = serde_json::to_string("index").unwrap_or_default();
        ok &= write!(out, "{{\"command\":{command},\"data\":{{\"files\":[").is_ok();
    }
    let stats = probity::index::index_root_each(&root, &cache, |f| {
        if !ok {
            return;
        }
        if json {
            if n_files > 0 {
                ok &= out.write_all(b",").is_ok();
            }
            ok &= serde_json::to_writer(&mut out, &probity::index::SortedJson(&f)).is_ok();
        } else {
            for d in &f.decls {
                ok &= writeln!(
                    out,
                    "{}:{}:{}\t{}\t{}",
                    f.path,
                    d.line,
                    d.column,
                    d.kind.as_str(),
                    d.qualified
                )
                .is_ok();
            }
            if f.status != probity::index::FileStatus::Ok {
                ok &= writeln!(out, "{}\t(status: {:?})", f.path, f.status).is_ok();
            }
        }
        n_files += 1;
        n_decls += f.decls.len();
    });
    if json {
        let data_tail = json!({ "root": root, "stats": stats });
        let rest = json!({
            "detail": null,
            "reason": null,
            "schema_version": SCHEMA_VERSION,
            "status": Status::Ok,
        });
        let (data_tail, rest) = (data_tail.to_string(), rest.to_string());
        // `{"root":...}` → `],"root":...}`, `{"detail":...}` → `,"detail":...}`
        ok &= write!(
            out,
            "],{},{}",
            data_tail.get(1..).unwrap_or("}"),
            rest.get(1..).unwrap_or("}")
        )
        .is_ok();
        ok &= writeln!(out).is_ok();
    }
    ok &= out.flush().is_ok();
    if !json && !ui::quiet() {
        eprintln!(
            "{n_files} files, {n_decls} declarations, {} parsed",
            stats.files_parsed
        );
    }
    // As `print_json`: a closed stdout is not an error of the index.
    let _ = ok;
    ExitCode::SUCCESS
}

/// `index --scip OUT`: the index streamed into a temporary file beside `out`, renamed over it
/// once complete (a failure leaves `out` as it was).
fn scip_cmd(
    root: &std::path::Path,
    cache: &probity::index::Cache,
    out: PathBuf,
    json: bool,
) -> ExitCode {
    let fail = |e: std::io::Error| refused("index", json, &probity::Error::io(&out, e));
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if out.is_dir() {
        return fail(std::io::Error::other("is a directory"));
    }
    let tmp = match tempfile::Builder::new()
        .prefix(".probity-scip-")
        .suffix(".tmp")
        .tempfile_in(&dir)
    {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    // A new file gets 0644, an existing one keeps its bits (tempfile creates 0600).
    let mode = std::fs::metadata(&out)
        .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o7777)
        .unwrap_or(0o644);
    if let Err(e) = tmp
        .as_file()
        .set_permissions(std::os::unix::fs::PermissionsExt::from_mode(mode))
    {
        return fail(e);
    }
    let abs = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let version = env!("CARGO_PKG_VERSION");
    let buf = std::io::BufWriter::with_capacity(1 << 16, tmp.as_file());
    let mut w = match probity::index::scip::ScipWriter::new(buf, &abs, version) {
        Ok(w) => w,
        Err(e) => return fail(e),
    };
    let mut err = None;
    let stats = probity::index::index_root_each(root, cache, |f| {
        if err.is_none()
            && let Err(e) = w.file_in(root, &f)
        {
            err = Some(e);
        }
    });
    let done = match err {
        Some(e) => {
            drop(w);
            Err(e)
        }
        None => w.finish(),
    };
    let (documents, symbols) = match done.and_then(|d| tmp.as_file().sync_all().map(|()| d)) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    if let Err(e) = tmp.persist(&out) {
        return fail(e.error);
    }
    let d = data::Index {
        files: Vec::new(),
        root: root.to_path_buf(),
        stats,
        scip: Some(data::ScipExport {
            path: out.clone(),
            documents,
            symbols,
        }),
    };
    emit("index", json, Status::Ok, &d, || {
        println!(
            "{}: {documents} documents, {symbols} symbols",
            probity::untrusted::escape(&out.display().to_string())
        )
    })
}

pub(super) fn drift_cmd(a: DriftArgs) -> ExitCode {
    let json = a.common.json;
    let threshold = fail_on(a.fail_on.as_deref());
    let plan = match probity::drift::read_plan(&a.plan) {
        Ok(p) => p,
        Err(e) => return refused("drift", json, &e),
    };
    let (root, cache) = match drift_setup(&a.common) {
        Ok(x) => x,
        Err(e) => return refused("drift", json, &e),
    };
    let (scip, lsp) = match higher_rungs(&a.higher) {
        Ok(x) => x,
        Err(e) => return refused("drift", json, &e),
    };
    let rungs = probity::authority::Rungs {
        scip: scip.as_ref(),
        lsp,
    };
    let started = std::time::Instant::now();
    let report = match probity::drift::run_with(&plan, &root, &cache, &rungs) {
        Ok(r) => r,
        Err(e) => return refused("drift", json, &e),
    };
    if ui::verbose() {
        eprintln!(
            "drift: {} symbol(s) checked, {} skipped, in {:.1} ms",
            report.summary.checked,
            report.summary.skipped,
            started.elapsed().as_secs_f64() * 1e3
        );
    }
    let status = drift_status(report.summary.max_severity, threshold);
    let d = data::Drift::new(report, a.plan, root);
    emit("drift", json, status, &d, || {
        print!("{}", ui::paint_coverage(&d.coverage_markdown))
    })
}
