//! `probity languages`: the registry's languages and the allowed `--message` labels.

use std::process::ExitCode;

use serde_json::json;

use probity::probe::MESSAGES;

use super::{SCHEMA_VERSION, print_json};

pub(super) fn languages(json: bool) -> ExitCode {
    let langs: Vec<_> = probity::lang::languages()
        .iter()
        .map(|l| {
            json!({
                "id": l.id(),
                "extensions": l.spec.extensions.keys().collect::<Vec<_>>(),
                "comment": l.spec.comment,
            })
        })
        .collect();
    let messages: Vec<_> = MESSAGES
        .iter()
        .map(|(m, d)| json!({"label": m, "meaning": d}))
        .collect();
    if json {
        print_json(&json!({
            "schema_version": SCHEMA_VERSION,
            "command": "languages",
            "languages": langs,
            "messages": messages,
        }));
    } else {
        for l in probity::lang::languages() {
            let exts: Vec<_> = l.spec.extensions.keys().map(|e| format!(".{e}")).collect();
            println!("{:<11} {:<3} {}", l.id(), l.spec.comment, exts.join(" "));
        }
        println!();
        println!("--message labels:");
        for (m, d) in MESSAGES {
            println!("  {m:<11} {d}");
        }
    }
    ExitCode::SUCCESS
}
