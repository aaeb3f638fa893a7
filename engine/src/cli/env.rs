//! `probity env`: print the exports a program run by hand needs for its probes (docs/probes.md).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde_json::json;

use probity::{ledger, repo_root, session};

use super::{emit, refused};

#[derive(Args)]
pub(super) struct EnvArgs {
    /// Session slug: the ledger is `<root>/.planning/debug/<slug>.evidence.json`.
    #[arg(long, required_unless_present = "ledger")]
    slug: Option<String>,
    /// Ledger file (any ledger, a session's or one `probity place --ledger` wrote).
    #[arg(long, value_name = "FILE")]
    ledger: Option<PathBuf>,
    /// Repository root (default: the enclosing git work tree, else the current directory).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// A value quoted for a POSIX shell.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

pub(super) fn env_cmd(a: EnvArgs) -> ExitCode {
    let path = match (&a.ledger, &a.slug) {
        (Some(l), _) => l.clone(),
        (None, Some(slug)) => ledger::ledger_path(&repo_root(a.root.as_deref()), slug),
        (None, None) => unreachable!("clap requires --slug or --ledger"),
    };
    match session::env(&path) {
        Ok(r) => {
            let exports: serde_json::Map<String, serde_json::Value> = r
                .exports
                .iter()
                .map(|(k, v)| (k.clone(), json!(v)))
                .collect();
            let v = json!({
                "status": "ok",
                "ledger": path.display().to_string(),
                "exports": exports,
                "probes": r.probes,
                "root": r.root,
                "artifacts": r.artifacts,
                "recorded": r.recorded,
            });
            emit("env", a.json, v, || {
                for (k, v) in &r.exports {
                    println!("export {k}={}", sh_quote(v));
                }
                if !r.recorded {
                    println!(
                        "# the runtime is in {} (a ledger without a session records no files): \
                         remove that folder when done",
                        r.root
                    );
                }
            });
            ExitCode::SUCCESS
        }
        Err(e) => refused("env", a.json, &e),
    }
}
