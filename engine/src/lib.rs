//! probity: place temporary, hash-verified debug probes in source files, and prove they are gone.
//!
//! Data flows one way: [`lang`] (registry) → [`source`] (bytes, lines, endings) → [`parse`] →
//! [`place`] / [`strip`] (pure functions over a parsed file) → [`edit`] (byte splices) →
//! [`ledger`] / [`fsio`] (the only modules that touch the file system).
#![warn(missing_docs)]

pub mod capture;
pub mod drift;
pub mod edit;
pub mod error;
pub mod events;
pub mod fsio;
pub mod index;
pub mod lang;
pub mod ledger;
pub mod marker;
pub mod ops;
pub mod parse;
pub mod place;
pub mod probe;
pub mod protocol;
pub mod reason;
pub mod resolve;
pub mod runner;
pub mod scan;
pub mod session;
pub mod sink;
pub mod source;
pub mod strip;

pub use error::{Error, Result};
