//! The Rust rules of their own: the traits of dependency crates, read from their sources where
//! Cargo unpacked them (`cratesrc`, over `depscan`: which versions, what `Cargo.lock` pins, what
//! a crate declares about a trait name); the names a macro call may declare (`macros`).

pub(super) mod cratesrc;
pub(super) mod depscan;
pub(super) mod macros;
