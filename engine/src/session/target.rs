//! Which session an operation acts on ([`Target`]: a slug, an optional ledger file, an optional
//! repository root) and where its ledger is: the one place the default ledger path of a session
//! is computed, for the CLI and the Node binding alike. Also the parsed vocabulary the front-ends
//! share ([`parse_policy`], [`DEFAULT_RUN_TIMEOUT`]), and the place request both build
//! ([`Target::place_request`]).
//!
//! Resolving a target reads the current directory (the enclosing git work tree is the default
//! root) and whether `.git` exists on the way up; it never writes.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::Error;
use crate::fsio::{git_root, repo_root};
use crate::ledger::{self, Policy};
use crate::ops::PlaceRequest;
use crate::place::Anchor;
use crate::probe::ProbeIdentity;
use crate::reason::Reason;

/// A session named by its slug, with where its ledger and repository are when given
/// (`--slug`, `--ledger`, `--root`; the binding's `slug`, `ledger`, `root`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Target {
    /// The session's slug.
    pub slug: String,
    /// The ledger file (default: [`Target::ledger_path`]).
    pub ledger: Option<PathBuf>,
    /// The repository root (default: the enclosing git work tree, else the current directory).
    pub root: Option<PathBuf>,
}

impl Target {
    /// The session `slug` at its default place.
    pub fn new(slug: impl Into<String>) -> Target {
        Target {
            slug: slug.into(),
            ..Target::default()
        }
    }

    /// The repository root: `root`, else the git work tree enclosing the current directory,
    /// else the current directory.
    pub fn root(&self) -> PathBuf {
        repo_root(self.root.as_deref())
    }

    /// The session's ledger: `ledger`, else `<root>/.planning/debug/<slug>.evidence.json`.
    pub fn ledger_path(&self) -> PathBuf {
        self.ledger
            .clone()
            .unwrap_or_else(|| ledger::ledger_path(&self.root(), &self.slug))
    }

    /// The session's ledger when `root` may be any directory inside the work tree (the `accept`
    /// commands, as `accept diff`): `ledger`, else the default ledger under the git work tree
    /// holding `root`, else under [`Target::root`].
    pub fn tree_ledger_path(&self) -> PathBuf {
        if let Some(l) = &self.ledger {
            return l.clone();
        }
        let tree = self
            .root
            .as_deref()
            .and_then(|r| git_root(&std::path::absolute(r).ok()?))
            .unwrap_or_else(|| self.root());
        ledger::ledger_path(&tree, &self.slug)
    }

    /// `file` as a library caller names it: relative to `root` when it is relative and `root`
    /// is given (the caller's current directory is its host's, not the repository's), else as
    /// given. The CLI names files from the current directory, as a shell does, and does not call
    /// this.
    pub fn file_in_root(&self, file: &Path) -> PathBuf {
        match &self.root {
            Some(root) if file.is_relative() => root.join(file),
            _ => file.to_path_buf(),
        }
    }

    /// The request `probity place` makes for this session: `file` at `anchor` as given (see
    /// [`Target::file_in_root`] for a library caller's), the ledger of
    /// [`Target::place_ledger`], `root` as given, no expected hash. The library refuses a
    /// placement with no ledger only after the file and the anchor are checked, naming
    /// `probity session init`.
    pub fn place_request(
        &self,
        file: PathBuf,
        anchor: Anchor,
        identity: ProbeIdentity,
        dry_run: bool,
    ) -> PlaceRequest {
        PlaceRequest {
            file,
            anchor,
            identity,
            ledger: self.place_ledger(dry_run),
            root: self.root.clone(),
            expect_sha256: None,
            dry_run,
        }
    }

    /// The ledger `probity place` records a probe in: `ledger`, else the session's default
    /// ledger when it exists; none for a dry run without `ledger` (a dry run records nothing).
    pub fn place_ledger(&self, dry_run: bool) -> Option<PathBuf> {
        if self.ledger.is_some() {
            return self.ledger.clone();
        }
        let p = self.ledger_path();
        (!dry_run && p.exists()).then_some(p)
    }
}

/// The ledger of a command that takes either a ledger file or a slug (`strip`, `env`): `ledger`,
/// else the default ledger of the session `slug` under `root` ([`Target::ledger_path`]); none
/// when neither is given.
pub fn ledger_of(
    ledger: Option<&Path>,
    slug: Option<&str>,
    root: Option<&Path>,
) -> Option<PathBuf> {
    match (ledger, slug) {
        (Some(l), _) => Some(l.to_path_buf()),
        (None, Some(slug)) => Some(
            Target {
                slug: slug.to_owned(),
                ledger: None,
                root: root.map(Path::to_path_buf),
            }
            .ledger_path(),
        ),
        (None, None) => None,
    }
}

/// The policy names, in the order `--help` lists them.
pub const POLICIES: [&str; 2] = ["off", "adaptive"];

/// The goal names, in the order `--help` lists them.
pub const GOALS: [&str; 2] = ["find_and_fix", "find_root_cause_only"];

/// The goal of a session created without one.
pub const DEFAULT_GOAL: &str = "find_and_fix";

/// The phase names of a run, in the order `--help` lists them.
pub const PHASES: [&str; 3] = ["baseline", "post_fix", "uninstrumented_verify"];

/// The policy a session is created with when none is given: probes are opt-in.
pub const DEFAULT_POLICY: Policy = Policy::Off;

/// How long a run's command may take before its process group is killed, by default.
pub const DEFAULT_RUN_TIMEOUT: Duration = Duration::from_secs(120);

/// A policy by name (`off`, `adaptive`); any other is refused (`invalid_argument`), never taken
/// for `off`.
pub fn parse_policy(s: &str) -> Result<Policy, Error> {
    match s {
        "off" => Ok(Policy::Off),
        "adaptive" => Ok(Policy::Adaptive),
        other => Err(Error::new(
            Reason::InvalidArgument,
            format!("policy `{other}`: off|adaptive"),
        )),
    }
}
