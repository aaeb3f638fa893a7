//! The tools `probity mcp` offers: one per command, each derived from the command's clap
//! definition (`Cli::command()`), so a tool's input schema and the argv it builds can never
//! drift from the CLI; its output schema is the command's envelope schema (`probity schema`)
//! with the two shapes the server adds (a pending call's handle, a truncated result).
//!
//! An argument is the option's clap id (`after_line`, `expect_sha256`, a positional's name:
//! `file`, `roots`, `command`); the argv is `<words> --long=value ... --json -- <positionals>`:
//! `--flag=value` so a value is never read as an option, positionals after `--` so none is
//! either. No shell is involved.

use clap::{ArgAction, CommandFactory};
use serde_json::{Map, Value, json};

use probity::contract::schema;

/// The tools: name, the command's words, whether it only reads (MCP's `readOnlyHint`).
const TOOLS: [(&str, &[&str], bool); 19] = [
    ("place", &["place"], false),
    ("strip", &["strip"], false),
    ("verify", &["verify"], true),
    ("drift", &["drift"], true),
    ("resolve", &["resolve"], true),
    ("session_init", &["session", "init"], false),
    ("session_show", &["session", "show"], true),
    ("session_set_policy", &["session", "set-policy"], false),
    ("run", &["run"], false),
    ("run_start", &["run", "start"], false),
    ("run_finish", &["run", "finish"], false),
    ("compare", &["compare"], true),
    ("cleanup", &["cleanup"], false),
    ("gate", &["gate"], true),
    ("accept_diff", &["accept", "diff"], false),
    ("accept_tests", &["accept", "tests"], false),
    ("accept_reconfirm", &["accept", "reconfirm"], false),
    ("accept_verdict", &["accept", "verdict"], true),
    ("trace_inspect", &["trace", "inspect"], true),
];

/// The tool that waits for a call that outlived its wait (not a command).
pub(super) const POLL: &str = "run_poll";

/// The argument every tool takes besides its command's options.
pub(super) const WAIT: &str = "wait_seconds";

/// The longest wait a call may ask for.
pub(super) const MAX_WAIT_SECONDS: u64 = 600;

/// Options the server sets itself (`--json`), or that make no sense over MCP: the human
/// output's, `gate --hook` (reads a hook's stdin), `verify`'s other output formats; and
/// `--lsp` / `--lsp-timeout` of `resolve` and `drift`, which start a program the caller names:
/// a tool marked read-only must not run commands a prompt could choose.
const NOT_OFFERED: [&str; 11] = [
    "json",
    "quiet",
    "verbose",
    "color",
    "help",
    "version",
    "hook",
    "output_format",
    "sarif",
    "lsp",
    "lsp_timeout",
];

/// The `$defs` names of the two shapes the server adds to every output schema.
pub(super) const PENDING_DEF: &str = "McpPending";
pub(super) const TRUNCATED_DEF: &str = "McpTruncated";

/// The JSON type of an argument's values.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Bool,
    Int,
    Str,
}

/// One argument of a tool: one option or positional of the command.
struct Param {
    key: String,
    long: Option<String>,
    positional: bool,
    kind: Kind,
    multiple: bool,
    required: bool,
    choices: Vec<String>,
    schema: Value,
}

/// One tool: its command and the JSON shapes of its arguments and result.
pub(super) struct Tool {
    pub(super) name: &'static str,
    /// The command's words joined by a space, as its envelope's `command` says.
    pub(super) command: String,
    words: &'static [&'static str],
    params: Vec<Param>,
    description: String,
    read_only: bool,
    input_schema: Value,
    output_schema: Value,
}

/// Every tool, built once from the clap definition.
pub(super) fn catalogue(default_wait: u64) -> Vec<Tool> {
    let mut root = crate::cli::Cli::command();
    root.build();
    TOOLS
        .iter()
        .map(|(name, words, read_only)| {
            let mut cmd = &root;
            for w in *words {
                cmd = cmd
                    .find_subcommand(w)
                    .unwrap_or_else(|| panic!("the CLI has no command {words:?}"));
            }
            tool(name, words, *read_only, cmd, default_wait)
        })
        .collect()
}

fn tool(
    name: &'static str,
    words: &'static [&'static str],
    read_only: bool,
    cmd: &clap::Command,
    default_wait: u64,
) -> Tool {
    let command = words.join(" ");
    let mut params: Vec<Param> = offered(cmd).map(param).collect();
    // An option named as a positional is (`resolve REF...` and `--refs FILE`) goes by its id
    // (`refs_file`).
    let positional_keys: Vec<String> = params
        .iter()
        .filter(|p| p.positional)
        .map(|p| p.key.clone())
        .collect();
    for (p, a) in params.iter_mut().zip(offered(cmd)) {
        if !p.positional && positional_keys.contains(&p.key) {
            p.key = a.get_id().as_str().to_owned();
        }
    }
    for (i, p) in params.iter().enumerate() {
        assert!(
            params[..i].iter().all(|q| q.key != p.key) && p.key != WAIT,
            "{name}: two arguments named {}",
            p.key
        );
    }
    let mut description = cmd
        .get_long_about()
        .or(cmd.get_about())
        .map(|s| s.to_string())
        .unwrap_or_default();
    for g in cmd.get_groups() {
        if g.is_required_set() && !g.clone().is_multiple() {
            let ids: Vec<String> = g.get_args().map(|id| format!("`{id}`")).collect();
            description.push_str(&format!(" Exactly one of {} is required.", ids.join(", ")));
        }
    }
    if name == "run" {
        description.push_str(
            " The call returns within `wait_seconds`: a reproduction still running then goes \
             on, and the result carries a `handle` for run_poll.",
        );
    }
    let mut properties = Map::new();
    let mut required = Vec::new();
    for p in &params {
        properties.insert(p.key.clone(), p.schema.clone());
        if p.required {
            required.push(Value::String(p.key.clone()));
        }
    }
    properties.insert(WAIT.to_owned(), wait_schema(default_wait));
    let input_schema = json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    });
    let output_schema = output_schema(
        &schema::schema(&command)
            .unwrap_or_else(|| panic!("`probity schema` has no schema {command:?}")),
    );
    Tool {
        name,
        command,
        words,
        params,
        description,
        read_only,
        input_schema,
        output_schema,
    }
}

/// The command's arguments a tool offers, options first, positionals in their order.
fn offered(cmd: &clap::Command) -> impl Iterator<Item = &clap::Arg> {
    let all = || {
        cmd.get_arguments()
            .filter(|a| !a.is_hide_set() && !NOT_OFFERED.contains(&a.get_id().as_str()))
    };
    all()
        .filter(|a| !a.is_positional())
        .chain(all().filter(|a| a.is_positional()))
}

fn param(a: &clap::Arg) -> Param {
    use std::any::TypeId;
    // An option's argument is named as its flag is (`--after-line`: `after_line`, `--capture`:
    // `capture`), a positional by its id (`file`, `roots`, `command`).
    let key = match a.get_long() {
        Some(long) if !a.is_positional() => long.replace('-', "_"),
        _ => a.get_id().as_str().to_owned(),
    };
    let kind = if matches!(a.get_action(), ArgAction::SetTrue) {
        Kind::Bool
    } else {
        let t = a.get_value_parser().type_id();
        let ints = [
            TypeId::of::<u8>(),
            TypeId::of::<u16>(),
            TypeId::of::<u32>(),
            TypeId::of::<u64>(),
            TypeId::of::<usize>(),
        ];
        if ints.iter().any(|i| t == *i) {
            Kind::Int
        } else {
            Kind::Str
        }
    };
    let multiple = matches!(a.get_action(), ArgAction::Append)
        || a.get_num_args().is_some_and(|r| r.max_values() > 1);
    let choices: Vec<String> = a
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| v.get_name().to_owned())
        .collect();
    let mut one = Map::new();
    one.insert(
        "type".into(),
        match kind {
            Kind::Bool => "boolean",
            Kind::Int => "integer",
            Kind::Str => "string",
        }
        .into(),
    );
    if kind == Kind::Int {
        one.insert("minimum".into(), 0.into());
    }
    if !choices.is_empty() && kind == Kind::Str {
        one.insert("enum".into(), choices.clone().into());
    }
    let mut schema = if multiple {
        let mut m = Map::new();
        m.insert("type".into(), "array".into());
        m.insert("items".into(), Value::Object(one));
        m
    } else {
        one
    };
    let help = a
        .get_long_help()
        .or(a.get_help())
        .map(|s| s.to_string())
        .unwrap_or_default();
    if !help.is_empty() {
        schema.insert("description".into(), help.into());
    }
    if let [d] = a.get_default_values()
        && kind != Kind::Bool
        && !multiple
    {
        let d = d.to_string_lossy().into_owned();
        let v = match kind {
            Kind::Int => d
                .parse::<u64>()
                .map(Value::from)
                .unwrap_or(Value::String(d)),
            _ => Value::String(d),
        };
        schema.insert("default".into(), v);
    }
    Param {
        key,
        long: a.get_long().map(str::to_owned),
        positional: a.is_positional(),
        kind,
        multiple,
        required: a.is_required_set(),
        choices,
        schema: Value::Object(schema),
    }
}

fn wait_schema(default_wait: u64) -> Value {
    json!({
        "type": "integer",
        "minimum": 0,
        "maximum": MAX_WAIT_SECONDS,
        "default": default_wait,
        "description": "How long this call waits for the command, in seconds. A command still \
            running then goes on: the result is {\"pending\": true, \"handle\": ...}, and \
            run_poll with that handle returns its result.",
    })
}

/// A command's envelope schema as an MCP output schema: its variants, plus the pending and the
/// truncated shapes, under one `oneOf` whose root is an object (as MCP requires), `$defs`
/// hoisted to the root so every `$ref` still resolves.
pub(super) fn output_schema(envelope: &Value) -> Value {
    let mut s = envelope.as_object().cloned().unwrap_or_default();
    let mut defs = match s.remove("$defs") {
        Some(Value::Object(d)) => d,
        _ => Map::new(),
    };
    let mut root = Map::new();
    for k in ["$schema", "title", "description"] {
        if let Some(v) = s.remove(k) {
            root.insert(k.to_owned(), v);
        }
    }
    let mut variants = match s.remove("oneOf") {
        Some(Value::Array(v)) if s.is_empty() => v,
        Some(v) => {
            s.insert("oneOf".into(), v);
            vec![Value::Object(s)]
        }
        None => vec![Value::Object(s)],
    };
    // The reason codes without their descriptions (16 KB of every schema): the same values;
    // their meanings are docs/reason-codes.md.
    if let Some(Value::Object(reason)) = defs.get_mut("Reason") {
        compact_enum(reason);
    }
    for v in variants.iter_mut().chain(defs.values_mut()) {
        drop_int_formats(v);
    }
    for (name, def) in [
        (PENDING_DEF, pending_schema()),
        (TRUNCATED_DEF, truncated_schema()),
    ] {
        assert!(defs.insert(name.to_owned(), def).is_none(), "$defs {name}");
        variants.push(json!({"$ref": format!("#/$defs/{name}")}));
    }
    root.insert("type".into(), "object".into());
    root.insert("oneOf".into(), Value::Array(variants));
    root.insert("$defs".into(), Value::Object(defs));
    Value::Object(root)
}

/// Remove schemars' `format` of integers (`uint`, `uint64`, `int32`...): no JSON Schema format,
/// so clients' validators (the TypeScript SDK's ajv) warn about each, and `minimum` already
/// says what it means.
fn drop_int_formats(v: &mut Value) {
    match v {
        Value::Object(m) => {
            let int_format = m.get("format").and_then(Value::as_str).is_some_and(|f| {
                let digits = f.strip_prefix('u').unwrap_or(f).strip_prefix("int");
                digits.is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
            });
            if int_format {
                m.remove("format");
            }
            m.values_mut().for_each(drop_int_formats);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_int_formats),
        _ => {}
    }
}

/// A `oneOf` of `const` strings as one `enum` of those strings.
fn compact_enum(def: &mut Map<String, Value>) {
    let Some(Value::Array(variants)) = def.get("oneOf") else {
        return;
    };
    let values: Option<Vec<Value>> = variants.iter().map(|v| v.get("const").cloned()).collect();
    if let Some(values) = values {
        def.remove("oneOf");
        def.insert("type".into(), "string".into());
        def.insert("enum".into(), Value::Array(values));
        def.insert(
            "description".into(),
            "A reason code: docs/reason-codes.md says what each means.".into(),
        );
    }
}

fn pending_schema() -> Value {
    json!({
        "description": "The command is still running after the call's wait: pass `handle` to \
            run_poll for its result (returned once).",
        "type": "object",
        "additionalProperties": false,
        "required": ["pending", "handle", "command", "elapsed_ms", "next"],
        "properties": {
            "pending": {"const": true},
            "handle": {"type": "string"},
            "command": {"type": "string"},
            "elapsed_ms": {"type": "integer", "minimum": 0},
            "next": {"type": "string"},
        },
    })
}

fn truncated_schema() -> Value {
    json!({
        "description": "The result was over the server's size cap: the envelope's head and a \
            summary of its data; the full output (what `probity <command> --json` printed) is \
            in the file `full_result`.",
        "type": "object",
        "additionalProperties": false,
        "required": ["truncated", "full_result", "chars", "schema_version", "command",
            "status", "reason", "detail", "data_summary"],
        "properties": {
            "truncated": {"const": true},
            "full_result": {"type": "string"},
            "chars": {"type": "integer", "minimum": 0},
            "schema_version": {"type": "integer"},
            "command": {"type": "string"},
            "status": {"enum": ["ok", "not_clean", "refused", "failed"]},
            "reason": {"type": ["string", "null"]},
            "detail": {"type": ["string", "null"]},
            "data_summary": {"type": "object"},
        },
    })
}

impl Tool {
    /// The tool as `tools/list` lists it under the protocol revision `version`: `title` and
    /// `outputSchema` from 2025-06-18, `annotations` from 2025-03-26.
    pub(super) fn listing(&self, version: &str) -> Value {
        listing(
            self.name,
            &format!("probity {}", self.command),
            &self.description,
            &self.input_schema,
            &self.output_schema,
            self.read_only,
            version,
        )
    }

    /// The argv of the command for `args` (the tool call's `arguments`), or why they are not
    /// the tool's arguments (an unknown key, a wrong type, a missing required one).
    pub(super) fn argv(&self, args: &Map<String, Value>) -> Result<Vec<String>, String> {
        for k in args.keys() {
            if k != WAIT && !self.params.iter().any(|p| p.key == *k) {
                let known: Vec<&str> = self.params.iter().map(|p| p.key.as_str()).collect();
                return Err(format!(
                    "{}: no argument `{k}`; the arguments: {}, {WAIT}",
                    self.name,
                    known.join(", ")
                ));
            }
        }
        let mut argv: Vec<String> = self.words.iter().map(|w| (*w).to_owned()).collect();
        let mut positionals = Vec::new();
        for p in &self.params {
            let values = match args.get(&p.key) {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::Array(items)) if p.multiple => items.iter().collect(),
                Some(v) => vec![v],
            };
            if values.is_empty() && p.required {
                return Err(format!(
                    "{}: the argument `{}` is required",
                    self.name, p.key
                ));
            }
            for v in values {
                let word = p
                    .word(v)
                    .map_err(|e| format!("{}: `{}` {e}", self.name, p.key))?;
                match (word, &p.long) {
                    (Word::Value(t), _) if p.positional => positionals.push(t),
                    (Word::Value(t), Some(long)) => argv.push(format!("--{long}={t}")),
                    (Word::Flag, Some(long)) => argv.push(format!("--{long}")),
                    _ => {}
                }
            }
        }
        argv.push("--json".to_owned());
        if !positionals.is_empty() {
            argv.push("--".to_owned());
            argv.extend(positionals);
        }
        Ok(argv)
    }
}

/// What one argument value adds to the argv.
enum Word {
    /// `--long=value`, or the positional `value`.
    Value(String),
    /// `--long` (a flag that is true).
    Flag,
    /// Nothing (a flag that is false).
    Nothing,
}

impl Param {
    /// One value as argv text, checked against the argument's type and choices.
    fn word(&self, v: &Value) -> Result<Word, String> {
        let t = match (self.kind, v) {
            (Kind::Bool, Value::Bool(true)) => return Ok(Word::Flag),
            (Kind::Bool, Value::Bool(false)) => return Ok(Word::Nothing),
            (Kind::Int, Value::Number(n)) => match n.as_u64() {
                Some(u) => u.to_string(),
                // A whole number sent as a float (`3.0`).
                None => match n.as_f64() {
                    Some(f) if (0.0..9.0e15).contains(&f) && f.fract() == 0.0 => {
                        (f as u64).to_string()
                    }
                    _ => return Err("must be a whole number, 0 or more".into()),
                },
            },
            (Kind::Str, Value::String(s)) => s.clone(),
            (Kind::Bool, _) => return Err("must be true or false".into()),
            (Kind::Int, _) => return Err("must be a whole number".into()),
            (Kind::Str, _) => return Err("must be a string".into()),
        };
        if t.contains('\0') {
            return Err("holds a NUL character".into());
        }
        if !self.choices.is_empty() && !self.choices.contains(&t) {
            return Err(format!("must be one of: {}", self.choices.join(", ")));
        }
        Ok(Word::Value(t))
    }
}

/// A `tools/list` entry.
fn listing(
    name: &str,
    title: &str,
    description: &str,
    input: &Value,
    output: &Value,
    read_only: bool,
    version: &str,
) -> Value {
    use super::mcp_protocol::at_least;
    let mut t = Map::new();
    t.insert("name".into(), name.into());
    if at_least(version, "2025-06-18") {
        t.insert("title".into(), title.into());
    }
    t.insert("description".into(), description.into());
    t.insert("inputSchema".into(), input.clone());
    if at_least(version, "2025-06-18") {
        t.insert("outputSchema".into(), output.clone());
    }
    if at_least(version, "2025-03-26") {
        t.insert(
            "annotations".into(),
            json!({
                "title": title,
                "readOnlyHint": read_only,
                "destructiveHint": false,
                "openWorldHint": false,
            }),
        );
    }
    Value::Object(t)
}

/// The `run_poll` tool's entry: its output is any command's envelope (the generic one of
/// `probity schema envelope`), or pending again.
pub(super) fn poll_listing(version: &str, default_wait: u64) -> Value {
    let input = json!({
        "type": "object",
        "properties": {
            "handle": {
                "type": "string",
                "description": "The `handle` of a pending result (run, or any call that outlived \
                    its wait).",
            },
            WAIT: wait_schema(default_wait),
        },
        "required": ["handle"],
        "additionalProperties": false,
    });
    let output = output_schema(&schema::schema("envelope").unwrap_or_default());
    listing(
        POLL,
        "probity: wait for a pending call",
        "Wait up to `wait_seconds` for a call that returned a handle ({\"pending\": true}), and \
         return its result: the envelope its command printed, exactly as the call would have \
         returned it. A result is returned once; a call still running is pending again.",
        &input,
        &output,
        true,
        version,
    )
}
