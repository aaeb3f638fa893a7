//! The Rust rules of their own: the traits of dependency crates, read from their sources where
//! Cargo unpacked them (`cratesrc`, over `depscan`: which versions, what `Cargo.lock` pins, what
//! a crate declares about a trait name), and the module tree its `mod` items give (`modtree`).

pub(super) mod cratesrc;
pub(super) mod depscan;
pub(super) mod modtree;
