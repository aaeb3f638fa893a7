//! Class 2 of the Rust oracle findings (`benches/drift-oracle/FINDINGS-rust.md`): items a macro
//! call declares (`thread_local!`, `bitflags!`, the crate's own `macro_rules!`) are absent from
//! probity's index, which does not expand macros. A name missing from the index is UNCHECKABLE,
//! with a reason naming the call, only when a macro call could declare it: the name (and the
//! type of a `Type::member`) is a word of the call's tokens or of what its `macro_rules!`
//! definition writes, a method of a trait the call implements, a name pasted from the call's
//! words, or a member of a type only a dependency's macro call declares. Invented names next
//! to macro calls (near misses, another type's member, a name of a test-only call) stay
//! MISSING, and names declared normally stay VERIFIED. Each fixture is a crate in a temporary
//! directory, resolved with a fresh cache.

use crate::util::{Repo, expect_verdicts, resolve_all};

/// The `macro_rules!` definitions the fixture's calls use, in a file of their own.
const DEFS: &str = "\
macro_rules! num { ($($t:ident),*) => { $(pub fn $t() -> u8 { 0 })* } }
macro_rules! consts { ($($n:ident = $v:expr),*) => { impl S { $(pub const $n: u8 = $v;)* } } }
macro_rules! helpers { () => { pub fn always_here() {} } }
macro_rules! getters {
    ($($f:ident),*) => { paste::paste! { $(pub fn [<get_ $f>]() -> u8 { 0 })* } };
}
macro_rules! iter_impl {
    ($t:ident) => {
        impl Iterator for $t {
            type Item = u8;
            fn next(&mut self) -> Option<u8> { None }
        }
    };
}
macro_rules! make_macro { ($($t:tt)*) => { $($t)* } }
macro_rules! forward { ($m:ident) => { pub fn $m(&self) -> usize { 0 } } }
macro_rules! fmt_impl {
    ($tr:ident, $ty:ty) => {
        impl std::fmt::$tr for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { Ok(()) }
        }
    };
}
";

fn crate_fixture() -> Repo {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"mac\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    r.write(
        "src/lib.rs",
        "\
// The macros are defined in another file: probity expands only a file's own.
#[macro_use]
mod defs;
pub mod global_rng;
pub mod plain;
pub mod noisy;
pub mod fmt;
pub mod nested;

num!(u8, u16);

pub struct S;
consts!(A = 1);

helpers!();

getters!(width);

pub struct Counter;
iter_impl!(Counter);

bitflags::bitflags! {
    pub struct Flags: u32 {
        const BOLD = 1;
    }
}

make_macro! { macro_rules! made { () => {} } }

#[cfg(test)]
mod tests {
    consts!(TEST_ONLY = 2);
}

pub fn real() {}
",
    );
    r.write("src/defs.rs", DEFS);
    r.write(
        "src/global_rng.rs",
        "\
pub struct Rng;

std::thread_local! {
    static RNG: Rng = Rng;
}

pub fn with_rng() {}
",
    );
    r.write(
        "src/plain.rs",
        "\
pub struct Plain;

impl Plain {
    pub fn new() -> Plain {
        println!(\"inside a body\");
        Plain
    }
}

pub struct Wrapper;

impl Wrapper {
    forward!(len);
}

pub fn helper() {}
",
    );
    r.write(
        "src/noisy.rs",
        "\
pub fn quiet() {}

const _: () = assert!(true);
println!();
debug_assert!(true);
",
    );
    r.write(
        "src/fmt.rs",
        "\
fmt_impl!(Debug, Rng);
",
    );
    r.write(
        "src/nested.rs",
        "\
mod inner {
    thread_local! { static TID: u8 = 0; }
}
",
    );
    r
}

#[test]
fn names_a_macro_call_may_declare_are_uncheckable() {
    let r = crate_fixture();
    let refs = [
        // UNCHECKABLE: each mechanism.
        "crate::u8",
        "crate::u16",
        "S::A",
        "crate::global_rng::RNG",
        "crate::always_here",
        "crate::get_width",
        "Counter::next",
        "Counter::map",
        "crate::Flags",
        "Flags::BOLD",
        "Flags::contains",
        "Wrapper::len",
        "Rng::fmt",
        "crate::nested::inner::TID",
        "made!",
        // VERIFIED: declared normally.
        "crate::real",
        "crate::global_rng::with_rng",
        "crate::plain::helper",
        "Plain::new",
        "crate::noisy::quiet",
        // MISSING: invented, next to macro calls or not.
        "crate::plain::invented_zz",
        "Plain::invented_zz",
        "crate::noisy::invented_zz",
        "crate::u9",
        "crate::invented_zz",
        "S::B",
        "Plain::A",
        "S::TEST_ONLY",
        "crate::global_rng::RNX",
        "crate::set_height",
        "Counter::invented_zz",
        "Wrapper::invented_zz",
        "Rng::invented_zz",
        "crate::nested::inner::NOPE",
        "crate::Flagz",
        "mdae!",
    ];
    let got = resolve_all(&r, &refs);
    let by = |name: &str| {
        let i = refs.iter().position(|x| *x == name).unwrap();
        got[i].clone()
    };
    for (name, mac, at) in [
        ("crate::u8", "num!", "src/lib.rs:10"),
        ("crate::u16", "num!", "src/lib.rs:10"),
        ("S::A", "consts!", "src/lib.rs:13"),
        // A name the definition writes literally, whatever the arguments.
        ("crate::always_here", "helpers!", "src/lib.rs:15"),
        // A name pasted from a word of the call (`[<get_ $f>]`).
        ("crate::get_width", "getters!", "src/lib.rs:17"),
        // `impl Iterator for $t`: its methods, required and provided.
        ("Counter::next", "iter_impl!", "src/lib.rs:20"),
        ("Counter::map", "iter_impl!", "src/lib.rs:20"),
        // A type a dependency's macro declares, and any member of it.
        ("crate::Flags", "bitflags::bitflags!", "src/lib.rs:22"),
        ("Flags::BOLD", "bitflags::bitflags!", "src/lib.rs:22"),
        ("Flags::contains", "bitflags::bitflags!", "src/lib.rs:22"),
        // A call in another file writing the type.
        ("Rng::fmt", "fmt_impl!", "src/fmt.rs:1"),
        // A macro a macro call defines.
        ("made!", "make_macro!", "src/lib.rs:28"),
    ] {
        let v = by(name);
        assert_eq!(v["verdict"], "UNCHECKABLE", "{name}: {v:#}");
        let why = v["reason"].as_str().unwrap_or_default();
        assert!(
            why.contains("may be declared by the macro call")
                && why.contains(&format!("`{mac}` at {at}")),
            "{name}: {v:#}"
        );
    }
    // A macro called in an impl block generates members of its type.
    let v = by("Wrapper::len");
    assert_eq!(v["verdict"], "UNCHECKABLE", "{v:#}");
    assert!(
        v["reason"]
            .as_str()
            .is_some_and(|w| w.contains("generated by `forward!` at src/plain.rs:13")),
        "{v:#}"
    );
    // `thread_local!` is expanded as a `macro_rules!` of its statics (in an inline module too).
    for name in [
        "crate::global_rng::RNG",
        "crate::nested::inner::TID",
        "crate::real",
        "crate::global_rng::with_rng",
        "crate::plain::helper",
        "Plain::new",
        "crate::noisy::quiet",
    ] {
        assert_eq!(by(name)["verdict"], "VERIFIED", "{name}: {:#}", by(name));
    }
    // No macro call that could declare the name: no item-level call (a `println!` in a body
    // does not count), only standard ones that never declare items, calls whose words and
    // definitions do not hold it (near misses, another type's member, a name pasted from no
    // word of the call), a call in a `#[cfg(test)]` module, a call outside the inline module.
    for name in [
        "crate::plain::invented_zz",
        "Plain::invented_zz",
        "crate::noisy::invented_zz",
        "crate::u9",
        "crate::invented_zz",
        "S::B",
        "Plain::A",
        "S::TEST_ONLY",
        "crate::global_rng::RNX",
        "crate::set_height",
        "Counter::invented_zz",
        "Wrapper::invented_zz",
        "Rng::invented_zz",
        "crate::nested::inner::NOPE",
        "crate::Flagz",
        "mdae!",
    ] {
        assert_eq!(by(name)["verdict"], "MISSING", "{name}: {:#}", by(name));
    }
}

/// `#[proc_macro_derive(Error, attributes(error))]` declares the derive macro `Error` at the
/// root of its proc-macro crate (thiserror-impl: `crate::Error` was MISSING).
#[test]
fn a_proc_macro_derive_declares_its_macro() {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"derive_impl\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[lib]\nproc-macro = true\n",
    );
    r.write(
        "src/lib.rs",
        "use proc_macro::TokenStream;\n\
         #[proc_macro_derive(Error, attributes(backtrace, error, from, source))]\n\
         pub fn derive_error(input: TokenStream) -> TokenStream { input }\n",
    );
    expect_verdicts(
        &r,
        &[
            ("crate::Error", "VERIFIED src/lib.rs"),
            ("derive_impl::Error", "VERIFIED src/lib.rs"),
            ("crate::derive_error", "VERIFIED src/lib.rs"),
            ("crate::Errror", "MISSING"),
        ],
    );
}

/// A module that is a `#[path]` file under one cfg and an inline `mod inner { }` under another
/// (chrono's `offset::local::inner`): a call at the top of the `#[path]` file is in the module
/// (`thread_local! { static TZ_INFO }` was MISSING). And a type a macro call declares, with an
/// `impl std::error::Error for ParseError {}` outside the call (url): the standard trait's
/// methods are its members (`ParseError::description` was MISSING).
#[test]
fn calls_in_a_path_module_file_and_impls_of_a_macro_declared_type() {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"mixed\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    r.write("src/lib.rs", "pub mod local;\npub mod parser;\n");
    r.write(
        "src/local/mod.rs",
        "#[cfg(unix)]\n#[path = \"unix.rs\"]\nmod inner;\n\
         #[cfg(not(unix))]\nmod inner {\n    pub fn offset() -> i32 { 0 }\n}\n",
    );
    r.write(
        "src/local/unix.rs",
        "use std::cell::RefCell;\npub fn offset() -> i32 { 0 }\n\
         thread_local! {\n    static TZ_INFO: RefCell<Option<u8>> = Default::default();\n}\n",
    );
    r.write(
        "src/parser.rs",
        "use core::fmt;\n\
         macro_rules! simple_enum_error {\n    ($($name: ident => $description: expr,)+) => {\n        \
         #[derive(Debug)]\n        pub enum ParseError { $($name,)+ }\n        \
         impl fmt::Display for ParseError {\n            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { Ok(()) }\n        }\n    }\n}\n\
         impl std::error::Error for ParseError {}\n\
         simple_enum_error! {\n    EmptyHost => \"empty host\",\n}\n",
    );
    let got = resolve_all(
        &r,
        &[
            "crate::local::inner::TZ_INFO",
            "inner::TZ_INFO",
            "crate::local::inner::TZ_INFOO",
            "ParseError::description",
            "ParseError::source",
            "ParseError::zzz",
        ],
    );
    let v: Vec<&str> = got.iter().map(|v| v["verdict"].as_str().unwrap()).collect();
    assert_eq!(
        v,
        [
            "VERIFIED", "VERIFIED", "MISSING", "VERIFIED", "VERIFIED", "MISSING"
        ],
        "{got:#?}"
    );
    assert_eq!(got[0]["location"], "src/local/unix.rs:3:1", "{:#}", got[0]);
}
