//! Rust module paths the compiler-grade oracle (`benches/drift-oracle/FINDINGS-rust.md`, classes
//! 3, 5, 7 and 8) found read wrongly, each with an invented name beside the real ones: a path
//! through an inline `mod m { ... }`, a `mod` item's `#[path = "..."]` (also under `cfg_attr`,
//! inside an inline module, in a file that is no `mod.rs`), a short module path naming several
//! modules, and one named like the crate.

use crate::util::{Repo, expect_verdicts};

fn krate(r: &Repo, name: &str) {
    r.write(
        "Cargo.toml",
        format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
    );
}

/// Class 3: `crate::private::Sealed` with `mod private { pub trait Sealed {} }` in lib.rs, a
/// `pub use super::...` inside an inline module, inline modules inside a module file; an item of
/// an inline module is no item of the file's module.
#[test]
fn paths_through_inline_modules() {
    let r = Repo::new();
    krate(&r, "inline");
    r.write(
        "src/lib.rs",
        "\
mod private { pub trait Sealed {} }
pub mod raw { pub use super::fmt::format32; }
mod fmt { pub fn format32() {} }
pub mod a;
pub fn top() {}
",
    );
    r.write(
        "src/a.rs",
        "\
pub mod inner {
    pub struct Item;
    pub mod deep { pub fn f() {} }
}
pub use inner::deep::*;
pub fn in_a() {}
",
    );
    expect_verdicts(
        &r,
        &[
            ("crate::private::Sealed", "VERIFIED src/lib.rs"),
            ("private::Sealed", "VERIFIED src/lib.rs"),
            ("inline::private::Sealed", "VERIFIED src/lib.rs"),
            ("crate::private::Unsealed", "MISSING"),
            ("crate::private::format32", "MISSING"),
            ("crate::raw::format32", "VERIFIED src/lib.rs"),
            ("inline::raw::format32", "VERIFIED src/lib.rs"),
            ("crate::raw::top", "MISSING"),
            ("crate::a::inner::Item", "VERIFIED src/a.rs"),
            ("crate::a::inner::deep::f", "VERIFIED src/a.rs"),
            ("inner::Item", "VERIFIED src/a.rs"),
            ("crate::a::f", "VERIFIED src/a.rs"),
            ("crate::a::inner::in_a", "MISSING"),
            ("crate::a::Item", "MISSING"),
            ("inner::Nope", "MISSING"),
        ],
    );
}

/// Class 5: `#[path]` on `mod x;`: relative to the file's directory (`src/a.rs`'s `sib.rs` is
/// `src/sib.rs`), inside an inline module relative to the module's directory (`src/a/wrap/`,
/// `src/outer/`), several `#[cfg] #[path]` alternatives and `cfg_attr` readings (the named file
/// and the module's own), a glob re-export from such a module, and `#[path] mod x;` items
/// written inside a macro call (`cfg_select! { ... }`).
#[test]
fn path_attributes_are_followed() {
    let r = Repo::new();
    krate(&r, "pathed");
    r.write(
        "src/lib.rs",
        "\
#[cfg(unix)]
#[path = \"imp_unix.rs\"]
mod imp;
#[cfg(not(unix))]
#[path = \"imp_other.rs\"]
mod imp;
mod a;
mod props;
mod outer {
    #[path = \"o.rs\"]
    pub mod o;
}
#[cfg_attr(unix, path = \"unix.rs\")]
mod platform;
mod parker;
",
    );
    r.write(
        "src/parker.rs",
        "cfg_select! {\n    unix => {\n        #[path = \"parker/linux.rs\"]\n        mod sys;\n    }\n    _ => {\n        #[path = \"parker/generic.rs\"]\n        mod sys;\n    }\n}\n",
    );
    r.write("src/parker/linux.rs", "pub struct Timespec32;\n");
    r.write("src/parker/generic.rs", "pub struct Parker;\n");
    r.write("src/imp_unix.rs", "pub struct Guard;\n");
    r.write("src/imp_other.rs", "pub struct OtherGuard;\n");
    r.write(
        "src/a.rs",
        "#[path = \"sib.rs\"]\nmod sib;\nmod wrap {\n    #[path = \"w.rs\"]\n    mod w;\n}\n",
    );
    r.write("src/sib.rs", "pub fn in_sib() {}\n");
    r.write("src/a/wrap/w.rs", "pub fn in_w() {}\n");
    r.write("src/outer/o.rs", "pub fn in_o() {}\n");
    r.write(
        "src/props.rs",
        "#[path = \"gen/props.rs\"]\nmod gen;\npub use gen::*;\n",
    );
    r.write("src/gen/props.rs", "pub fn is_emoji() {}\n");
    r.write("src/unix.rs", "pub fn unix_only() {}\n");
    r.write("src/platform.rs", "pub fn default_only() {}\n");
    expect_verdicts(
        &r,
        &[
            ("crate::imp::Guard", "VERIFIED src/imp_unix.rs"),
            ("crate::imp::OtherGuard", "VERIFIED src/imp_other.rs"),
            ("imp::Guard", "VERIFIED src/imp_unix.rs"),
            ("crate::imp::Nope", "MISSING"),
            ("imp::Nope", "MISSING"),
            ("crate::a::sib::in_sib", "VERIFIED src/sib.rs"),
            ("crate::a::sib::in_w", "MISSING"),
            ("crate::a::wrap::w::in_w", "VERIFIED src/a/wrap/w.rs"),
            ("crate::outer::o::in_o", "VERIFIED src/outer/o.rs"),
            ("o::in_o", "VERIFIED src/outer/o.rs"),
            ("o::in_w", "MISSING"),
            ("crate::props::gen::is_emoji", "VERIFIED src/gen/props.rs"),
            ("crate::props::is_emoji", "VERIFIED src/gen/props.rs"),
            ("crate::props::is_emojis", "MISSING"),
            ("crate::platform::unix_only", "VERIFIED src/unix.rs"),
            ("crate::platform::default_only", "VERIFIED src/platform.rs"),
            ("platform::unix_only", "VERIFIED src/unix.rs"),
            ("crate::platform::nope", "MISSING"),
            (
                "crate::parker::sys::Timespec32",
                "VERIFIED src/parker/linux.rs",
            ),
            (
                "crate::parker::sys::Parker",
                "VERIFIED src/parker/generic.rs",
            ),
            ("sys::Timespec32", "VERIFIED src/parker/linux.rs"),
            ("crate::parker::sys::Timespec64", "MISSING"),
            ("sys::Timespec64", "MISSING"),
        ],
    );
}

/// Class 7: `de::X` with `src/de.rs` and `src/value/de.rs` (and an inline `mod de { }`): every
/// module of that name is read.
#[test]
fn a_short_path_reads_every_module_of_its_name() {
    let r = Repo::new();
    krate(&r, "twomods");
    r.write("src/lib.rs", "mod de;\nmod value;\nmod other;\n");
    r.write("src/de.rs", "pub struct Deserializer;\n");
    r.write("src/value/mod.rs", "mod de;\n");
    r.write("src/value/de.rs", "pub struct MapDeserializer;\n");
    r.write("src/other.rs", "mod de {\n    pub fn from_other() {}\n}\n");
    expect_verdicts(
        &r,
        &[
            ("de::Deserializer", "VERIFIED src/de.rs"),
            ("de::MapDeserializer", "VERIFIED src/value/de.rs"),
            ("de::from_other", "VERIFIED src/other.rs"),
            ("de::Serializer", "MISSING"),
        ],
    );
}

/// Class 8: in the crate `arrayvec`, `arrayvec::X` is the crate's `X` or its module `arrayvec`'s.
#[test]
fn a_short_path_named_like_the_crate_reads_its_module_too() {
    let r = Repo::new();
    krate(&r, "arrayvec");
    r.write(
        "src/lib.rs",
        "mod arrayvec;\npub use crate::arrayvec::ArrayVec;\npub fn root_fn() {}\n",
    );
    r.write(
        "src/arrayvec.rs",
        "pub struct ArrayVec;\nstruct ScopeExitGuard;\n",
    );
    expect_verdicts(
        &r,
        &[
            ("arrayvec::ScopeExitGuard", "VERIFIED src/arrayvec.rs"),
            ("arrayvec::root_fn", "VERIFIED src/lib.rs"),
            (
                "crate::arrayvec::ScopeExitGuard",
                "VERIFIED src/arrayvec.rs",
            ),
            ("arrayvec::ScopeGuard", "MISSING"),
            ("crate::arrayvec::root_fn", "MISSING"),
        ],
    );
}

/// A module another module globs (`use crate::stream::*;` in `src/_topic/stream.rs`, read
/// first): the glob's visit, where only exported names count, did not stand for the direct one,
/// and hid the private `crate::stream::memchr3` (winnow: MISSING).
#[test]
fn a_globbed_module_still_gives_its_private_items_directly() {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"globbed\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    r.write("src/lib.rs", "pub mod _topic;\npub mod stream;\n");
    r.write("src/_topic/mod.rs", "pub mod stream;\n");
    r.write(
        "src/_topic/stream.rs",
        "//! See [`Stream`].\nuse crate::stream::*;\n",
    );
    r.write(
        "src/stream/mod.rs",
        "pub trait Stream {}\nfn memchr3(t: u8) -> u8 { t }\n",
    );
    expect_verdicts(
        &r,
        &[
            ("crate::stream::memchr3", "VERIFIED src/stream/mod.rs"),
            ("stream::memchr3", "VERIFIED src/stream/mod.rs"),
            ("crate::stream::Stream", "VERIFIED src/stream/mod.rs"),
            ("crate::stream::memchr4", "MISSING"),
            // Through the glob, only what `stream` exports.
            (
                "crate::_topic::stream::Stream",
                "VERIFIED src/stream/mod.rs",
            ),
            ("crate::_topic::stream::memchr3", "MISSING"),
        ],
    );
}

/// A `use` in a function's body binds nothing of the module (rayon's `#[test] fn` in
/// `delegate.rs` with `use crate::prelude::*;` made `crate::delegate::ParallelDrainFull`
/// VERIFIED), and a short module path names a lib's module before an example's
/// (`parser::multispace0` with winnow's `examples/json/parser.rs` importing it).
#[test]
fn function_local_uses_and_example_modules_bind_nothing_of_the_lib() {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"locals\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    r.write(
        "src/lib.rs",
        "#[macro_use]\nmod delegate;\npub mod iter;\npub mod prelude;\npub mod parser;\npub mod ascii;\n",
    );
    r.write("src/iter.rs", "pub trait ParallelDrainFull {}\n");
    r.write("src/prelude.rs", "pub use crate::iter::*;\n");
    r.write(
        "src/delegate.rs",
        "macro_rules! delegate { () => {} }\n#[test]\nfn example() {\n    use crate::prelude::*;\n}\n",
    );
    r.write("src/parser.rs", "pub trait Parser {}\n");
    r.write("src/ascii.rs", "pub fn multispace0() {}\n");
    r.write("examples/json/main.rs", "mod parser;\nfn main() {}\n");
    r.write(
        "examples/json/parser.rs",
        "use locals::ascii::multispace0;\npub fn json() {}\n",
    );
    expect_verdicts(
        &r,
        &[
            ("crate::prelude::ParallelDrainFull", "VERIFIED src/iter.rs"),
            ("crate::delegate::ParallelDrainFull", "MISSING"),
            ("parser::Parser", "VERIFIED src/parser.rs"),
            ("parser::multispace0", "MISSING"),
            ("ascii::multispace0", "VERIFIED src/ascii.rs"),
        ],
    );
}
