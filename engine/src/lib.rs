//! probity: place temporary, hash-verified debug probes in source files, and prove they are gone;
//! check the symbols a plan cites against the repository's real declarations.
//!
//! The house is layered (docs/architecture.md; `tests/layers.rs` and `tests/tidy.rs` keep it
//! so): a module uses only modules of lower layers, and the drift half (index, resolve,
//! authority, drift) only layers 1 and 2, the bounded readers of `fsio` and the bounded tool
//! calls of `runner` (a language server).
//!
//! | layer | modules |
//! |---|---|
//! | 1 foundations | [`reason`], [`error`], [`protocol`], [`source`], `edit`, `similar`, [`untrusted`] |
//! | 2 language | [`lang`], [`parse`] |
//! | 3 pure placement (no I/O) | `marker`, [`probe`], `capture`, [`strip`], [`place`] |
//! | 4 I/O | `fsio`, [`ledger`], [`events`], `sink`, `runner`, [`trace`] |
//! | 5 operations | [`ops`], [`session`], [`scan`] |
//! | drift half (uses 1, 2 and `fsio`) | [`index`], [`resolve`], [`authority`], [`drift`] |
//! | 6 acceptance (uses both halves) | [`accept`] |
//! | 7 contract (the output of every command) | [`contract`] |
//!
//! # The library API
//!
//! Every operation takes one typed request, returns a typed, serializable result or an
//! [`Error`] carrying a frozen [`Reason`](reason::Reason) code, and does its own locking; the
//! `probity` binary and the Node binding only convert arguments and print these results. A
//! session is named by a [`session::Target`] (slug, ledger, root), which alone computes the
//! session's ledger path.
//!
//! | operation | does |
//! |---|---|
//! | [`place_file`] ([`PlaceRequest`] → [`PlaceReport`]) | insert one probe block, ledgered before the edit |
//! | [`strip_ledger`] ([`StripRequest`] → [`StripReport`]) | remove every ledgered block whose bytes still match |
//! | [`session::init`] ([`session::Target`] → [`ledger::Ledger`]) | start a Runtime Evidence session |
//! | [`session::run()`] ([`session::RunRequest`] → [`session::RunReport`]) | one bounded, confined reproduction run and its sanitized record |
//! | [`session::cleanup()`] ([`session::Target`] → [`session::CleanupReport`]) | strip every probe, remove every artifact, close the session |
//! | [`session::gate()`] ([`session::GateRequest`] → [`session::GateReport`]) | what still blocks a terminal step under a root |
//! | [`session::compare()`], [`session::render`], [`session::sync_file`] | compare runs, render the session, sync it into a notes file |
//! | [`verify`] ([`scan::Options`] → [`scan::Report`]) | prove no probe is left under some roots |
//! | [`drift::run`] (plan, root, cache → [`drift::Report`]), [`resolve::resolve`], [`index::index_root`] | the drift guard |
//! | [`authority::apply_scip`] (root, a [`authority::ScipIndex`], resolutions → [`authority::ScipReport`]) | rung 4: a SCIP index confirms, contradicts or proves absence |
//! | [`trace::inspect`] ([`trace::Options`] → [`trace::Report`]) | count and check a recorded agent trace |
//! | [`accept::adjacent_tests`] ([`accept::TestsOptions`] → [`accept::AdjacentReport`]) | the tests adjacent to a change, their argv, their bounded runs |
//! | [`accept::diff::run`] ([`accept::diff::Options`] → [`accept::DiffReport`]) | flag a fix whose diff deletes or short-circuits behaviour |
//! | [`accept::reconfirm()`] ([`accept::ReconfirmOptions`] → [`accept::ReconfirmReport`]) | revert the fix, run, restore it, run again: does the fix matter |
//! | [`accept::record`] ([`session::Target`] + a report → [`session::verification::Verification`]) | a signal's record, built from its report, written into the session |
//!
//! The pure engine under them ([`place::place`], [`strip::strip`] over a [`source::Source`]) is
//! public too, for callers that hold the bytes themselves.
//!
//! # The front-ends' API
//!
//! Everything the `probity` binary (`engine/src/cli/`) and the Node binding
//! (`bindings/node/src/`) may name, module by module; `tests/tidy.rs` fails on a path they use
//! that is not listed here, and on a listed path the library does not declare. A front-end that
//! needs more adds it here first: this list is the surface a third front-end can rely on.
//!
//! - `probity`: `Error`, `Result`, `repo_root`, `git_root`, `place_file`, `strip_ledger`,
//!   `verify`
//! - `probity::reason`: `Reason`
//! - `probity::untrusted`: `escape`, `frame`, `LINE_PREFIX`
//! - `probity::lang`: `languages`
//! - `probity::probe`: `ProbeIdentity`, `MESSAGES`, `DEFAULT_MESSAGE`
//! - `probity::place`: `Anchor`
//! - `probity::strip`: `Outcome`
//! - `probity::ledger`: `Goal`, `Phase`, `Policy`, `State`, `ledger_path`
//! - `probity::trace`: `inspect`, `Options`, `Report`, `Caller`, `NOTICE`
//! - `probity::ops`: `place_file`, `strip_ledger`, `PlaceRequest`, `PlaceStatus`,
//!   `StripRequest`, `StripStatus`
//! - `probity::session`: `Target`, `ledger_of`, `parse_policy`, `POLICIES`, `GOALS`, `PHASES`,
//!   `DEFAULT_POLICY`, `DEFAULT_GOAL`, `DEFAULT_RUN_TIMEOUT`, `init`, `load`, `set_policy`, `run`,
//!   `RunRequest`, `Host`, `run_start`, `Started`, `run_finish`, `compare`, `cleanup`, `env`,
//!   `gate`, `GateRequest`, `render`, `sync_file`, `HOOK_AGENTS`, `read_hook_input`, `hook_root`
//! - `probity::session::verification`: `of`, `render_lines`, `rejected_block`, `SIGNALS`,
//!   `Signal`, `SignalRecord`, `SignalResult`, `Verdict`, `Verification` (written only through
//!   accept::record)
//! - `probity::scan`: `verify`, `Options`, `Report`, `Mode`, `Progress`
//! - `probity::scan::output`: `human_styled`, `json_lines`, `sarif`, `HumanStyle`, `Tone`
//! - `probity::scan::formats`: `github`, `gitlab`
//! - `probity::index`: `Cache`, `check_root`, `index_root_each`, `parse_only`, `FileStatus`,
//!   `SortedJson`, `Stats`
//! - `probity::index::scip`: `ScipWriter`
//! - `probity::resolve`: `resolve`, `read_refs_file`, `Verdict`, `Severity`, `AUTHORITY`, `RUNG`
//! - `probity::authority`: `ScipIndex`, `apply_scip`, `ScipReport`, `Rungs`, `LspRung`,
//!   `DEFAULT_LSP_TIMEOUT`
//! - `probity::drift`: `run`, `run_with`, `read_plan`, `exit_code`, `scip_summary`,
//!   `lsp_summary`
//! - `probity::accept`: `adjacent_tests`, `reconfirm`, `TestsOptions`, `AdjacentReport`,
//!   `ChangeSource`, `DEFAULT_DEPTH`, `Outcome`, `SuiteStatus`, `DiffReport`, `DiffSource`,
//!   `Severity`, `Verdict`, `ReconfirmOptions`, `ReconfirmReport`
//! - `probity::accept::diff`: `run`, `Options`
//! - `probity::accept::record`: `diff`, `tests`, `reconfirm`, `caller`, `rca_justified`, `debt`,
//!   `load`
//! - `probity::contract`: `Envelope`, `Status`, `SCHEMA_VERSION`
//! - `probity::contract::schema`: `all`, `names`, `schema`
//! - `probity::contract::data`: `probity_version`, `AcceptDiff`, `AcceptReconfirm`,
//!   `AcceptRecord`, `AcceptTests`, `AcceptVerdict`, `Cleanup`, `Compare`, `Drift`, `Env`,
//!   `Index`, `Languages`, `PolicyView`, `Resolve`, `RunStart`, `ScipExport`, `SessionInit`,
//!   `SessionRender`, `SessionSetPolicy`, `SessionShow`, `SessionSync`, `TraceInspect`
//!
//! ```
//! use probity::place::Anchor;
//! use probity::probe::ProbeIdentity;
//! use probity::{PlaceRequest, StripRequest, place_file, strip_ledger};
//!
//! let dir = tempfile::tempdir()?;
//! let file = dir.path().join("cart.py");
//! let original = "def total(items):\n    return sum(items)\n";
//! std::fs::write(&file, original)?;
//! let ledger = dir.path().join("ledger.json");
//!
//! let identity = ProbeIdentity::new("cart", "p1", &["h1".into()], "entry", &["n=items".into()])?;
//! let placed = place_file(&PlaceRequest {
//!     file: file.clone(),
//!     anchor: Anchor::Line(2),
//!     identity,
//!     ledger: Some(ledger.clone()),
//!     root: Some(dir.path().to_path_buf()),
//!     expect_sha256: None,
//!     dry_run: false,
//! })?;
//! assert_eq!(placed.placement.block_start_line, 2);
//! assert!(std::fs::read_to_string(&file)?.contains("gsd-debug-probe:start cart p1"));
//!
//! let stripped = strip_ledger(&StripRequest {
//!     ledger,
//!     probe: None,
//!     slug: None,
//!     root: Some(dir.path().to_path_buf()),
//! })?;
//! assert_eq!(stripped.probes.len(), 1);
//! assert_eq!(std::fs::read_to_string(&file)?, original);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

// Layer 1: foundations.
pub mod error;
pub mod protocol;
pub mod reason;
pub mod source;
pub mod untrusted;

pub(crate) mod edit;
pub(crate) mod similar;

// Layer 2: language.
pub mod lang;
pub mod parse;

// Layer 3: pure placement.
pub(crate) mod capture;
pub(crate) mod marker;
pub mod place;
pub mod probe;
pub mod strip;

// Layer 4: I/O.
pub mod events;
pub(crate) mod fsio;
pub mod ledger;
pub(crate) mod runner;
pub(crate) mod sink;
pub mod trace;

// Layer 5: operations.
pub mod ops;
pub mod scan;
pub mod session;

// The drift half.
pub mod authority;
pub mod drift;
pub mod index;
pub mod resolve;

// Fix acceptance: uses the drift half and the I/O layer.
pub mod accept;

// The output contract: the envelope of every command, the reports of both halves as its data.
pub mod contract;

pub use error::{Error, Result};
pub use fsio::{git_root, repo_root};
pub use ops::{PlaceReport, PlaceRequest, StripReport, StripRequest, place_file, strip_ledger};
pub use scan::verify;
