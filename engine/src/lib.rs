//! probity: place temporary, hash-verified debug probes in source files, and prove they are gone.
//!
//! Data flows one way: [`lang`] (registry) → [`source`] (bytes, lines, endings) → [`parse`] →
//! [`place`] / [`strip`] (pure functions over a parsed file) → [`edit`] (byte splices) →
//! [`ledger`] / [`fsio`] (the only modules that touch the file system).
#![warn(missing_docs)]

pub mod lang;
pub mod probe;
pub mod reason;
pub mod capture;
pub mod marker;
pub mod parse;
pub mod place;
pub mod source;
pub mod edit;
pub mod strip;
pub mod fsio;
pub mod ledger;
pub mod ops;
pub mod events;
pub mod sink;
pub mod runner;
pub mod session;
pub mod scan;
pub mod index;
pub mod resolve;
pub mod drift;
