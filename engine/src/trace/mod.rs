//! Trace inspection: read an already-recorded Codex `codex exec --json` trace (JSON Lines),
//! count what the agent did, and check what the caller asked for. It never runs an agent or a
//! model, and a passing trace is not a claim that the agent was right: every report says that
//! semantic review is still required. See: ADR 0045 ("Inspect Agent Traces Without Making
//! Them Release Gates"), issue 16, docs/trace.md.
//!
//! The trace is untrusted input read within hard bounds ([`MAX_LINE_BYTES`],
//! [`MAX_TRACE_LINES`], [`MAX_TRACE_BYTES`]): a bound crossed is a refusal, and a line over the
//! line bound is never read whole (`read`). Lines that are not events of the published shape are
//! reported by number and make the inspection fail (`event`). Counting is conservative: one
//! action per unique item id, whatever events (started, updated, completed) show it, and every
//! item type this reader does not know is an action, counted and listed by type. Depends only on
//! the foundations (`reason`, `error`).

mod event;
mod read;
mod report;

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::Path;

use crate::error::{Error, Result};
use crate::reason::Reason;

pub use event::{KNOWN_ITEM_TYPES, NON_ACTION_ITEM_TYPES};
pub use report::{
    Caller, Check, Command, FileChanged, Items, Malformed, Report, StreamError, Turns, Usage,
};

/// Longest line read, in bytes, without its line ending. A line over it is refused
/// (`trace_line_too_long`) after reading at most two bytes past it.
pub const MAX_LINE_BYTES: usize = 4 << 20;
/// Most lines read (blank lines included); more is `trace_too_large`.
pub const MAX_TRACE_LINES: usize = 1_000_000;
/// Most bytes read; more is `trace_too_large`, refused before reading when the file says so.
pub const MAX_TRACE_BYTES: u64 = 256 << 20;
/// Malformed lines listed in a report; `malformed_total` counts them all.
pub const MAX_MALFORMED_LISTED: usize = 100;
/// `turn.failed` and `error` events listed in a report, each message cut to
/// [`MAX_MESSAGE_CHARS`].
pub const MAX_ERRORS_LISTED: usize = 100;
/// Characters kept of an error message.
pub const MAX_MESSAGE_CHARS: usize = 500;

/// The notice every report carries, human and JSON.
pub const NOTICE: &str = "semantic review is still required: counts and literal checks say \
    nothing about whether the agent's answer is correct, and a trace holds only for the model, \
    tool version, prompt and target it was recorded with";

/// What the caller asks of a trace.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Fail when the unique actions are more than this.
    pub max_actions: Option<u64>,
    /// Fail when the input tokens summed over turns are more than this (or unknown).
    pub max_input_tokens: Option<u64>,
    /// Fail when the output tokens summed over turns are more than this (or unknown).
    pub max_output_tokens: Option<u64>,
    /// Literals the final agent message must contain (exact, case-sensitive).
    pub require: Vec<String>,
    /// Literals the final agent message must not contain (exact, case-sensitive).
    pub forbid: Vec<String>,
    /// Facts the trace cannot prove, recorded as given.
    pub caller: Caller,
}

/// Inspect the trace file at `path`.
///
/// Refused (`Err`): the path is missing or not a regular file, an I/O error, or a bound crossed.
/// Otherwise a [`Report`], whose checks say whether the trace holds.
pub fn inspect(path: &Path, opts: &Options) -> Result<Report> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if !meta.is_file() {
        return Err(Error::at(
            Reason::NotRegularFile,
            path,
            "not a regular file",
        ));
    }
    if meta.len() > MAX_TRACE_BYTES {
        return Err(Error::at(
            Reason::TraceTooLarge,
            path,
            format_args!("{} bytes, more than {MAX_TRACE_BYTES}", meta.len()),
        ));
    }
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    inspect_reader(std::io::BufReader::with_capacity(1 << 16, file), opts)
}

/// Inspect a trace read from `input` (see [`inspect`]).
pub fn inspect_reader(input: impl BufRead, opts: &Options) -> Result<Report> {
    let mut lines = read::Lines::new(input, read::Limits::default());
    let mut t = report::Tally::default();
    while let Some((n, bytes)) = lines.next_line()? {
        t.lines = n;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match event::parse(bytes) {
            Ok(e) => t.add(n, e),
            Err(why) => t.malformed(n, why.to_string()),
        }
    }
    t.bytes = lines.bytes();
    Ok(t.finish(opts))
}

/// Count of each key, for the per-type tables.
type Counts = BTreeMap<String, u64>;
