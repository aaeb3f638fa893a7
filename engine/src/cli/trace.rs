//! `probity trace inspect`: count what a recorded Codex `--json` trace did and check it against
//! the caller's ceilings and literals (docs/trace.md). Exit 0 every check holds, 1 a check
//! failed, 2 the trace could not be inspected.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use probity::trace::{self, Caller, Options, Report};

use probity::contract::{Status, data};

use super::{emit, refused};

#[derive(Subcommand)]
pub(super) enum TraceCommand {
    /// Inspect a recorded `codex exec --json` trace: actions, commands, files, tokens, checks.
    Inspect(InspectArgs),
}

#[derive(Args)]
pub(super) struct InspectArgs {
    /// The trace (JSON Lines, as `codex exec --json` prints it).
    #[arg(value_name = "TRACE.jsonl")]
    trace: PathBuf,
    /// Fail when the trace has more unique action items than this.
    #[arg(long, value_name = "N")]
    max_actions: Option<u64>,
    /// Fail when the input tokens summed over turns are more than this, or not known.
    #[arg(long, value_name = "N")]
    max_input_tokens: Option<u64>,
    /// Fail when the output tokens summed over turns are more than this, or not known.
    #[arg(long, value_name = "N")]
    max_output_tokens: Option<u64>,
    /// Fail unless the final agent message contains TEXT (exact, case-sensitive; repeatable).
    #[arg(long, value_name = "TEXT")]
    require: Vec<String>,
    /// Fail if the final agent message contains TEXT (exact, case-sensitive; repeatable).
    #[arg(long, value_name = "TEXT")]
    forbid: Vec<String>,
    /// The model the trace was recorded with (recorded in the output, not checked).
    #[arg(long, value_name = "NAME")]
    model: Option<String>,
    /// The agent tool and version, e.g. `codex-cli 0.46.0` (recorded, not checked).
    #[arg(long, value_name = "VERSION")]
    tool_version: Option<String>,
    /// The prompt the agent was given (recorded, not checked).
    #[arg(long, value_name = "TEXT")]
    prompt: Option<String>,
    /// The target state: repository, revision, plugin version (recorded, not checked).
    #[arg(long, value_name = "TEXT")]
    target: Option<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub(super) fn trace_cmd(c: TraceCommand) -> ExitCode {
    match c {
        TraceCommand::Inspect(a) => inspect_cmd(a),
    }
}

fn inspect_cmd(a: InspectArgs) -> ExitCode {
    const COMMAND: &str = "trace inspect";
    let opts = Options {
        max_actions: a.max_actions,
        max_input_tokens: a.max_input_tokens,
        max_output_tokens: a.max_output_tokens,
        require: a.require,
        forbid: a.forbid,
        caller: Caller {
            model: a.model,
            tool_version: a.tool_version,
            prompt: a.prompt,
            target: a.target,
        },
    };
    let report = match trace::inspect(&a.trace, &opts) {
        Ok(r) => r,
        Err(e) => return refused(COMMAND, a.json, &e),
    };
    let status = Status::of_exit_code(report.exit_code());
    let d = data::TraceInspect {
        report,
        trace: a.trace,
        probity_version: data::probity_version(),
    };
    emit(COMMAND, a.json, status, &d, || human(&d.trace, &d.report))
}

/// Text from the trace, with control characters escaped so that it cannot drive the terminal.
fn safe(s: &str) -> String {
    probity::untrusted::escape(s)
}

fn or_dash(v: &Option<String>) -> String {
    v.as_deref().map_or_else(|| "-".to_owned(), safe)
}

fn num(v: Option<u64>) -> String {
    v.map_or_else(|| "unknown".to_owned(), |n| n.to_string())
}

fn human(path: &std::path::Path, r: &Report) {
    println!("trace {}: {}", path.display(), r.status);
    let c = &r.caller;
    println!(
        "  caller: model {}, tool {}, target {}",
        or_dash(&c.model),
        or_dash(&c.tool_version),
        or_dash(&c.target)
    );
    if let Some(p) = &c.prompt {
        println!("  prompt: {}", safe(p));
    }
    println!(
        "  {} lines, turns: {} started, {} completed, {} failed",
        r.lines, r.turns.started, r.turns.completed, r.turns.failed
    );
    println!(
        "  actions: {} (of {} unique items)",
        r.actions, r.items.total
    );
    for (t, n) in &r.items.by_type {
        let unknown = if r.items.unknown_types.contains_key(t) {
            " (unknown type)"
        } else {
            ""
        };
        println!("    {}: {n}{unknown}", safe(t));
    }
    for cmd in &r.commands {
        let exit = cmd
            .exit_code
            .map_or_else(|| "no exit code".to_owned(), |c| format!("exit {c}"));
        println!(
            "  command: {} ({exit}, {})",
            safe(&cmd.command),
            or_dash(&cmd.status)
        );
    }
    for f in &r.files_changed {
        println!(
            "  file: {} {} ({})",
            or_dash(&f.kind),
            safe(&f.path),
            or_dash(&f.status)
        );
    }
    let u = &r.usage;
    println!(
        "  tokens: input {}, cached input {}, output {}",
        num(u.input_tokens),
        num(u.cached_input_tokens),
        num(u.output_tokens)
    );
    if let Some(m) = &r.final_message {
        let cut: String = m.chars().take(200).collect();
        let more = if cut.len() < m.len() { "..." } else { "" };
        println!("  final message: {cut:?}{more}");
    }
    for (t, n) in &r.other_events {
        println!("  other event: {}: {n}", safe(t));
    }
    for e in &r.errors {
        println!("  line {}: {}: {}", e.line, e.event, safe(&e.message));
    }
    for m in &r.malformed {
        println!("  line {}: malformed: {}", m.line, m.error);
    }
    if r.malformed_total > r.malformed.len() as u64 {
        println!("  ... {} malformed lines in all", r.malformed_total);
    }
    for ch in &r.checks {
        let what = match (&ch.limit, &ch.text) {
            (Some(l), _) => format!("{} {} (ceiling {l})", ch.check, num(ch.value)),
            (_, Some(t)) => format!("{} {t:?}", ch.check),
            _ => ch.check.to_owned(),
        };
        match ch.reason {
            None => println!("  ok    {what}"),
            Some(reason) => println!("  FAIL  {what}: {reason}"),
        }
    }
    println!("{}", trace::NOTICE);
}
