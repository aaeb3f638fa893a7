//! JSON Schemas (draft 2020-12) of every command's `--json` envelope, of the ledger (schema v1)
//! and of the event envelope, derived with `schemars` from the types that produce them
//! (`probity schema`). The hand-written parts are only what a type cannot say: the constants
//! (`schema_version`, `command`), which statuses a command ends with, and the bounds of an event.

use serde_json::{Value, json};

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, SchemaGenerator};

use super::data;
use super::{Refusal, SCHEMA_VERSION, Status};
use crate::reason::Reason;

/// The `$schema` of every schema.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// Every command with `--json`, and the statuses it may end with besides `refused`.
pub const COMMANDS: &[(&str, &[Status])] = &[
    ("place", OK),
    ("strip", OK_NOT_CLEAN),
    ("session init", OK),
    ("session show", OK),
    ("session set-policy", OK),
    ("session render", OK),
    ("session sync", OK),
    ("run", OK_FAILED),
    ("run start", OK),
    ("run finish", OK),
    ("compare", OK),
    ("cleanup", OK_NOT_CLEAN),
    ("gate", OK_NOT_CLEAN),
    ("env", OK),
    ("verify", ALL_DONE),
    ("languages", OK),
    ("resolve", OK_NOT_CLEAN),
    ("index", OK),
    ("drift", OK_NOT_CLEAN),
    ("trace inspect", OK_NOT_CLEAN),
    ("accept diff", OK_NOT_CLEAN),
    ("accept tests", OK_NOT_CLEAN),
    ("accept reconfirm", ALL_DONE),
    ("accept record", OK),
    ("accept verdict", OK_NOT_CLEAN),
];

const OK: &[Status] = &[Status::Ok];
const OK_NOT_CLEAN: &[Status] = &[Status::Ok, Status::NotClean];
const OK_FAILED: &[Status] = &[Status::Ok, Status::Failed];
const ALL_DONE: &[Status] = &[Status::Ok, Status::NotClean, Status::Failed];

/// The schemas that are not a command's: any envelope, a line of `verify --json` before its
/// envelope, the ledger, the event envelope.
pub const OTHERS: &[&str] = &["envelope", "verify record", "ledger", "event"];

/// Every schema name: the commands, then [`OTHERS`].
pub fn names() -> Vec<&'static str> {
    COMMANDS
        .iter()
        .map(|(c, _)| *c)
        .chain(OTHERS.iter().copied())
        .collect()
}

/// The schema called `name` (a command as [`COMMANDS`] spells it, or one of [`OTHERS`]); `-`
/// may stand for the space (`session-init`).
pub fn schema(name: &str) -> Option<Value> {
    let name = names()
        .into_iter()
        .find(|n| *n == name || n.replace(' ', "-") == name)?;
    Some(match name {
        "envelope" => any_envelope(),
        "verify record" => record(),
        "ledger" => ledger(),
        "event" => event(),
        command => {
            let statuses = COMMANDS.iter().find(|(c, _)| *c == command)?.1;
            match command {
                "place" => envelope::<crate::ops::PlaceReport>(command, statuses),
                "strip" => envelope::<crate::ops::StripReport>(command, statuses),
                "session init" => envelope::<data::SessionInit>(command, statuses),
                "session show" => envelope::<data::SessionShow>(command, statuses),
                "session set-policy" => envelope::<data::SessionSetPolicy>(command, statuses),
                "session render" => envelope::<data::SessionRender>(command, statuses),
                "session sync" => envelope::<data::SessionSync>(command, statuses),
                "run" | "run finish" => envelope::<crate::session::RunReport>(command, statuses),
                "run start" => envelope::<data::RunStart>(command, statuses),
                "compare" => envelope::<data::Compare>(command, statuses),
                "cleanup" => envelope::<data::Cleanup>(command, statuses),
                "gate" => envelope::<data::Gate>(command, statuses),
                "env" => envelope::<data::Env>(command, statuses),
                "verify" => envelope::<crate::scan::Summary>(command, statuses),
                "languages" => envelope::<data::Languages>(command, statuses),
                "resolve" => envelope::<data::Resolve>(command, statuses),
                "index" => envelope::<data::Index>(command, statuses),
                "drift" => envelope::<data::Drift>(command, statuses),
                "trace inspect" => envelope::<data::TraceInspect>(command, statuses),
                "accept diff" => envelope::<data::AcceptDiff>(command, statuses),
                "accept tests" => envelope::<data::AcceptTests>(command, statuses),
                "accept reconfirm" => envelope::<data::AcceptReconfirm>(command, statuses),
                "accept record" => envelope::<data::AcceptRecord>(command, statuses),
                "accept verdict" => envelope::<data::AcceptVerdict>(command, statuses),
                _ => return None,
            }
        }
    })
}

/// Every schema, by name.
pub fn all() -> Value {
    Value::Object(
        names()
            .into_iter()
            .filter_map(|n| Some((n.to_owned(), schema(n)?)))
            .collect(),
    )
}

/// A generator of schemas of what probity writes (fields skipped when empty are optional).
fn generator() -> SchemaGenerator {
    SchemaGenerator::new(SchemaSettings::draft2020_12().for_serialize())
}

fn status_names(s: &[Status]) -> Vec<Value> {
    s.iter().map(|s| json!(s)).collect()
}

/// One command's envelope: `oneOf` its done shape (data `T`) and its refusal.
fn envelope<T: JsonSchema>(command: &str, statuses: &[Status]) -> Value {
    let mut g = generator();
    let data = g.subschema_for::<T>().to_value();
    let reason = g.subschema_for::<Reason>().to_value();
    let refusal = g.subschema_for::<Refusal>().to_value();
    let defs = Value::Object(g.take_definitions(true).into_iter().collect());
    let head = |status: Value, reason: Value, detail: Value, data: Value| {
        json!({
            "type": "object",
            "required": ["schema_version", "command", "status", "reason", "detail", "data"],
            "additionalProperties": false,
            "properties": {
                "schema_version": {"const": SCHEMA_VERSION},
                "command": {"const": command},
                "status": status,
                "reason": reason,
                "detail": detail,
                "data": data,
            }
        })
    };
    let done = head(
        json!({"enum": status_names(statuses)}),
        json!({"anyOf": [reason.clone(), {"type": "null"}]}),
        json!({"type": ["string", "null"]}),
        data,
    );
    let refused = head(
        json!({"const": "refused"}),
        reason,
        json!({"type": "string"}),
        refusal,
    );
    json!({
        "$schema": DIALECT,
        "title": format!("probity {command} --json"),
        "description": format!(
            "The envelope `probity {command} --json` prints (schema_version {SCHEMA_VERSION}): \
             its data when done, a reason code when refused."
        ),
        "oneOf": [done, refused],
        "$defs": defs,
    })
}

/// Any command's envelope, data unconstrained (a usage error names no known command).
fn any_envelope() -> Value {
    let mut v = generator()
        .into_root_schema_for::<super::Envelope<Value>>()
        .to_value();
    v["title"] = json!("probity --json envelope");
    v["properties"]["schema_version"] = json!({"const": SCHEMA_VERSION});
    v["additionalProperties"] = json!(false);
    v
}

/// A line of `verify --json` before its envelope: a finding or a file error, by `type`.
fn record() -> Value {
    let mut v = generator()
        .into_root_schema_for::<crate::scan::Record>()
        .to_value();
    v["title"] = json!("probity verify --json record (every line before the envelope)");
    v
}

/// The ledger, Runtime Evidence schema v1 (docs/contracts.md §6): what probity reads (a ledger
/// without a session has no session fields).
fn ledger() -> Value {
    let mut v = SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<crate::ledger::Ledger>()
        .to_value();
    v["title"] = json!("probity ledger (Runtime Evidence schema v1)");
    v["properties"]["schema_version"] = json!({"const": 1});
    v
}

/// One event (docs/contracts.md §7): the object after `GSDDBG1 ` on an event line.
fn event() -> Value {
    let mut v = crate::events::event_schema().to_value();
    v["title"] = json!("probity event envelope (one line: `GSDDBG1 ` then this object)");
    let p = &mut v["properties"];
    p["schema_version"] = json!({"const": 1});
    p["hypothesis_ids"]["minItems"] = json!(1);
    p["ordinal"]["minimum"] = json!(1);
    p["data"]["additionalProperties"] = json!({"type": ["null", "boolean", "number", "string"]});
    v
}
