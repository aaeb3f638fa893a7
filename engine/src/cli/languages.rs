//! `probity languages`: the registry's languages and the allowed `--message` labels.

use std::process::ExitCode;

use probity::contract::{Status, data};
use probity::probe::MESSAGES;

use super::emit;

pub(super) fn languages(json: bool) -> ExitCode {
    emit(
        "languages",
        json,
        Status::Ok,
        data::Languages::new(),
        || {
            for l in probity::lang::languages() {
                let exts: Vec<_> = l.spec.extensions.keys().map(|e| format!(".{e}")).collect();
                println!("{:<11} {:<3} {}", l.id(), l.spec.comment, exts.join(" "));
            }
            println!();
            println!("--message labels:");
            for (m, d) in MESSAGES {
                println!("  {m:<11} {d}");
            }
        },
    )
}
