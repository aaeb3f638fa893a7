//! Sink validation: turn the untrusted bytes a reproduction run wrote into per-probe observations.
//!
//! Events are untrusted input (docs/contracts.md §7, ADR-1577): read with hard bounds, parsed
//! strictly, never executed or followed. Every deviation makes the affected observation
//! `inconclusive` with a reason; a line that cannot be attributed to one probe makes every probe
//! inconclusive. Only sanitized facts leave this module: counts, hashes, enums and citations.
//! Captured values are returned separately, bounded, for display as untrusted data only.
//! The verdict types are ledger data ([`crate::ledger::Observation`],
//! [`crate::ledger::Inconclusive`]); this module produces them and persists nothing.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::ledger::{Inconclusive, Observation, Phase};
use crate::protocol::{
    EVENT_PREFIX, MAX_EVENT_BYTES, MAX_EVENTS_PER_PROBE, MAX_RUN_BYTES, MAX_SEQ_ITEMS,
};
use crate::source::sha256_hex;

mod rust_value;
pub use rust_value::{normalize_data, rust_value};

/// The per-session secret that keys `values_sha256` (issue 12): the hash of a run's captured
/// values is SHA-256 over this key, a zero byte and the values, so the ledger alone does not let
/// anyone test guesses of a value (a PIN) against it, while two runs of one session still
/// compare. It lives in a 0600 file beside the ledger ([`values_key_path`]), never in it, is
/// created only by a run that records values ([`session_values_key`]), and `cleanup` removes it.
#[derive(Clone, PartialEq, Eq)]
pub struct ValuesKey([u8; 32]);

impl std::fmt::Debug for ValuesKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ValuesKey(..)")
    }
}

impl ValuesKey {
    /// A key of these bytes (tests and callers that keep their own secret).
    pub const fn from_bytes(bytes: [u8; 32]) -> Self {
        ValuesKey(bytes)
    }

    /// The keyed hash of `values`.
    fn hash(&self, values: &[u8]) -> String {
        let mut b = Vec::with_capacity(33 + values.len());
        b.extend_from_slice(&self.0);
        b.push(0);
        b.extend_from_slice(values);
        sha256_hex(&b)
    }
}

/// Where the values key of the session whose ledger is `ledger` lives: `<ledger>.values-key`.
pub fn values_key_path(ledger: &Path) -> PathBuf {
    let mut p = ledger.as_os_str().to_owned();
    p.push(".values-key");
    PathBuf::from(p)
}

/// The session's values key, for a run that records values (the session has live probes;
/// no other run creates one). `recorded` is the key file's identity as the ledger recorded it
/// when probity created the file ([`crate::ledger::Ledger::values_key`]); the caller saves it.
///
/// An existing key is used only when it is exactly what probity made for this session: opened
/// without following links, a regular file of this user with one link, no group or other
/// permission bit, 32 bytes, and the recorded identity. Anything else (a key that arrived with a
/// clone or was planted, a symlink, a key of another user or readable by others, or one whose
/// identity the ledger does not hold) is never read: it is unlinked (which never follows a
/// link) and a fresh key is created in its place, exclusively (`O_CREAT|O_EXCL|O_NOFOLLOW`,
/// mode 0600), its identity recorded. A key probity did not make therefore never keys a
/// `values_sha256`; hashes of runs before a replaced key do not compare with later ones.
/// See: issue 21, class 12.
pub fn session_values_key(
    ledger: &Path,
    recorded: &mut Option<crate::ledger::Identity>,
) -> Result<ValuesKey, Error> {
    let path = values_key_path(ledger);
    let opened = std::fs::File::options()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(&path);
    match opened {
        Ok(mut f) => {
            let meta = f.metadata().map_err(|e| Error::io(&path, e))?;
            // SAFETY: geteuid has no preconditions.
            let mine = meta.uid() == unsafe { libc::geteuid() };
            let trusted = meta.is_file()
                && mine
                && meta.nlink() == 1
                && meta.len() == 32
                && meta.permissions().mode() & 0o077 == 0
                && recorded.as_ref() == Some(&key_identity(&meta));
            if trusted {
                let mut key = [0u8; 32];
                f.read_exact(&mut key).map_err(|e| Error::io(&path, e))?;
                return Ok(ValuesKey(key));
            }
            drop(f);
            remove_values_key(ledger)?;
        }
        // A symlink (`O_NOFOLLOW`): never followed, removed.
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => remove_values_key(ledger)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(Error::io(&path, e)),
    }
    let mut f = std::fs::File::options()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(&path)
        .map_err(|e| Error::io(&path, e))?;
    let mut key = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut r| r.read_exact(&mut key))
        .and_then(|()| f.write_all(&key))
        .and_then(|()| f.sync_all())
        .map_err(|e| Error::io(&path, e))?;
    let meta = f.metadata().map_err(|e| Error::io(&path, e))?;
    *recorded = Some(key_identity(&meta));
    Ok(ValuesKey(key))
}

/// The identity of a key file (`posix_dev_ino`).
fn key_identity(meta: &std::fs::Metadata) -> crate::ledger::Identity {
    crate::ledger::Identity {
        scheme: "posix_dev_ino".into(),
        volume_id: meta.dev().to_string(),
        file_id: meta.ino().to_string(),
    }
}

/// Remove the session's values key (gone after cleanup); an absent key is fine.
pub fn remove_values_key(ledger: &Path) -> Result<(), Error> {
    let path = values_key_path(ledger);
    match std::fs::remove_file(&path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(&path, e)),
        _ => Ok(()),
    }
}

/// A probe the run is judged against.
#[derive(Debug, Clone)]
pub struct ExpectedProbe {
    /// Probe id.
    pub id: String,
    /// Ledgered hypotheses.
    pub hypothesis_ids: Vec<String>,
    /// Whether it is a control probe (`message == "control"`).
    pub control: bool,
}

/// Who may write into this sink.
#[derive(Debug, Clone)]
pub struct RunIdentity {
    /// Session slug (the events' `session_id`).
    pub session_id: String,
    /// `run-N`.
    pub run_id: String,
    /// `baseline` or `post_fix`.
    pub phase: Phase,
}

/// One event line's JSON object (docs/contracts.md §7), as [`event_schema`] describes it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Envelope {
    schema_version: u32,
    session_id: String,
    run_id: String,
    probe_id: String,
    hypothesis_ids: Vec<String>,
    #[schemars(with = "String")]
    phase: Phase,
    ordinal: u64,
    location: String,
    message: String,
    data: serde_json::Map<String, serde_json::Value>,
    timestamp: serde_json::Number,
    pid: u64,
}

/// The JSON Schema (draft 2020-12) of an event line's object (after the `GSDDBG1 ` prefix),
/// derived from the type the reader parses it into; `crate::contract::schema` tightens it.
pub fn event_schema() -> schemars::Schema {
    schemars::schema_for!(Envelope)
}

/// One valid event's captured values, for display as untrusted data.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CapturedEvent {
    /// Probe id.
    pub probe: String,
    /// Process id.
    pub pid: u64,
    /// Ordinal.
    pub ordinal: u64,
    /// The `data` object (scalars and short sequences of scalars, bounded).
    pub data: serde_json::Map<String, serde_json::Value>,
}

/// The judgement of one run's sink.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Analysis {
    /// Observation per expected probe, by id.
    pub observations: BTreeMap<String, Observation>,
    /// Lines seen (complete or not).
    pub lines: usize,
    /// Bytes read.
    pub bytes: usize,
    /// Valid events kept (for display only; never persisted).
    #[serde(skip)]
    pub captured: Vec<CapturedEvent>,
}

/// A value `data` may hold: a scalar (null, bool, number, a string within the line bound), or a
/// short sequence (at most [`MAX_SEQ_ITEMS`]) of scalars. Nothing nests deeper.
fn data_value(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::Array(items) => items.len() <= MAX_SEQ_ITEMS && items.iter().all(scalar),
        v => scalar(v),
    }
}

fn scalar(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::String(s) => s.len() <= MAX_EVENT_BYTES,
        serde_json::Value::Array(_) | serde_json::Value::Object(_) => false,
        _ => true,
    }
}

type Data = serde_json::Map<String, serde_json::Value>;
/// One process's events of one probe: its pid and `(ordinal, data)` in order.
type PidEvents = (u64, Vec<(u64, Data)>);

/// Judge a sink's bytes. `bytes` must already be bounded by the reader (at most
/// [`MAX_RUN_BYTES`] + 1); more than [`MAX_RUN_BYTES`] is an overflow of every probe.
/// `values_sha256` is keyed with the session's `key` ([`ValuesKey`]).
pub fn analyze(
    bytes: &[u8],
    run: &RunIdentity,
    probes: &[ExpectedProbe],
    key: &ValuesKey,
) -> Analysis {
    let mut problems: BTreeMap<String, Inconclusive> = BTreeMap::new();
    let mut global: Option<Inconclusive> = None;
    // (probe) -> pid -> ordinals/data, pids in order of first appearance.
    let mut seen: BTreeMap<String, Vec<PidEvents>> = BTreeMap::new();
    let mut captured = Vec::new();
    let mut lines = 0;
    let known = |id: &str| probes.iter().find(|p| p.id == id);
    let flag = |problems: &mut BTreeMap<String, Inconclusive>, id: &str, r: Inconclusive| {
        problems.entry(id.to_owned()).or_insert(r);
    };

    if bytes.len() > MAX_RUN_BYTES {
        global = Some(Inconclusive::Overflow);
    }
    let body = &bytes[..bytes.len().min(MAX_RUN_BYTES)];
    let mut rest = body;
    while !rest.is_empty() {
        lines += 1;
        let (line, complete) = match memchr::memchr(b'\n', rest) {
            Some(i) => {
                let l = &rest[..i];
                rest = &rest[i + 1..];
                (l, true)
            }
            None => {
                let l = rest;
                rest = &[];
                (l, false)
            }
        };
        if !complete {
            if global.is_none() {
                global = Some(if bytes.len() > MAX_RUN_BYTES {
                    Inconclusive::Overflow
                } else {
                    Inconclusive::TornWrite
                });
            }
            break;
        }
        if line.len() > MAX_EVENT_BYTES {
            global.get_or_insert(Inconclusive::Malformed);
            continue;
        }
        if memchr::memmem::find(
            &line[1.min(line.len())..],
            EVENT_PREFIX.trim_end().as_bytes(),
        )
        .is_some()
        {
            global.get_or_insert(Inconclusive::InterleavedWrite);
            continue;
        }
        let Some(json) = line.strip_prefix(EVENT_PREFIX.as_bytes()) else {
            global.get_or_insert(Inconclusive::Malformed);
            continue;
        };
        let mut env: Envelope = match serde_json::from_slice(json) {
            Ok(e) => e,
            Err(_) => {
                global.get_or_insert(Inconclusive::Malformed);
                continue;
            }
        };
        let Some(expected) = known(&env.probe_id) else {
            // An event for a probe this run does not know: forged or foreign.
            global.get_or_insert(Inconclusive::IdentityMismatch);
            continue;
        };
        if env.schema_version != 1
            || !env.data.values().all(data_value)
            || env.location.len() > 512
            || env.message.len() > 64
        {
            flag(&mut problems, &env.probe_id, Inconclusive::Malformed);
            continue;
        }
        if env.session_id != run.session_id
            || env.run_id != run.run_id
            || env.phase != run.phase
            || env.hypothesis_ids.is_empty()
            || env.hypothesis_ids != expected.hypothesis_ids
        {
            flag(&mut problems, &env.probe_id, Inconclusive::IdentityMismatch);
            continue;
        }
        let _ = &env.timestamp;
        normalize_data(&env.location, &mut env.data);
        let per_pid = seen.entry(env.probe_id.clone()).or_default();
        let idx = match per_pid.iter().position(|(pid, _)| *pid == env.pid) {
            Some(i) => i,
            None => {
                per_pid.push((env.pid, Vec::new()));
                per_pid.len() - 1
            }
        };
        let events = &mut per_pid[idx].1;
        let next = events.len() as u64 + 1;
        if env.ordinal != next {
            let r = if events.iter().any(|(o, _)| *o == env.ordinal) {
                Inconclusive::DuplicateOrdinal
            } else {
                Inconclusive::NonMonotonicOrdinal
            };
            flag(&mut problems, &env.probe_id, r);
            continue;
        }
        if events.len() >= MAX_EVENTS_PER_PROBE {
            flag(&mut problems, &env.probe_id, Inconclusive::Overflow);
            continue;
        }
        events.push((env.ordinal, env.data.clone()));
        captured.push(CapturedEvent {
            probe: env.probe_id.clone(),
            pid: env.pid,
            ordinal: env.ordinal,
            data: env.data,
        });
    }

    let control_fired = probes.iter().any(|p| {
        p.control && !problems.contains_key(&p.id) && seen.get(&p.id).is_some_and(|v| !v.is_empty())
    });
    let mut observations = BTreeMap::new();
    for p in probes {
        let obs = if let Some(r) = global {
            Observation::Inconclusive { reason: r }
        } else if let Some(r) = problems.get(&p.id) {
            Observation::Inconclusive { reason: *r }
        } else {
            match seen.get(&p.id) {
                Some(per_pid) if !per_pid.is_empty() => {
                    let mut citations = Vec::new();
                    let mut seq = Vec::new();
                    for (_, evs) in per_pid {
                        seq.push(
                            evs.iter()
                                .map(|(_, d)| serde_json::Value::Object(d.clone()))
                                .collect::<Vec<_>>(),
                        );
                        citations.extend(
                            evs.iter()
                                .map(|(o, _)| format!("{}:{}:{o}", run.run_id, p.id)),
                        );
                    }
                    Observation::Observed {
                        event_count: citations.len(),
                        process_count: per_pid.len(),
                        citations,
                        values_sha256: key
                            .hash(serde_json::Value::from(seq).to_string().as_bytes()),
                    }
                }
                _ if control_fired => Observation::NotObserved,
                _ => Observation::Inconclusive {
                    reason: Inconclusive::NoControlEvent,
                },
            }
        };
        observations.insert(p.id.clone(), obs);
    }
    Analysis {
        observations,
        lines,
        bytes: bytes.len(),
        captured,
    }
}
