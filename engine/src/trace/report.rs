//! What a trace inspection found ([`Report`]), the tally that builds it event by event, and the
//! checks: the three every trace must pass (well formed, a completed turn, a completed agent
//! message) and the ones the caller asks for (ceilings, required and forbidden literals). A
//! check that cannot be decided (a token ceiling without usage data, a literal without a final
//! message) fails; it never passes by default.

use std::collections::HashMap;

use schemars::JsonSchema;
use serde::Serialize;

use super::event::{Details, Event, Phase};
use super::{
    Counts, KNOWN_ITEM_TYPES, MAX_ERRORS_LISTED, MAX_MALFORMED_LISTED, MAX_MESSAGE_CHARS,
    NON_ACTION_ITEM_TYPES, NOTICE, Options,
};
use crate::reason::Reason;

/// Facts about a trace that only the caller knows, recorded as given (`null` when not given).
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct Caller {
    /// The model the trace was recorded with.
    pub model: Option<String>,
    /// The agent tool and its version (`codex-cli 0.46.0`).
    pub tool_version: Option<String>,
    /// The prompt given to the agent.
    pub prompt: Option<String>,
    /// The target state (repository, revision, installed plugin version).
    pub target: Option<String>,
}

/// The turns of a trace.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct Turns {
    /// `turn.started` events.
    pub started: u64,
    /// `turn.completed` events.
    pub completed: u64,
    /// `turn.failed` events.
    pub failed: u64,
}

/// A `turn.failed` or top-level `error` event.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct StreamError {
    /// Its line number.
    pub line: usize,
    /// `turn.failed` or `error`.
    pub event: &'static str,
    /// Its message, cut to [`super::MAX_MESSAGE_CHARS`] characters.
    pub message: String,
}

/// A line that is not an event of the published shape.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Malformed {
    /// Its line number (1-based).
    pub line: usize,
    /// What is wrong with it (never the line's own text).
    pub error: String,
}

/// The unique items of a trace, by id.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct Items {
    /// Unique item ids.
    pub total: u64,
    /// Unique items per type (the type of the last event that showed the id).
    pub by_type: Counts,
    /// The part of `by_type` whose types are not in [`super::KNOWN_ITEM_TYPES`].
    pub unknown_types: Counts,
}

/// A `command_execution` item, as its last event shows it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Command {
    /// The item id.
    pub id: String,
    /// The command line, as the trace gives it.
    pub command: String,
    /// The exit code, when the trace has one.
    pub exit_code: Option<i64>,
    /// `in_progress`, `completed`, `failed`, `declined`, or what the trace says.
    pub status: Option<String>,
}

/// One change of a `file_change` item, as its last event shows it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FileChanged {
    /// The item id.
    pub id: String,
    /// The path, as the trace gives it.
    pub path: String,
    /// `add`, `delete`, `update`, or what the trace says.
    pub kind: Option<String>,
    /// The item's status (a failed patch is listed too).
    pub status: Option<String>,
}

/// Token usage summed over turns.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct Usage {
    /// Input tokens of every turn, or `null` when not known for every turn (a turn without
    /// usage, a failed or unfinished turn, or none completed).
    pub input_tokens: Option<u64>,
    /// Cached input tokens (part of `input_tokens`), or `null` as above.
    pub cached_input_tokens: Option<u64>,
    /// Output tokens, or `null` as above.
    pub output_tokens: Option<u64>,
    /// Completed turns that carry a `usage` object.
    pub turns_with_usage: u64,
    /// Completed turns without one.
    pub turns_without_usage: u64,
    /// The sums of what the trace does report, known or not for every turn.
    pub reported: UsageSums,
}

/// Plain token sums.
#[derive(Debug, Clone, Copy, Default, Serialize, JsonSchema)]
pub struct UsageSums {
    /// Input tokens.
    pub input_tokens: u64,
    /// Cached input tokens.
    pub cached_input_tokens: u64,
    /// Output tokens.
    pub output_tokens: u64,
}

/// One check and its outcome.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Check {
    /// `well_formed`, `turn_completed`, `agent_message`, `max_actions`, `max_input_tokens`,
    /// `max_output_tokens`, `require` or `forbid`.
    pub check: &'static str,
    /// Whether it holds.
    pub ok: bool,
    /// Why not, when it does not.
    pub reason: Option<Reason>,
    /// The ceiling, for a ceiling.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// The counted value, for a ceiling (`null` when unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<u64>,
    /// The literal, for `require` and `forbid`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// What an inspection found. Every field is a count or a fact read from the trace, except
/// `caller` (given by the caller) and the checks.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Report {
    /// `pass` when every check holds, else `fail`.
    pub status: &'static str,
    /// Lines read, blank ones included.
    pub lines: usize,
    /// Bytes read.
    pub bytes: u64,
    /// What the caller says about the trace.
    pub caller: Caller,
    /// Turn events.
    pub turns: Turns,
    /// `turn.failed` and `error` events (at most [`super::MAX_ERRORS_LISTED`]).
    pub errors: Vec<StreamError>,
    /// All of them.
    pub errors_total: u64,
    /// The text of the last completed `agent_message`.
    pub final_message: Option<String>,
    /// Unique items that are actions: every type but [`super::NON_ACTION_ITEM_TYPES`].
    pub actions: u64,
    /// Unique items by type.
    pub items: Items,
    /// `command_execution` items, in the order of their first event.
    pub commands: Vec<Command>,
    /// The changes of `file_change` items, in the order of their first event.
    pub files_changed: Vec<FileChanged>,
    /// Token usage.
    pub usage: Usage,
    /// Well-formed events of types this reader does not know, by type.
    pub other_events: Counts,
    /// Malformed lines (at most [`super::MAX_MALFORMED_LISTED`]).
    pub malformed: Vec<Malformed>,
    /// All of them.
    pub malformed_total: u64,
    /// Every check, in order: the three fixed ones, then the ones asked for.
    pub checks: Vec<Check>,
    /// Always `true`.
    pub semantic_review_required: bool,
    /// [`super::NOTICE`].
    pub notice: &'static str,
}

impl Report {
    /// 0 when every check holds, else 1.
    pub fn exit_code(&self) -> u8 {
        u8::from(self.checks.iter().any(|c| !c.ok))
    }
}

/// The last state of one item.
struct ItemState {
    kind: String,
    details: Details,
}

/// The running count of a trace, one event at a time.
#[derive(Default)]
pub(super) struct Tally {
    pub lines: usize,
    pub bytes: u64,
    turns: Turns,
    errors: Vec<StreamError>,
    errors_total: u64,
    order: Vec<String>,
    items: HashMap<String, ItemState>,
    final_message: Option<String>,
    usage: UsageSums,
    /// Completed turns without each usage field: input, cached, output.
    missing: [u64; 3],
    with_usage: u64,
    other_events: Counts,
    malformed: Vec<Malformed>,
    malformed_total: u64,
}

impl Tally {
    pub(super) fn malformed(&mut self, line: usize, error: String) {
        self.malformed_total += 1;
        if self.malformed.len() < MAX_MALFORMED_LISTED {
            self.malformed.push(Malformed { line, error });
        }
    }

    fn error(&mut self, line: usize, event: &'static str, message: String) {
        self.errors_total += 1;
        if self.errors.len() < MAX_ERRORS_LISTED {
            let message = message.chars().take(MAX_MESSAGE_CHARS).collect();
            self.errors.push(StreamError {
                line,
                event,
                message,
            });
        }
    }

    pub(super) fn add(&mut self, line: usize, e: Event) {
        match e {
            Event::ThreadStarted => {}
            Event::TurnStarted => self.turns.started += 1,
            Event::TurnCompleted(usage) => {
                self.turns.completed += 1;
                let u = usage.unwrap_or_default();
                self.with_usage += u64::from(usage.is_some());
                for (i, (sum, v)) in [
                    (&mut self.usage.input_tokens, u.input_tokens),
                    (&mut self.usage.cached_input_tokens, u.cached_input_tokens),
                    (&mut self.usage.output_tokens, u.output_tokens),
                ]
                .into_iter()
                .enumerate()
                {
                    match v {
                        Some(v) => *sum = sum.saturating_add(v),
                        None => self.missing[i] += 1,
                    }
                }
            }
            Event::TurnFailed(m) => {
                self.turns.failed += 1;
                self.error(line, "turn.failed", m);
            }
            Event::Error(m) => self.error(line, "error", m),
            Event::Item(phase, item) => {
                if let (Phase::Completed, Details::AgentMessage { text }) = (phase, &item.details) {
                    self.final_message = Some(text.clone());
                }
                let state = ItemState {
                    kind: item.kind,
                    details: item.details,
                };
                match self.items.get_mut(&item.id) {
                    Some(s) => *s = state,
                    None => {
                        self.order.push(item.id.clone());
                        self.items.insert(item.id, state);
                    }
                }
            }
            Event::Other(kind) => *self.other_events.entry(kind).or_default() += 1,
        }
    }

    pub(super) fn finish(self, opts: &Options) -> Report {
        let mut items = Items::default();
        let (mut actions, mut commands, mut files_changed) = (0, Vec::new(), Vec::new());
        for id in &self.order {
            let s = &self.items[id];
            items.total += 1;
            *items.by_type.entry(s.kind.clone()).or_default() += 1;
            if !KNOWN_ITEM_TYPES.contains(&s.kind.as_str()) {
                *items.unknown_types.entry(s.kind.clone()).or_default() += 1;
            }
            if !NON_ACTION_ITEM_TYPES.contains(&s.kind.as_str()) {
                actions += 1;
            }
            match &s.details {
                Details::Command(c) => commands.push(Command {
                    id: id.clone(),
                    command: c.command.clone(),
                    exit_code: c.exit_code,
                    status: c.status.clone(),
                }),
                Details::FileChange(f) => {
                    files_changed.extend(f.changes.iter().map(|c| FileChanged {
                        id: id.clone(),
                        path: c.path.clone(),
                        kind: c.kind.clone(),
                        status: f.status.clone(),
                    }))
                }
                Details::AgentMessage { .. } | Details::None => {}
            }
        }
        // A sum is known only when every turn ended and said it.
        let all_turns = self.turns.completed > 0
            && self.turns.failed == 0
            && self.turns.completed >= self.turns.started;
        let known = |i: usize, v: u64| (all_turns && self.missing[i] == 0).then_some(v);
        let usage = Usage {
            input_tokens: known(0, self.usage.input_tokens),
            cached_input_tokens: known(1, self.usage.cached_input_tokens),
            output_tokens: known(2, self.usage.output_tokens),
            turns_with_usage: self.with_usage,
            turns_without_usage: self.turns.completed - self.with_usage,
            reported: self.usage,
        };
        let mut r = Report {
            status: "pass",
            lines: self.lines,
            bytes: self.bytes,
            caller: opts.caller.clone(),
            turns: self.turns,
            errors: self.errors,
            errors_total: self.errors_total,
            final_message: self.final_message,
            actions,
            items,
            commands,
            files_changed,
            usage,
            other_events: self.other_events,
            malformed: self.malformed,
            malformed_total: self.malformed_total,
            checks: Vec::new(),
            semantic_review_required: true,
            notice: NOTICE,
        };
        r.checks = checks(&r, opts);
        if r.exit_code() != 0 {
            r.status = "fail";
        }
        r
    }
}

fn check(check: &'static str, failure: Option<Reason>) -> Check {
    Check {
        check,
        ok: failure.is_none(),
        reason: failure,
        limit: None,
        value: None,
        text: None,
    }
}

fn checks(r: &Report, opts: &Options) -> Vec<Check> {
    let mut out = vec![
        check(
            "well_formed",
            (r.malformed_total > 0).then_some(Reason::TraceMalformedLine),
        ),
        check(
            "turn_completed",
            if r.errors_total > 0 {
                Some(Reason::TraceTurnFailed)
            } else if r.turns.completed == 0 {
                Some(Reason::TraceTurnIncomplete)
            } else {
                None
            },
        ),
        check(
            "agent_message",
            r.final_message
                .is_none()
                .then_some(Reason::TraceNoAgentMessage),
        ),
    ];
    let ceilings = [
        ("max_actions", opts.max_actions, Some(r.actions)),
        (
            "max_input_tokens",
            opts.max_input_tokens,
            r.usage.input_tokens,
        ),
        (
            "max_output_tokens",
            opts.max_output_tokens,
            r.usage.output_tokens,
        ),
    ];
    for (name, limit, value) in ceilings {
        let Some(limit) = limit else { continue };
        let failure = match value {
            None => Some(Reason::TraceUsageMissing),
            Some(v) if v > limit => Some(Reason::TraceCeilingExceeded),
            Some(_) => None,
        };
        out.push(Check {
            limit: Some(limit),
            value,
            ..check(name, failure)
        });
    }
    let literals = opts.require.iter().map(|t| ("require", t, true));
    let literals = literals.chain(opts.forbid.iter().map(|t| ("forbid", t, false)));
    for (name, text, wanted) in literals {
        let failure = match &r.final_message {
            None => Some(Reason::TraceNoAgentMessage),
            Some(m) if m.contains(text.as_str()) == wanted => None,
            Some(_) if wanted => Some(Reason::TraceRequiredTextMissing),
            Some(_) => Some(Reason::TraceForbiddenTextPresent),
        };
        out.push(Check {
            text: Some(text.clone()),
            ..check(name, failure)
        });
    }
    out
}

/// The event module's item-type lists agree with what the report treats as actions.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_non_action_type_is_a_known_type() {
        for t in NON_ACTION_ITEM_TYPES {
            assert!(KNOWN_ITEM_TYPES.contains(t), "{t}");
        }
    }

    #[test]
    fn a_literal_without_a_final_message_fails_closed() {
        let opts = Options {
            require: vec![String::new()],
            ..Options::default()
        };
        let r = super::super::inspect_reader(&b""[..], &opts).unwrap();
        let c = r.checks.iter().find(|c| c.check == "require").unwrap();
        assert_eq!(c.reason, Some(Reason::TraceNoAgentMessage));
    }
}
