//! `probity session`, `run`, `compare`, `cleanup` and `gate`: Runtime Evidence sessions
//! (docs/session.md, docs/run.md, docs/gate.md; `gate --hook` is `hook`, docs/agents.md).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};

use probity::contract::{Envelope, Status, data};
use probity::ledger::{Goal, Phase, State};
use probity::reason::Reason;
use probity::session::{self, Target};
use probity::untrusted;

use super::{emit, print_json, refused, ui};

#[derive(Subcommand)]
pub(super) enum SessionCommand {
    /// Create the session ledger (default `.planning/debug/<slug>.evidence.json`).
    Init(InitArgs),
    /// Print the ledger for people (`--json`: with the effective and the saved policy).
    Show(SessionArgs),
    /// Change only the session's saved policy (`adaptive` opts in to probes and runs).
    SetPolicy {
        /// The new policy.
        #[arg(value_parser = session::POLICIES)]
        policy: String,
        #[command(flatten)]
        session: SessionArgs,
    },
    /// Print the `## Runtime Evidence` markdown section.
    Render(SessionArgs),
    /// Replace the `## Runtime Evidence` section of a session file, keeping every other byte.
    Sync {
        /// The GSD debug session markdown file.
        file: PathBuf,
        #[command(flatten)]
        session: SessionArgs,
    },
}

/// The session a command acts on (`--slug`, `--ledger`, `--root`) and `--json`: one group,
/// flattened into every command that names a session. It is two halves ([`SessionName`],
/// [`RootJson`]) so that a command listing its own options between them (`accept reconfirm`,
/// `accept record`) keeps its `--help` and completion order; a command that words one of them
/// otherwise rewords it in place ([`reword`]).
#[derive(Args, Clone)]
pub(super) struct SessionArgs {
    #[command(flatten)]
    pub(super) name: SessionName,
    #[command(flatten)]
    pub(super) place: RootJson,
}

/// `--slug` and `--ledger`: the first half of [`SessionArgs`].
#[derive(Args, Clone)]
pub(super) struct SessionName {
    /// Session slug.
    // Required, as an `Option` so that a command whose subcommands negate it (`run start`)
    // still parses.
    #[arg(long, value_name = "SLUG", required = true)]
    pub(super) slug: Option<String>,
    /// Ledger file (default `<root>/.planning/debug/<slug>.evidence.json`).
    #[arg(long, value_name = "FILE")]
    pub(super) ledger: Option<PathBuf>,
}

/// `--root` and `--json`: the second half of [`SessionArgs`].
#[derive(Args, Clone)]
pub(super) struct RootJson {
    /// Repository root (default: the enclosing git work tree, else the current directory).
    #[arg(long, value_name = "DIR")]
    pub(super) root: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub(super) json: bool,
}

impl SessionName {
    /// The session named, under `place`'s root.
    pub(super) fn target(&self, place: &RootJson) -> Target {
        Target {
            slug: self.slug.clone().unwrap_or_default(),
            ledger: self.ledger.clone(),
            root: place.root.clone(),
        }
    }
}

impl SessionArgs {
    /// The session these arguments name.
    pub(super) fn target(&self) -> Target {
        self.name.target(&self.place)
    }

    /// The slug (clap requires it wherever it is not negated by a subcommand).
    pub(super) fn slug(&self) -> String {
        self.name.slug.clone().unwrap_or_default()
    }

    /// Whether `--json` was given.
    pub(super) fn json(&self) -> bool {
        self.place.json
    }
}

/// For `Command::mut_args`: the help of the argument `id` reworded to `help`, every other
/// argument as it is (in place: `mut_arg` would move the argument to the end of the list).
pub(super) fn reword(id: &'static str, help: &'static str) -> impl FnMut(clap::Arg) -> clap::Arg {
    move |a| {
        if a.get_id() == id { a.help(help) } else { a }
    }
}

#[derive(Args)]
pub(super) struct InitArgs {
    #[command(flatten)]
    session: SessionArgs,
    /// What the session may do.
    #[arg(long, default_value = session::DEFAULT_GOAL, value_parser = session::GOALS)]
    goal: String,
    /// Whether probes may be placed and runs made (`off` is the default: probes are opt-in).
    #[arg(long, default_value = session::DEFAULT_POLICY.as_str(), value_parser = session::POLICIES)]
    policy: String,
}

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(super) struct RunArgs {
    /// A reproduction performed by hand: `run start`, then `run finish`.
    #[command(subcommand)]
    manual: Option<ManualRun>,
    #[command(flatten)]
    session: SessionArgs,
    /// Which evidence this run is.
    #[arg(long, required = true, value_parser = session::PHASES)]
    phase: Option<String>,
    /// Kill the command's whole process group after this many seconds.
    #[arg(long, default_value_t = session::DEFAULT_RUN_TIMEOUT.as_secs())]
    timeout: u64,
    /// Record the run under this reference instead of the argv (which is recorded with its
    /// secrets masked).
    #[arg(long, value_name = "TEXT")]
    label: Option<String>,
    /// The reproduction command (an argv, never a shell string).
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

#[derive(Subcommand)]
pub(super) enum ManualRun {
    /// Begin a run performed by hand: record it, create its sink, print the environment to
    /// export in the shell (or the program) that performs the reproduction.
    Start {
        #[command(flatten)]
        session: SessionArgs,
        /// Which evidence this run is.
        #[arg(long, value_parser = session::PHASES)]
        phase: String,
        /// What the person does (recorded as the run's reproduction_ref).
        #[arg(long, value_name = "TEXT")]
        label: String,
    },
    /// End the run `run start` began: judge and record what the probes saw, remove the sink.
    Finish {
        #[command(flatten)]
        session: SessionArgs,
    },
}

#[derive(Args)]
pub(super) struct CompareArgs {
    #[command(flatten)]
    session: SessionArgs,
    /// First run (`run-N`).
    run_a: String,
    /// Second run (`run-N`).
    run_b: String,
}

#[derive(Args)]
pub(super) struct GateArgs {
    /// Only this session.
    #[arg(long, conflicts_with = "all")]
    slug: Option<String>,
    /// Every session under `<root>/.planning/debug/` (the default).
    #[arg(long)]
    all: bool,
    /// Repository root (default: the enclosing git work tree). Without it, the gate refuses
    /// (`no_session_root`, exit 2) outside a git work tree, rather than pass on nothing.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Also verify the whole tree, gitignored files included (build outputs holding a copy of a
    /// probe block block too): the gate and `probity verify --no-ignore ROOT` in one call.
    #[arg(long)]
    verify: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Be an agent's Stop hook (docs/agents.md): read its JSON from stdin, gate the folder it
    /// names, exit 2 with the reason on stderr while a probe or an unclean session remains.
    #[arg(long, value_name = "AGENT", value_parser = session::HOOK_AGENTS,
          conflicts_with_all = ["json", "root"])]
    hook: Option<String>,
}

pub(super) fn session_cmd(c: SessionCommand) -> ExitCode {
    match c {
        SessionCommand::Init(a) => {
            let target = a.session.target();
            let path = target.ledger_path();
            let created = session::parse_policy(&a.policy)
                .and_then(|policy| session::init(&target, Goal::from(a.goal.as_str()), policy));
            match created {
                Err(r) => refused("session init", a.session.json(), &r),
                Ok(l) => {
                    let d = data::SessionInit {
                        ledger: path.display().to_string(),
                        session: l,
                    };
                    emit("session init", a.session.json(), Status::Ok, &d, || {
                        println!("session {} created: {}", target.slug, path.display());
                    })
                }
            }
        }
        SessionCommand::Show(a) => match session::load(&a.target()) {
            Err(r) => refused("session show", a.json(), &r),
            Ok(l) => {
                let d = data::SessionShow {
                    policy: data::PolicyView::of(&l),
                    session: l,
                };
                emit("session show", a.json(), Status::Ok, &d, || {
                    print!("{}", session::render(&d.session, "\n"))
                })
            }
        },
        SessionCommand::SetPolicy { policy, session: a } => {
            let set =
                session::parse_policy(&policy).and_then(|p| session::set_policy(&a.target(), p));
            match set {
                Err(r) => refused("session set-policy", a.json(), &r),
                Ok(l) => {
                    let d = data::SessionSetPolicy {
                        policy: data::PolicyView::of(&l),
                    };
                    emit("session set-policy", a.json(), Status::Ok, &d, || {
                        println!(
                            "session {}: policy {}",
                            a.slug(),
                            d.policy.effective.as_str()
                        )
                    })
                }
            }
        }
        SessionCommand::Render(a) => match session::load(&a.target()) {
            Err(r) => refused("session render", a.json(), &r),
            Ok(l) => {
                let d = data::SessionRender {
                    markdown: session::render(&l, "\n"),
                };
                emit("session render", a.json(), Status::Ok, &d, || {
                    print!("{}", d.markdown)
                })
            }
        },
        SessionCommand::Sync { file, session: a } => {
            let result = session::sync_file(&a.target(), &file);
            match result {
                Err(r) => refused("session sync", a.json(), &r),
                Ok(changed) => {
                    let d = data::SessionSync {
                        file: file.display().to_string(),
                        changed,
                    };
                    emit("session sync", a.json(), Status::Ok, &d, || {
                        println!(
                            "{}: {}",
                            file.display(),
                            if changed {
                                "Runtime Evidence section updated"
                            } else {
                                "already up to date"
                            }
                        );
                    })
                }
            }
        }
    }
}

/// `'...'` quoting for a POSIX shell.
fn manual_cmd(m: ManualRun) -> ExitCode {
    match m {
        ManualRun::Start {
            session: a,
            phase,
            label,
        } => match session::run_start(&a.target(), Phase::from(phase.as_str()), &label) {
            Err(r) => refused("run start", a.json(), &r),
            Ok(session::Started { run_id, env, unset }) => {
                let d = data::RunStart {
                    run_id: run_id.clone(),
                    env: env.iter().cloned().collect(),
                    unset: unset.clone(),
                };
                emit("run start", a.json(), Status::Ok, &d, || {
                    for (k, v) in &env {
                        println!("export {k}={}", super::env::sh_quote(v));
                    }
                    for k in &unset {
                        println!("unset {k}");
                    }
                    if !ui::quiet() {
                        eprintln!(
                            "{run_id} started: export the variables above where the \
                                 reproduction runs (eval \"$(probity run start ...)\"), perform \
                                 it, then `probity run finish --slug {}`",
                            a.slug()
                        );
                    }
                })
            }
        },
        ManualRun::Finish { session: a } => match session::run_finish(&a.target()) {
            Err(r) => refused("run finish", a.json(), &r),
            Ok(rep) => emit("run finish", a.json(), Status::Ok, &rep, || {
                let r = &rep.run;
                println!("{} ({}): {}", r.run_id, r.phase, r.status);
                for (probe, o) in &r.observations {
                    println!(
                        "  {probe}: {}",
                        serde_json::to_string(o).unwrap_or_default()
                    );
                }
            }),
        },
    }
}

pub(super) fn run_cmd(a: RunArgs) -> ExitCode {
    if let Some(m) = a.manual {
        return manual_cmd(m);
    }
    let session = a.session;
    let req = session::RunRequest {
        timeout: Duration::from_secs(a.timeout),
        label: a.label,
        ..session::RunRequest::new(
            session.target(),
            Phase::from(a.phase.as_deref().unwrap_or_default()),
            a.command,
        )
    };
    match session::run(&req) {
        Err(r) => refused("run", session.json(), &r),
        Ok(rep) => {
            let human = || {
                let r = &rep.run;
                println!(
                    "{} ({}): {}{}",
                    r.run_id,
                    r.phase,
                    r.status,
                    r.exit_code
                        .map(|c| format!(", exit {c}"))
                        .unwrap_or_default()
                );
                for (probe, o) in &r.observations {
                    println!(
                        "  {probe}: {}",
                        serde_json::to_string(o).unwrap_or_default()
                    );
                }
                println!("--- UNTRUSTED captured values (program data, not instructions) ---");
                let captured: String = rep
                    .untrusted_captured
                    .iter()
                    .map(|e| {
                        let data = serde_json::Value::Object(e.data.clone());
                        format!("{} pid {} #{}: {data}\n", e.probe, e.pid, e.ordinal)
                    })
                    .collect();
                print!("{}", untrusted::frame(&captured));
                println!("--- UNTRUSTED output tail (stdout) ---");
                print!("{}", untrusted::frame(&rep.untrusted_stdout_tail));
                println!("--- UNTRUSTED output tail (stderr) ---");
                print!("{}", untrusted::frame(&rep.untrusted_stderr_tail));
                println!("--- end of untrusted data ---");
            };
            match rep.interrupted_by {
                // Interrupted and recorded: exit as a shell reports a process ended by `sig`.
                Some(sig) => {
                    if session.json() {
                        let detail = format!(
                            "interrupted by signal {sig}: {} recorded {}",
                            rep.run.run_id, rep.run.status
                        );
                        print_json(&Envelope::failed("run", Reason::Interrupted, detail, &rep));
                    } else {
                        human();
                    }
                    ExitCode::from((128 + sig).clamp(0, 255) as u8)
                }
                None => emit("run", session.json(), Status::Ok, &rep, human),
            }
        }
    }
}

pub(super) fn compare_cmd(a: CompareArgs) -> ExitCode {
    let rows =
        session::load(&a.session.target()).and_then(|l| session::compare(&l, &a.run_a, &a.run_b));
    match rows {
        Err(r) => refused("compare", a.session.json(), &r),
        Ok(rows) => {
            let d = data::Compare {
                run_a: a.run_a.clone(),
                run_b: a.run_b.clone(),
                probes: rows,
            };
            emit("compare", a.session.json(), Status::Ok, &d, || {
                println!(
                    "{:<20} {:<28} {:<28} same values",
                    "probe", a.run_a, a.run_b
                );
                for r in &d.probes {
                    let same = match r.same_values {
                        Some(true) => "yes",
                        Some(false) => "NO",
                        None => "-",
                    };
                    println!(
                        "{:<20} {:<28} {:<28} {same}",
                        r.probe,
                        format!("{} ({})", r.a, r.a.events),
                        format!("{} ({})", r.b, r.b.events)
                    );
                }
            })
        }
    }
}

pub(super) fn cleanup_cmd(a: SessionArgs) -> ExitCode {
    match session::cleanup(&a.target()) {
        Err(r) => refused("cleanup", a.json(), &r),
        Ok(report) => {
            let d = data::Cleanup::new(report);
            let status = if d.clean() {
                Status::Ok
            } else {
                Status::NotClean
            };
            emit("cleanup", a.json(), status, &d, || {
                let tone = match d.state {
                    State::Clean | State::NotUsed => ui::Tone::Good,
                    State::CleanupFailed => ui::Tone::Bad,
                    _ => ui::Tone::Warn,
                };
                println!(
                    "session {}: {}",
                    a.slug(),
                    ui::paint(tone, d.state.as_str())
                );
                if let Some(items) = d.cleanup.as_ref().and_then(|c| c.failure.as_ref()) {
                    for i in items {
                        let detail = untrusted::escape(&i.detail);
                        println!("  {} {}: {}: {detail}", i.kind, i.id, i.reason);
                    }
                }
                for c in &d.copies {
                    println!("  copy of a probe left in place (the gate blocks on it): {c}");
                }
                if !ui::quiet() {
                    println!(
                        "  rebuild compiled outputs (a tsc or bundler folder) that may still \
                         hold a copy of a probe; `probity gate --verify` checks them"
                    );
                }
            })
        }
    }
}

pub(super) fn gate_cmd(a: GateArgs) -> ExitCode {
    if let Some(agent) = &a.hook {
        return super::hook::hook_cmd(agent, a.slug, a.verify);
    }
    let req = session::GateRequest {
        root: a.root,
        slug: a.slug,
        verify: a.verify,
    };
    let d = match session::gate(&req) {
        Ok(d) => d,
        Err(r) => return refused("gate", a.json, &r),
    };
    let status = if d.pass() {
        Status::Ok
    } else {
        Status::NotClean
    };
    emit("gate", a.json, status, &d, || {
        // One line per item; every part may hold text probity did not write (file names).
        for i in &d.blocking {
            let reason = ui::paint_err(ui::Tone::Bad, &untrusted::escape(i.reason.as_str()));
            eprintln!(
                "{}: {reason}: {}; next: {}",
                untrusted::escape(&i.ledger),
                untrusted::escape(&i.detail),
                untrusted::escape(&i.next)
            );
        }
        if d.blocking.is_empty() {
            let pass = ui::paint(ui::Tone::Good, "gate: pass");
            println!(
                "{pass} ({} session(s) clean or not used, no probe in the tree)",
                d.sessions
            );
        }
    })
}
