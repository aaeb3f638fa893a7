//! What clears a finding: the `next` of every verify finding (and so of every gate item the
//! tree scan gives). A probe of a session is cleared by `probity cleanup --slug S` (a `strip`
//! would leave the session active), a probe of a plain ledger by `probity strip --ledger L`;
//! what no live ledger entry owns, no command removes, and `next` says what to do by hand.
//! Commands name the root and the ledger as a command typed where probity runs must (nothing
//! when the root is the current folder), quoted for a POSIX shell when they need it.
//! See: issue 21, "verify's advice for a session probe is wrong".

use std::path::Path;

use super::ledgers::{LEDGER_DIR, LedgerIndex};
use super::output::display_path;
use super::{Finding, Kind};

/// `s` as one word for a POSIX shell: as it is when it holds only safe characters, else in
/// single quotes.
pub fn sh_word(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./:@+,=%".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// How a command typed in the current folder names one root: not at all when the root is the
/// current folder, else as the root was given.
#[derive(Debug, Clone)]
pub struct RootName(Option<String>);

impl RootName {
    /// The root at `path`, given as `display`.
    pub fn of(path: &Path, display: &str) -> RootName {
        let here = std::env::current_dir().and_then(|c| c.canonicalize()).ok();
        let there = path.canonicalize().ok();
        if here.is_some() && here == there {
            RootName(None)
        } else {
            RootName(Some(display.to_owned()))
        }
    }

    /// A root-relative path as the command names it.
    fn path(&self, rel: &str) -> String {
        sh_word(&match &self.0 {
            None => rel.to_owned(),
            Some(r) => display_path(r, rel),
        })
    }

    fn root_flag(&self) -> String {
        match &self.0 {
            None => String::new(),
            Some(r) => format!(" --root {}", sh_word(r)),
        }
    }

    /// The command that clears what the ledger at `rel` (root-relative) owns: `cleanup` of its
    /// session (`session` is its slug), `strip` of a plain ledger.
    pub fn clear(&self, rel: &str, session: Option<&str>) -> String {
        match session {
            Some(slug) => {
                let ledger = if rel == format!("{LEDGER_DIR}/{slug}.evidence.json") {
                    String::new()
                } else {
                    format!(" --ledger {}", self.path(rel))
                };
                format!(
                    "probity cleanup --slug {}{ledger}{}",
                    sh_word(slug),
                    self.root_flag()
                )
            }
            None => format!(
                "probity strip --ledger {}{}",
                self.path(rel),
                self.root_flag()
            ),
        }
    }
}

/// What clears `f`, whose root's ledgers are `index`, named for the current folder by `name`.
pub fn next(f: &Finding, index: &LedgerIndex, name: &RootName) -> String {
    let at = display_path(&f.root, &f.path);
    let lines = match f.end_line {
        Some(end) => format!("lines {}-{end}", f.line),
        None => format!("line {}", f.line),
    };
    let clear = |ledger: &str| name.clear(ledger, index.session_of(ledger).flatten());
    match (f.kind, f.ledger.as_deref()) {
        (Kind::LeftoverOwned | Kind::LeftoverReformatted, Some(l))
        | (Kind::LedgerNotClean | Kind::ArtifactRemaining, Some(l))
            if index.session_of(l).is_some() =>
        {
            clear(l)
        }
        (Kind::LeftoverModified, Some(l)) => format!(
            "delete {lines} of {at} by hand (the block was edited since placement, so no probity \
             command removes it), then run `{}`",
            clear(l)
        ),
        (Kind::LedgerUnreadable, _) | (Kind::LedgerNotClean | Kind::ArtifactRemaining, _) => {
            format!(
                "repair or restore {at} by hand: it does not read as a ledger, and probity never \
                 rewrites a ledger it cannot read"
            )
        }
        (Kind::LeftoverUnledgered, _) => format!(
            "delete {lines} of {at} by hand: no live ledger entry owns this block, so no probity \
             command removes it"
        ),
        _ => format!(
            "delete the probe text at {at}:{} by hand (or list {at} in .probity-allow if the \
             file mentions probes on purpose)",
            f.line
        ),
    }
}

/// Give a finding its `next`; a block a command removes also says so in its detail.
pub(super) fn advise(f: &mut Finding, index: &LedgerIndex, name: &RootName) {
    let n = next(f, index, name);
    if matches!(f.kind, Kind::LeftoverOwned | Kind::LeftoverReformatted)
        && n.starts_with("probity ")
    {
        f.detail = format!("{}; `{n}` removes it", f.detail);
    }
    f.next = Some(n);
}
