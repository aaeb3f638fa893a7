//! Rust module paths the compiler-grade oracle (`benches/drift-oracle/FINDINGS-rust.md`, classes 4
//! and 6) found read wrongly, with invented names beside the real ones: a `use` inside an inline
//! `mod x { ... }` binds in module `x`, not in the file's module; a file of a crate's `tests/`,
//! `benches/`, `examples/` or its `build.rs` is the root of another target, not a module of the lib.

use crate::util::{Repo, expect_verdicts};

/// Class 4: `mod tests { use super::*; use crate::FromHex; }` inside `src/error.rs` gives
/// `error::tests` the parent's names; the module `error` sees none of them.
#[test]
fn imports_of_an_inline_module_are_not_the_files() {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"superglob\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    r.write(
        "src/lib.rs",
        "pub mod error;\npub trait FromHex {}\npub fn encode() {}\n",
    );
    r.write(
        "src/error.rs",
        "\
pub struct FromHexError;
pub use crate::encode as encode_again;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FromHex;

    #[test]
    fn t() {}
}
",
    );
    expect_verdicts(
        &r,
        &[
            ("crate::error::FromHexError", "VERIFIED src/error.rs"),
            ("crate::error::encode_again", "VERIFIED src/lib.rs"),
            ("crate::error::encode", "MISSING"),
            ("crate::error::FromHex", "MISSING"),
            ("error::FromHex", "MISSING"),
            ("crate::FromHex", "VERIFIED src/lib.rs"),
        ],
    );
}

/// Class 6: `tests/list.rs` does not shadow `src/a/list.rs` for `list::X`, and the imports of
/// `tests/cast.rs` are not names of the lib's module `cast`.
#[test]
fn test_bench_and_example_files_are_not_lib_modules() {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"testimp\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    r.write("src/lib.rs", "mod a;\npub mod cast;\npub mod bounds;\n");
    r.write("src/a.rs", "pub(crate) mod list;\n");
    r.write("src/a/list.rs", "pub const LAP: u8 = 1;\n");
    r.write("src/cast.rs", "pub fn to_u8() {}\n");
    r.write("src/bounds.rs", "pub trait Bounded {}\n");
    r.write("tests/list.rs", "#[test]\nfn t() {}\n");
    r.write("tests/cast.rs", "use testimp::bounds::Bounded;\n");
    r.write("benches/cast.rs", "pub fn bench_only() {}\n");
    r.write("examples/list.rs", "pub fn example_only() {}\n");
    expect_verdicts(
        &r,
        &[
            ("list::LAP", "VERIFIED src/a/list.rs"),
            ("crate::cast::to_u8", "VERIFIED src/cast.rs"),
            ("cast::to_u8", "VERIFIED src/cast.rs"),
            ("crate::cast::Bounded", "MISSING"),
            ("cast::Bounded", "MISSING"),
            ("cast::bench_only", "MISSING"),
            ("list::example_only", "MISSING"),
            ("crate::bounds::Bounded", "VERIFIED src/bounds.rs"),
        ],
    );
}
