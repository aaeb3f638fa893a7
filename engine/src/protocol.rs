//! The numbers and tokens of the probe protocol that more than one layer must agree on: the
//! marker tag, the event prefix and every bound of docs/contracts.md §7 (events per probe, bytes
//! per event and per run, characters per value) and of the ledger (probes per session).
//!
//! Data only: probe rendering ([`crate::probe`]) bakes these into every block, event validation
//! ([`crate::events`]) and the sink reader (`sink`) enforce them on what comes back, so
//! a limit changed here changes both sides at once.

/// Marker payload prefix; a marker line is `<c> gsd-debug-probe:start|end <slug> <probe-id>`.
pub const MARKER_TAG: &str = "gsd-debug-probe:";
/// The line prefix of every event.
pub const EVENT_PREFIX: &str = "GSDDBG1 ";
/// Events allowed per probe per process (docs/contracts.md §7).
pub const MAX_EVENTS_PER_PROBE: usize = 100;
/// Bytes allowed per event line, prefix included, newline excluded (docs/contracts.md §7).
pub const MAX_EVENT_BYTES: usize = 1024;
/// Bytes a run's sink may hold; more is an overflow of every probe.
pub const MAX_RUN_BYTES: usize = 262_144;
/// Characters kept of each captured string value.
pub const MAX_VALUE_CHARS: usize = 96;
/// Items a captured sequence may hold to be written as a JSON array (of scalars); a longer or
/// nested sequence is written as its text (docs/probes.md, "Values").
pub const MAX_SEQ_ITEMS: usize = 8;
/// Upper bound of the fixed part of an event, so data always has room within a line.
pub const MAX_STATIC_JSON_BYTES: usize = 512;
/// At most this many `--capture` values.
pub const MAX_CAPTURES: usize = 8;
/// Maximum live probes in one session ledger.
pub const MAX_PROBES: usize = 10;
/// The version of every command's `--json` output (the envelope of `crate::contract`, and the
/// records `verify --json` streams before it). 2 since the one envelope (issue 13).
pub const OUTPUT_SCHEMA_VERSION: u32 = 2;
