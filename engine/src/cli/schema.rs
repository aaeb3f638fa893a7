//! `probity schema [NAME]`: the JSON Schemas (draft 2020-12) of every command's `--json`
//! envelope, the ledger and the event envelope (`probity::contract::schema`).

use std::process::ExitCode;

use clap::Args;

use probity::Error;
use probity::contract::schema;
use probity::reason::Reason;

use super::refused;

/// A schema, indented for people (and any JSON reader).
fn print_pretty(v: &serde_json::Value) {
    println!("{}", serde_json::to_string_pretty(v).unwrap_or_default());
}

#[derive(Args)]
pub(super) struct SchemaArgs {
    /// A command (`place`, `session init` or `session-init`, ...), `envelope`, `ledger` or
    /// `event` (default: every schema, as one object by name).
    #[arg(value_name = "NAME", num_args = 0..)]
    name: Vec<String>,
    /// List the names only.
    #[arg(long, conflicts_with = "name")]
    list: bool,
}

pub(super) fn schema_cmd(a: SchemaArgs) -> ExitCode {
    if a.list {
        for n in schema::names() {
            println!("{n}");
        }
        return ExitCode::SUCCESS;
    }
    if a.name.is_empty() {
        print_pretty(&schema::all());
        return ExitCode::SUCCESS;
    }
    let name = a.name.join(" ");
    match schema::schema(&name) {
        Some(s) => {
            print_pretty(&s);
            ExitCode::SUCCESS
        }
        None => {
            let e = Error::new(
                Reason::InvalidArgument,
                format!(
                    "no schema {name:?}; the names: {}",
                    schema::names().join(", ")
                ),
            );
            refused("schema", false, &e)
        }
    }
}
