//! Issue 25, Rust real names: a call of a `macro_rules!` macro defined in the same file is
//! expanded at index time (`engine/src/index/extract/rustexpand.rs`), so the names it declares
//! are VERIFIED at the call and the names it does not declare are MISSING, where both were
//! UNCHECKABLE (the call "may declare" its words). Whatever cannot be expanded fully (no rule
//! matches, a budget runs out on hostile input, a macro pastes identifiers) stays UNCHECKABLE,
//! never MISSING.

use crate::util::{Repo, expect_verdicts};

fn fixture(lib: &str) -> Repo {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"exp\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    r.write("src/lib.rs", lib);
    r
}

/// Item-level calls, a call in an impl block, a call in an inline module, nested calls through
/// `$crate::`, nested repetitions, `$vis`, `$t:ty` with generics and doc comments matched as
/// `#[doc]` attributes (mime's `mimes!`, regex-automata's `index_type_impls!`, http's
/// `standard_headers!`), and the standard `thread_local!`.
#[test]
fn same_file_macro_calls_declare_their_expansion_at_the_call() {
    let r = fixture(
        "\
macro_rules! num { ($($t:ident),*) => { $(pub fn $t() -> u8 { 0 })* } }
num!(u8, u16);

pub struct S;
macro_rules! consts { ($($n:ident = $v:expr),*) => { impl S { $(pub const $n: u8 = $v;)* } } }
consts!(A = B_VALUE + 1, C = 2);

macro_rules! forward { ($($m:ident)*) => { $(pub fn $m(&self) -> usize { 0 })* } }
pub struct Wrapper<T>(T);
impl<T: Clone> Wrapper<T> {
    forward!(len width);
}

mod inner {
    macro_rules! stat { ($v:vis $name:ident: $t:ty = $e:expr;) => { $v static $name: $t = $e; } }
    stat!(pub(crate) TABLE: Vec<Option<u8>> = Vec::new(););
}

macro_rules! headers {
    ($($(#[$doc:meta])* ($konst:ident, $name:literal);)+) => {
        $($(#[$doc])* pub const $konst: &str = $name;)+
        $crate::pairs!($($konst),+);
    };
}
macro_rules! pairs {
    ($first:ident $(, $rest:ident)*) => {
        pub struct Pairs;
        impl Pairs { pub fn $first() {} $(pub fn $rest() {})* }
    };
}
headers! {
    /// The accept header.
    (ACCEPT, \"accept\");
    /// The host header.
    (HOST, \"host\");
}

std::thread_local! {
    static RNG_STATE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    pub static OTHER: u8 = 1
}
",
    );
    expect_verdicts(
        &r,
        &[
            ("crate::u8", "VERIFIED src/lib.rs:2"),
            ("crate::u16", "VERIFIED src/lib.rs:2"),
            ("S::A", "VERIFIED src/lib.rs:6"),
            ("S::C", "VERIFIED src/lib.rs:6"),
            ("Wrapper::len", "VERIFIED src/lib.rs:11"),
            ("Wrapper::width", "VERIFIED src/lib.rs:11"),
            ("crate::inner::TABLE", "VERIFIED src/lib.rs:16"),
            ("crate::ACCEPT", "VERIFIED src/lib.rs:31"),
            ("crate::HOST", "VERIFIED src/lib.rs:31"),
            ("crate::Pairs", "VERIFIED src/lib.rs:31"),
            ("Pairs::ACCEPT", "VERIFIED src/lib.rs:31"),
            ("Pairs::HOST", "VERIFIED src/lib.rs:31"),
            // The standard `thread_local!`, as a `macro_rules!` of its statics.
            ("crate::RNG_STATE", "VERIFIED src/lib.rs:38"),
            ("crate::OTHER", "VERIFIED src/lib.rs:38"),
            ("crate::Cell", "MISSING"),
            // Words of the calls they do not declare: UNCHECKABLE before, MISSING now.
            ("S::B_VALUE", "MISSING"),
            ("crate::u32", "MISSING"),
            ("Wrapper::height", "MISSING"),
            ("crate::inner::Vec", "MISSING"),
            ("crate::accept", "MISSING"),
            ("Pairs::accept", "MISSING"),
            ("crate::TABLE", "MISSING"),
        ],
    );
}

/// What cannot be expanded fully keeps the call's "may declare" fact: no rule matches, the
/// macro calls itself without end (the depth budget), a matcher that backtracks exponentially
/// (the step budget), an expansion that pastes identifiers; a name its part that did parse
/// declares is VERIFIED once (not AMBIGUOUS with the fact).
#[test]
fn incomplete_expansions_stay_uncheckable_never_missing() {
    let r = fixture(
        "\
macro_rules! only_ids { ($($i:ident),*) => { $(pub fn $i() {})* } }
only_ids!(not_a_fn, 3);

macro_rules! rec {
    ($($t:tt)*) => { pub fn rec_level() {} rec! { $($t)* $($t)* } };
}
rec!(doubled);

macro_rules! blow { ($($($($a:tt)*)*)* ;) => { pub fn blown() {} } }
blow!(x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x);

macro_rules! getters {
    ($($f:ident),*) => { paste::paste! { $(pub fn [<get_ $f>]() -> u8 { 0 })* } };
}
getters!(width);

macro_rules! half { ($n:ident) => { pub fn $n() {} pub fn broken() -> {} } }
half!(good_one);
",
    );
    expect_verdicts(
        &r,
        &[
            ("crate::not_a_fn", "UNCHECKABLE `only_ids!` at src/lib.rs:2"),
            ("crate::rec_level", "VERIFIED src/lib.rs:7"),
            ("crate::doubled", "UNCHECKABLE `rec!` at src/lib.rs:7"),
            ("crate::blown", "UNCHECKABLE `blow!` at src/lib.rs:10"),
            (
                "crate::get_width",
                "UNCHECKABLE `paste::paste!` at src/lib.rs:15",
            ),
            ("crate::good_one", "VERIFIED src/lib.rs:18"),
            ("crate::rec_levels", "MISSING"),
        ],
    );
}
