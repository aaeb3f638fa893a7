//! `probity gate --hook claude|codex`: the gate spoken as an agent's `Stop` hook
//! (docs/agents.md). Both agents run the command with one JSON object on stdin and read the
//! same answer: exit 0 lets the agent stop (stdout, if any, is one JSON object; its
//! `systemMessage` is shown to the user), exit 2 blocks the stop and feeds stderr back to the
//! agent as its next instruction, any other exit is a failed hook that does not block.
//!
//! - the gate passes: exit 0, nothing printed;
//! - something blocks: exit 2, the items on stderr (where, what, the `next` that clears it);
//! - something still blocks although `stop_hook_active` says the agent was already blocked
//!   once: exit 0 (a second block would loop: neither agent caps it), the items on stderr and a
//!   `systemMessage` warning the user, whose commit gate (`probity gate`) still refuses;
//! - the input is not a stop hook's (`hook_input_invalid`): exit 1 and one line on stderr.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use probity::Error;
use probity::reason::Reason;
use probity::session;
use probity::untrusted;

/// The most items the reason lists (the rest are counted): the agent reads it as a prompt.
const SHOWN: usize = 20;

/// The hook's exit codes, in both agents' protocol.
const ALLOW: u8 = 0;
const HOOK_FAILED: u8 = 1;
const BLOCK: u8 = 2;

pub(super) fn hook_cmd(agent: &str, slug: Option<String>, verify: bool) -> ExitCode {
    let stdin = std::io::stdin();
    let input = if stdin.is_terminal() {
        Err(Error::new(
            Reason::HookInputInvalid,
            "stdin is a terminal: the agent runs this hook with its JSON input on stdin \
             (docs/agents.md); by hand, run `probity gate`",
        ))
    } else {
        session::read_hook_input(stdin.lock())
    };
    let input = match input {
        Ok(i) => i,
        Err(e) => return input_refused(&e),
    };
    let process_cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let root = match session::hook_root(&input, &process_cwd) {
        Ok(r) => r,
        Err(e) => return input_refused(&e),
    };
    let req = session::GateRequest {
        root: Some(root.clone()),
        slug,
        verify,
    };
    let lines: Vec<String> = match session::gate(&req) {
        Ok(report) if report.pass() => return ExitCode::from(ALLOW),
        Ok(report) => report
            .blocking
            .iter()
            .map(|i| {
                let at = match i.line {
                    Some(l) => format!("{}:{l}", i.ledger),
                    None => i.ledger.clone(),
                };
                format!(
                    "- {}: {}: {}; next: {}",
                    untrusted::escape(&at),
                    untrusted::escape(i.reason.as_str()),
                    untrusted::escape(&i.detail),
                    untrusted::escape(&i.next)
                )
            })
            .collect(),
        // The gate could not judge the tree: that blocks as well (it never passes by accident).
        Err(e) => vec![format!(
            "- the gate could not judge the tree: refused ({}): {}; next: run `probity gate` \
             there and fix what it names",
            e.reason,
            untrusted::escape(&e.detail)
        )],
    };
    answer(agent, &root, &lines, input.stop_hook_active)
}

/// A hook input refused: one line on stderr, exit 1 (a failed hook, which does not block: the
/// agent could not fix its own input, so a block would loop).
fn input_refused(e: &Error) -> ExitCode {
    eprintln!(
        "probity gate --hook: refused ({}): {}",
        e.reason,
        untrusted::escape(&e.detail)
    );
    ExitCode::from(HOOK_FAILED)
}

/// Block (exit 2, the reason on stderr), or, when the agent was already blocked once, allow
/// with the reason on stderr and a warning for the user on stdout.
fn answer(agent: &str, root: &Path, lines: &[String], stop_hook_active: bool) -> ExitCode {
    let root = untrusted::escape(&root.display().to_string());
    let n = lines.len();
    let mut text = if stop_hook_active {
        format!(
            "probity (stop hook, {agent}): {n} item(s) of a debug session still remain in {root} \
             after the agent was already blocked once (stop_hook_active): this stop is allowed \
             so that the hook cannot loop; a person must clear them (`probity gate` lists them, \
             and refuses a commit until they are gone):\n"
        )
    } else {
        format!(
            "probity (stop hook, {agent}): do not stop yet: {n} item(s) of a debug session remain \
             in {root}; run each `next`, then stop again:\n"
        )
    };
    for l in lines.iter().take(SHOWN) {
        text.push_str(l);
        text.push('\n');
    }
    if n > SHOWN {
        text.push_str(&format!(
            "- ... and {} more: `probity gate` in {root} lists them all\n",
            n - SHOWN
        ));
    }
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
    if !stop_hook_active {
        return ExitCode::from(BLOCK);
    }
    let warning = serde_json::json!({
        "systemMessage": format!(
            "probity: {n} item(s) of a debug session remain in {root} (a probe or an unclean \
             session); the agent was already blocked once, so its stop was allowed. Run \
             `probity gate` there to list them; `probity cleanup --slug SLUG` clears a session's."
        )
    });
    let mut out = std::io::stdout().lock();
    let _ = serde_json::to_writer(&mut out, &warning);
    let _ = writeln!(out);
    ExitCode::from(ALLOW)
}
