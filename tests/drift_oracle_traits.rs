//! Rust members the compiler-grade oracle (`benches/drift-oracle/FINDINGS-rust.md`, "Not unsafe,
//! but against the targets" and classes 1, 9 and 11) found undecided or wrong, with invented names
//! beside the real ones: a standard trait's methods through an `impl` of the repository, the
//! derives of common crates, files tree-sitter reports syntax errors in, an `impl` written on an
//! alias of the type.

use crate::util::{Repo, expect_verdicts, resolve_all};

fn crate_repo(name: &str) -> Repo {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
    );
    r
}

/// `impl Iterator for Names` gives `Names` every method of `Iterator` (and of the standard
/// library's blanket impls over it), declared at the impl; a near miss is still MISSING, and a
/// repository type named like the trait lends nothing.
#[test]
fn a_standard_traits_methods_through_an_impl_are_verified() {
    let r = crate_repo("stdtraits");
    r.write("src/lib.rs", "mod de;\nmod it;\nmod io;\n");
    r.write(
        "src/de.rs",
        "pub struct Iterator;\nimpl Iterator { pub fn local_only(&self) {} }\n",
    );
    r.write(
        "src/it.rs",
        "\
use std::fmt;
use std::error::Error as StdError;
pub struct Names;
impl Iterator for Names {
    type Item = u8;
    fn next(&mut self) -> Option<u8> { None }
}
impl DoubleEndedIterator for Names {
    fn next_back(&mut self) -> Option<u8> { None }
}
#[derive(Debug)]
pub struct Oops;
impl fmt::Display for Oops {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { Ok(()) }
}
impl StdError for Oops {}
impl PartialOrd for Oops {
    fn partial_cmp(&self, o: &Oops) -> Option<std::cmp::Ordering> { None }
}
impl PartialEq for Oops {
    fn eq(&self, o: &Oops) -> bool { true }
}
impl core::ops::Add for Oops {
    type Output = Oops;
    fn add(self, o: Oops) -> Oops { o }
}
",
    );
    r.write(
        "src/io.rs",
        "\
use std::io;
use core::fmt::Write;
pub struct Sink;
impl io::Write for Sink {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> { Ok(b.len()) }
    fn flush(&mut self) -> io::Result<()> { Ok(()) }
}
pub struct Text;
impl Write for Text {
    fn write_str(&mut self, s: &str) -> std::fmt::Result { Ok(()) }
}
",
    );
    expect_verdicts(
        &r,
        &[
            ("Names::map", "VERIFIED src/it.rs"),
            ("Names::into_iter", "VERIFIED src/it.rs"),
            ("Names::rfold", "VERIFIED src/it.rs"),
            ("Names::mapp", "MISSING"),
            ("Names::local_only", "MISSING"),
            ("Oops::to_string", "VERIFIED src/it.rs"),
            ("Oops::source", "VERIFIED src/it.rs"),
            ("Oops::lt", "VERIFIED src/it.rs"),
            ("Oops::ne", "VERIFIED src/it.rs"),
            ("Oops::add", "VERIFIED src/it.rs"),
            ("Oops::sourec", "MISSING"),
            ("Oops::clamp", "MISSING"),
            ("Sink::write_all", "VERIFIED src/io.rs"),
            ("Sink::write_char", "MISSING"),
            ("Text::write_char", "VERIFIED src/io.rs"),
            ("Text::write_all", "MISSING"),
        ],
    );
    // The location is the impl, and the signature names the trait.
    let got = resolve_all(&r, &["Names::map", "Sink::write_all"]);
    assert_eq!(got[0]["location"], "src/it.rs:4:1", "{}", got[0]);
    assert!(
        got[0]["signature"]
            .as_str()
            .is_some_and(|s| s.contains("Iterator for Names")),
        "{}",
        got[0]
    );
    assert!(
        got[1]["signature"]
            .as_str()
            .is_some_and(|s| s.contains("std::io::Write")),
        "{}",
        got[1]
    );
}

/// Class 9 leftover: `impl hash::Hasher for Sip` beside a private `struct Hasher` lends the
/// struct's members to `Sip` no more than its name; the standard trait's methods are `Sip`'s.
#[test]
fn a_standard_trait_is_no_repository_type_of_its_name() {
    let r = crate_repo("siplike");
    r.write(
        "src/lib.rs",
        "\
use core::hash;
struct Hasher { tail: u8 }
impl Hasher { fn reset(&mut self) {} }
pub struct Sip { h: Hasher }
impl hash::Hasher for Sip {
    fn finish(&self) -> u64 { 0 }
    fn write(&mut self, b: &[u8]) {}
}
",
    );
    expect_verdicts(
        &r,
        &[
            ("Sip::write_u8", "VERIFIED src/lib.rs"),
            ("Sip::finish", "VERIFIED src/lib.rs"),
            ("Sip::reset", "MISSING"),
            ("Sip::tail", "MISSING"),
        ],
    );
}

/// Derives of common crates, also under `cfg_attr`, give the members their traits have and no
/// others; an unknown derive still may generate any member.
#[test]
fn derives_of_listed_crates_give_their_members() {
    let r = crate_repo("derives");
    r.write(
        "src/lib.rs",
        "\
#[cfg(feature = \"serde\")]
use serde::{Deserialize, Serialize};
#[cfg_attr(feature = \"serde\", derive(Serialize, Deserialize))]
#[derive(Debug, Clone, PartialOrd, PartialEq)]
pub struct Level(u8);
#[cfg_attr(feature = \"arbitrary\", derive(arbitrary::Arbitrary))]
pub struct Arb;
#[derive(Clone, Frob)]
pub struct Unknown;
",
    );
    expect_verdicts(
        &r,
        &[
            ("Level::serialize", "VERIFIED src/lib.rs"),
            ("Level::deserialize", "VERIFIED src/lib.rs"),
            ("Level::clone_from", "VERIFIED src/lib.rs"),
            ("Level::ge", "VERIFIED src/lib.rs"),
            ("Level::serialise", "MISSING"),
            ("Level::cmp", "MISSING"),
            ("Arb::arbitrary", "VERIFIED src/lib.rs"),
            ("Arb::arbitrari", "MISSING"),
            ("Unknown::clone", "VERIFIED src/lib.rs"),
            ("Unknown::zzz", "UNCHECKABLE non-standard derives"),
        ],
    );
}

/// A valid file tree-sitter-rust (0.24) reports errors in (`str![..]`, an attribute on a field
/// of a struct pattern, `~` in a `macro_rules!` matcher): only the names of the items holding
/// the errors may be declared where probity cannot see; the rest of the file is read as written.
#[test]
fn syntax_errors_hide_only_the_items_holding_them() {
    let r = crate_repo("synerr");
    r.write(
        "src/lib.rs",
        "\
pub struct A;
impl A {
    pub fn real_a(&self) {}
}
pub fn uses_str() {
    let hidden_name = str![\"a\"];
}
pub struct T { inner: u8 }
pub fn pat(t: T) {
    match t { T { #[cfg(a)] inner: x, .. } => {} }
}
macro_rules! tilde {
    (~$($f:tt)*) => {};
}
pub fn after() {}
",
    );
    expect_verdicts(
        &r,
        &[
            ("A::real_a", "VERIFIED src/lib.rs"),
            ("crate::after", "VERIFIED src/lib.rs"),
            // Names written only outside the erroneous items: absent, provably.
            ("crate::real_a", "MISSING"),
            ("T::real_a", "MISSING"),
            ("A::after", "MISSING"),
            // Names inside them: they may be declared there.
            ("crate::hidden_name", "UNCHECKABLE syntax errors"),
        ],
    );
}

/// Class 11: `type Mapped<T> = LocalResult<T>; impl<T> Mapped<T> { .. }` and `use Widget as
/// W; impl W { .. }` give the type their members.
#[test]
fn an_impl_on_an_alias_gives_the_type_its_members() {
    let r = crate_repo("tyalias");
    r.write("src/lib.rs", "mod ui;\nmod imp;\nmod res;\nmod err;\n");
    r.write(
        "src/err.rs",
        "\
use std::io::Error as IoError;
pub struct Error;
pub trait Local { fn local(&self); }
impl Local for IoError { fn local(&self) {} }
pub type Fmt = std::fmt::Error;
impl Local for Fmt { fn local(&self) {} }
",
    );
    r.write(
        "src/res.rs",
        "\
pub enum LocalResult<T> { Single(T), None }
pub type Mapped<T> = LocalResult<T>;
impl<T> Mapped<T> { pub fn single(&self) -> bool { true } }
",
    );
    r.write(
        "src/ui.rs",
        "pub struct Widget;\npub trait Render { fn render(&self); }\n",
    );
    r.write(
        "src/imp.rs",
        "\
use crate::ui::{Render, Widget as W};
impl Render for W { fn render(&self) {} }
impl W { pub fn extra(&self) {} }
",
    );
    expect_verdicts(
        &r,
        &[
            ("LocalResult::single", "VERIFIED src/res.rs"),
            ("Mapped::single", "VERIFIED src/res.rs"),
            ("LocalResult::zzz", "MISSING"),
            ("Widget::render", "VERIFIED src/imp.rs"),
            ("Widget::extra", "VERIFIED src/imp.rs"),
            ("Widget::extr", "MISSING"),
            // A renaming import of the standard library's `Error` is no alias of the
            // repository's.
            ("Error::local", "MISSING"),
        ],
    );
}

/// The path of a standard trait through imports under cfgs (`std::hash::Hasher` and
/// `core::hash::Hasher` are one trait; a `mod tests` import is not the file's), and a type whose
/// other derives may generate anything still has the standard trait's methods of its impls.
#[test]
fn standard_traits_through_cfg_imports_and_beside_macro_members() {
    let r = crate_repo("cfgtraits");
    r.write(
        "src/lib.rs",
        "\
#[cfg(feature = \"std\")]
use std::hash::Hasher;
#[cfg(not(feature = \"std\"))]
use core::hash::Hasher;
use core::hash::Hash;
pub struct Fnv(u64);
impl Hasher for Fnv {
    fn finish(&self) -> u64 { self.0 }
    fn write(&mut self, b: &[u8]) {}
}
#[derive(Frob)]
pub struct Id(u8);
impl Hash for Id {
    fn hash<H: Hasher>(&self, h: &mut H) {}
}
#[cfg(test)]
mod tests {
    use std::hash::Hash;
}
",
    );
    expect_verdicts(
        &r,
        &[
            ("Fnv::write_u8", "VERIFIED src/lib.rs"),
            ("Fnv::write_u9", "MISSING"),
            ("Id::hash_slice", "VERIFIED src/lib.rs"),
            ("Id::hash", "VERIFIED src/lib.rs"),
            ("Id::zzz", "UNCHECKABLE non-standard derives"),
        ],
    );
}

/// A type implementing a trait probity cannot read (a dependency's, a macro-made member) still
/// has the provided methods of the repository's traits it implements: the search goes on
/// through them, and only what none gives is UNCHECKABLE.
#[test]
fn repository_traits_are_searched_beside_outside_ones() {
    let r = crate_repo("tzlike");
    r.write(
        "src/lib.rs",
        "\
pub trait TimeZone {
    fn offset(&self) -> i32;
    fn yo(&self) -> i32 { 0 }
}
#[derive(Clone, Frob)]
pub struct Local;
impl TimeZone for Local { fn offset(&self) -> i32 { 0 } }
pub struct Utc;
impl defmt::Format for Utc { fn format(&self, f: defmt::Formatter) {} }
impl TimeZone for Utc { fn offset(&self) -> i32 { 0 } }
pub struct RawMutex { state: u8 }
pub struct RawFairMutex(RawMutex);
unsafe impl lock_api::RawMutex for RawFairMutex { fn lock(&self) {} }
",
    );
    expect_verdicts(
        &r,
        &[
            ("Utc::yo", "VERIFIED src/lib.rs"),
            ("Local::yo", "VERIFIED src/lib.rs"),
            ("Utc::yoo", "UNCHECKABLE Format"),
            ("Local::yoo", "UNCHECKABLE non-standard derives"),
            // The dependency's trait lends nothing of the repository's type of its name.
            ("RawFairMutex::lock", "VERIFIED src/lib.rs"),
            ("RawFairMutex::state", "UNCHECKABLE RawMutex"),
        ],
    );
}

/// `use crate::StdError;` of a trait the crate root imports from the standard library under
/// cfgs (`use std::error::Error as StdError;`, `use core::error::Error as StdError;`), beside a
/// fallback `trait StdError` under a third cfg (anyhow): the standard trait's methods are the
/// type's (`BoxedError::cause` was MISSING, the fallback trait declaring only `source`).
#[test]
fn a_standard_trait_the_crate_root_imports_is_standard_through_crate_paths() {
    let r = crate_repo("rootuse");
    r.write(
        "src/lib.rs",
        "\
mod wrapper;
#[cfg(feature = \"std\")]
use std::error::Error as StdError;
#[cfg(not(any(feature = \"std\", no_core_error)))]
use core::error::Error as StdError;
#[cfg(all(not(feature = \"std\"), no_core_error))]
trait StdError: core::fmt::Debug + core::fmt::Display {
    fn source(&self) -> Option<&(dyn StdError + 'static)> { None }
}
",
    );
    r.write(
        "src/wrapper.rs",
        "\
use crate::StdError;
use core::fmt::{self, Debug, Display};
pub struct BoxedError(Box<dyn StdError>);
impl Debug for BoxedError { fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) } }
impl Display for BoxedError { fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) } }
impl StdError for BoxedError {}
",
    );
    expect_verdicts(
        &r,
        &[
            ("BoxedError::cause", "VERIFIED src/wrapper.rs"),
            ("BoxedError::description", "VERIFIED src/wrapper.rs"),
            ("BoxedError::source", "VERIFIED src/wrapper.rs"),
            ("BoxedError::causse", "MISSING"),
        ],
    );
}
