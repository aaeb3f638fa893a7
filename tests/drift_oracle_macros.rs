//! Class 2 of the Rust oracle findings (`benches/drift-oracle/FINDINGS-rust.md`): items a macro
//! call at item level declares (`thread_local!`, `bitflags!`, the crate's own `macro_rules!`)
//! are absent from probity's index, which does not expand macros, so a name missing from a file
//! that calls such a macro is UNCHECKABLE, with a reason naming the call. A name missing from a
//! module without item-level macro calls, or with only standard macros that never declare
//! items (`grammars/rust/itemless-macros.txt`), stays MISSING; names declared normally stay
//! VERIFIED. Each fixture is a crate in a temporary directory, resolved with a fresh cache.

use crate::util::{Repo, resolve_all};

fn crate_fixture() -> Repo {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"mac\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    r.write(
        "src/lib.rs",
        "\
pub mod global_rng;
pub mod plain;
pub mod noisy;

macro_rules! num { ($($t:ident),*) => { $(pub fn $t() -> u8 { 0 })* } }
num!(u8, u16);

pub struct S;
macro_rules! consts { ($($n:ident = $v:expr),*) => { impl S { $(pub const $n: u8 = $v;)* } } }
consts!(A = 1);

pub fn real() {}
",
    );
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
    r
}

#[test]
fn names_a_macro_call_may_declare_are_uncheckable() {
    let r = crate_fixture();
    let refs = [
        "crate::u8",
        "crate::u16",
        "S::A",
        "crate::global_rng::RNG",
        "crate::real",
        "crate::global_rng::with_rng",
        "crate::plain::helper",
        "Plain::new",
        "crate::plain::invented_zz",
        "Plain::invented_zz",
        "crate::noisy::quiet",
        "crate::noisy::invented_zz",
    ];
    let got = resolve_all(&r, &refs);
    let by = |name: &str| {
        let i = refs.iter().position(|x| *x == name).unwrap();
        got[i].clone()
    };
    for (name, mac, at) in [
        ("crate::u8", "num!", "src/lib.rs:6"),
        ("crate::u16", "num!", "src/lib.rs:6"),
        (
            "crate::global_rng::RNG",
            "std::thread_local!",
            "src/global_rng.rs:3",
        ),
    ] {
        let v = by(name);
        assert_eq!(v["verdict"], "UNCHECKABLE", "{name}: {v:#}");
        let why = v["reason"].as_str().unwrap_or_default();
        assert!(why.contains(mac) && why.contains(at), "{name}: {v:#}");
    }
    // A constant of a type an item-level macro call implements: the reason names the file's
    // first item-level call (`num!`), not necessarily the one that declares it (`consts!`).
    let v = by("S::A");
    assert_eq!(v["verdict"], "UNCHECKABLE", "{v:#}");
    let why = v["reason"].as_str().unwrap_or_default();
    assert!(
        why.contains("may be declared by the macro call") && why.contains("src/lib.rs:"),
        "{v:#}"
    );
    for name in [
        "crate::real",
        "crate::global_rng::with_rng",
        "crate::plain::helper",
        "Plain::new",
        "crate::noisy::quiet",
    ] {
        assert_eq!(by(name)["verdict"], "VERIFIED", "{name}: {:#}", by(name));
    }
    // No item-level macro call (a `println!` in a body does not count), or only standard ones
    // that never declare items: absence is provable.
    for name in [
        "crate::plain::invented_zz",
        "Plain::invented_zz",
        "crate::noisy::invented_zz",
    ] {
        assert_eq!(by(name)["verdict"], "MISSING", "{name}: {:#}", by(name));
    }
}
