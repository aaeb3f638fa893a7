//! `probity env`: print the exports a program run by hand needs for its probes (docs/probes.md).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use probity::{session, untrusted};

use probity::contract::{Status, data};

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

/// A value quoted for a POSIX shell (sh, dash, bash, zsh, ksh): inside single quotes every byte
/// is literal, newlines and control characters included; a `'` ends the quote, is escaped, and
/// a new quote begins.
pub(super) fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Untrusted text for a `#` comment a shell will evaluate: escaped ([`untrusted::escape`]) so
/// it is one line with no control character, which a newline could otherwise end, running what
/// follows as a command. See: issue 21, class 3.
fn sh_comment_text(s: &str) -> String {
    untrusted::escape(s)
}

pub(super) fn env_cmd(a: EnvArgs) -> ExitCode {
    let Some(path) = session::ledger_of(a.ledger.as_deref(), a.slug.as_deref(), a.root.as_deref())
    else {
        unreachable!("clap requires --slug or --ledger")
    };
    match session::env(&path) {
        Ok(r) => {
            let exports = r.exports.clone();
            let d = data::Env::new(path.display().to_string(), r);
            emit("env", a.json, Status::Ok, &d, || {
                for (k, v) in &exports {
                    println!("export {k}={}", sh_quote(v));
                }
                if !d.recorded {
                    println!(
                        "# the runtime is in {} (a ledger without a session records no files): \
                         remove that folder when done",
                        sh_comment_text(&d.root)
                    );
                }
            })
        }
        Err(e) => refused("env", a.json, &e),
    }
}
