//! probity: place temporary, hash-verified debug probes in source files, and prove they are gone;
//! check the symbols a plan cites against the repository's real declarations.
//!
//! The house is layered (docs/architecture.md; `tests/layers.rs` keeps it so): a module uses only
//! modules of lower layers, and the drift half (index, resolve, drift) only layers 1 and 2.
//!
//! | layer | modules |
//! |---|---|
//! | 1 foundations | [`reason`], [`error`], [`protocol`], [`source`], `edit` |
//! | 2 language | [`lang`], [`parse`] |
//! | 3 pure placement (no I/O) | `marker`, [`probe`], `capture`, [`strip`], [`place`] |
//! | 4 I/O | `fsio`, [`ledger`], [`events`], `sink`, `runner`, [`trace`] |
//! | 5 operations | [`ops`], [`session`], [`scan`], [`accept`] |
//! | drift half | [`index`], [`resolve`], [`drift`] |
//! | 6 acceptance (uses both halves) | [`accept`] |
//! | 7 contract (the output of every command) | [`contract`] |
//!
//! # The library API
//!
//! Every operation takes a typed request, returns a typed, serializable result or an [`Error`]
//! carrying a frozen [`Reason`](reason::Reason) code, and does its own locking; the `probity`
//! binary only parses arguments and prints these results.
//!
//! | operation | does |
//! |---|---|
//! | [`place_file`] ([`PlaceRequest`] → [`PlaceReport`]) | insert one probe block, ledgered before the edit |
//! | [`strip_ledger`] ([`StripRequest`] → [`StripReport`]) | remove every ledgered block whose bytes still match |
//! | [`session::init`], [`session::run()`], [`session::compare()`], [`session::cleanup()`], [`session::gate()`], [`session::render`], [`session::sync_file`] | a Runtime Evidence session |
//! | [`verify`] ([`scan::Options`] → [`scan::Report`]) | prove no probe is left under some roots |
//! | [`drift::run`], [`resolve::resolve`], [`index::index_root`] | the drift guard |
//! | [`trace::inspect`] ([`trace::Options`] → [`trace::Report`]) | count and check a recorded agent trace |
//! | [`accept::adjacent_tests`] ([`accept::TestsOptions`] → [`accept::AdjacentReport`]) | the tests adjacent to a change, their argv, their bounded runs |
//! | [`accept::diff::run`] ([`accept::diff::Options`] → [`accept::DiffReport`]) | flag a fix whose diff deletes or short-circuits behaviour |
//!
//! The pure engine under them ([`place::place`], [`strip::strip`] over a [`source::Source`]) is
//! public too, for callers that hold the bytes themselves.
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
