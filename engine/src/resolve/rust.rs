//! The Rust rules of their own: the traits of dependency crates, read from their sources where
//! Cargo unpacked them (`cratesrc`, over `depscan`: which versions, what `Cargo.lock` pins, what
//! a crate declares about a trait name), the module tree its `mod` items give (`modtree`), the
//! standard library's traits an impl names (`stdtraits`), and the aliases an impl may name a
//! type by (`aliased`); the names a macro call may declare (`macros`).

pub(super) mod aliased;
pub(super) mod cratesrc;
pub(super) mod depscan;
pub(super) mod macros;
pub(super) mod modtree;
pub(super) mod stdtraits;
