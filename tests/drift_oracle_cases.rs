//! Classes of unsafe verdicts the compiler-grade oracle (`benches/drift-oracle/`: rustdoc JSON,
//! scip-python, scip-typescript over real packages) found in declaration extraction, each in the
//! forms it takes, with an invented name beside the real ones: a real symbol is VERIFIED (or
//! AMBIGUOUS), an invented one stays MISSING. Every fixture is a repository built in a temporary
//! directory and resolved with a fresh cache.

use crate::util::{Repo, expect_verdicts, resolve_all};

/// P1: module-level and class-level names bound only under `if`/`else`/`try`/`except`/`finally`/
/// `for`/`while`/`with` are module (class) members, as are those of an assignment expression
/// (`:=`, also in a comprehension) and `type X = ...` aliases; names bound inside a function or
/// lambda body, at any depth, are locals.
#[test]
fn python_names_bound_under_compound_statements_are_members() {
    let r = Repo::new();
    r.write(
        "compat.py",
        "\
import sys
from typing import TYPE_CHECKING

try:
    import simplejson as json
except ImportError:
    json = None
    HAS_SPEEDUPS = False
else:
    HAS_SPEEDUPS = True
finally:
    loaded = True

if sys.version_info >= (3,):
    text_type = str

    def to_text(s):
        return s
elif sys.platform == 'win32':
    text_type = bytes
else:
    string_types = (str,)

if TYPE_CHECKING:
    from collections import OrderedDict

for _name in ('a', 'b'):
    last_name = _name
while False:
    spun = 1
with open(__file__) as handle:
    first_line = handle.readline()

if True:
    if sys.maxsize > 2:
        try:
            deep = 1
        except Exception:
            pass


if (matched := sys.argv):
    pass
squares = [(last_square := n * n) for n in range(3)]
handler = lambda value: (lambda_local := value)
type Vector = list[float]
type Pair[T] = tuple[T, T]


def helper():
    local_var = 1
    if (walrus_local := local_var):
        pass
    if local_var:
        nested_local = 2
    try:
        import os
        tried_local = 3
    except ImportError:
        pass
    for loop_local in range(3):
        pass


class Config:
    if sys.version_info >= (3,):
        mode = 'py3'

        def reload(self):
            cached = 1
            return cached
    else:
        mode = 'py2'
    try:
        from decimal import Decimal as number
    except ImportError:
        number = float
",
    );
    expect_verdicts(
        &r,
        &[
            ("compat.json", "VERIFIED compat.py"),
            ("compat.HAS_SPEEDUPS", "VERIFIED compat.py"),
            ("compat.loaded", "VERIFIED compat.py"),
            ("compat.text_type", "VERIFIED compat.py"),
            ("compat.to_text", "VERIFIED compat.py"),
            ("compat.string_types", "VERIFIED compat.py"),
            ("compat.OrderedDict", "VERIFIED compat.py"),
            ("compat.last_name", "VERIFIED compat.py"),
            ("compat.spun", "VERIFIED compat.py"),
            ("compat.handle", "VERIFIED compat.py"),
            ("compat.first_line", "VERIFIED compat.py"),
            ("compat.deep", "VERIFIED compat.py"),
            ("compat.matched", "VERIFIED compat.py"),
            ("compat.last_square", "VERIFIED compat.py"),
            ("compat.Vector", "VERIFIED compat.py"),
            ("compat.Pair", "VERIFIED compat.py"),
            ("Config.mode", "VERIFIED compat.py"),
            ("Config.reload", "VERIFIED compat.py"),
            ("Config.number", "VERIFIED compat.py"),
            // Invented names, and locals of a function or method: not members.
            ("compat.text_types", "MISSING"),
            ("compat.HAS_SPEEDUP", "MISSING"),
            ("compat.local_var", "MISSING"),
            ("compat.nested_local", "MISSING"),
            ("compat.tried_local", "MISSING"),
            ("compat.loop_local", "MISSING"),
            ("compat.walrus_local", "MISSING"),
            ("compat.lambda_local", "MISSING"),
            ("compat.os", "MISSING"),
            ("Config.cached", "MISSING"),
            ("Config.modes", "MISSING"),
        ],
    );
}

/// P2: every target of a chained assignment, and every name of a tuple, list or starred target,
/// at module and class level.
#[test]
fn python_chained_and_unpacked_targets_are_all_declared() {
    let r = Repo::new();
    r.write(
        "consts.py",
        "\
x = y = 0
first = second = third = None
a, (b, c) = 1, (2, 3)
[d, *rest] = [1, 2, 3]
(e, f), g = (1, 2), 3
LOW = HIGH = 5


class Limits:
    lo = hi = 0
    width, height = 1, 2

    def area(self):
        w = h = 1
        return w * h
",
    );
    expect_verdicts(
        &r,
        &[
            ("consts.x", "VERIFIED consts.py"),
            ("consts.y", "VERIFIED consts.py"),
            ("consts.second", "VERIFIED consts.py"),
            ("consts.third", "VERIFIED consts.py"),
            ("consts.b", "VERIFIED consts.py"),
            ("consts.c", "VERIFIED consts.py"),
            ("consts.d", "VERIFIED consts.py"),
            ("consts.rest", "VERIFIED consts.py"),
            ("consts.f", "VERIFIED consts.py"),
            ("consts.g", "VERIFIED consts.py"),
            ("consts.HIGH", "VERIFIED consts.py"),
            ("Limits.hi", "VERIFIED consts.py"),
            ("Limits.height", "VERIFIED consts.py"),
            ("consts.z", "MISSING"),
            ("consts.fourth", "MISSING"),
            ("Limits.mid", "MISSING"),
            // A method's locals are not class attributes.
            ("Limits.h", "MISSING"),
        ],
    );
}

/// P3: `self.a, self.b = ...` in a method, in every target shape (tuple, list, starred, nested
/// parentheses, chained), records each as an instance attribute of the class.
#[test]
fn python_self_attributes_in_unpacking_targets_are_members() {
    let r = Repo::new();
    r.write(
        "shapes.py",
        "\
class Rect:
    def __init__(self, w, h):
        self.width, self.height = w, h
        (self.x, (self.y, self.z)) = 0, (0, 0)
        [self.first, *self.others] = [1, 2, 3]
        self.top = self.bottom = 0
        self.single = 1
        other = object()
        other.not_mine, self.mixed = 1, 2
        if w:
            self.area, self.perimeter = w * h, 2 * (w + h)

    def reset(self):
        def inner():
            inner_self = None
            return inner_self
        for self.cursor in range(3):
            pass
",
    );
    expect_verdicts(
        &r,
        &[
            ("Rect.width", "VERIFIED shapes.py"),
            ("Rect.height", "VERIFIED shapes.py"),
            ("Rect.x", "VERIFIED shapes.py"),
            ("Rect.y", "VERIFIED shapes.py"),
            ("Rect.z", "VERIFIED shapes.py"),
            ("Rect.first", "VERIFIED shapes.py"),
            ("Rect.others", "VERIFIED shapes.py"),
            ("Rect.top", "VERIFIED shapes.py"),
            ("Rect.bottom", "VERIFIED shapes.py"),
            ("Rect.single", "VERIFIED shapes.py"),
            ("Rect.mixed", "VERIFIED shapes.py"),
            ("Rect.area", "VERIFIED shapes.py"),
            ("Rect.perimeter", "VERIFIED shapes.py"),
            ("Rect.cursor", "VERIFIED shapes.py"),
            ("Rect.depth", "MISSING"),
            ("Rect.widths", "MISSING"),
            // An attribute of another object, and a nested function's local.
            ("Rect.not_mine", "MISSING"),
            ("Rect.inner_self", "MISSING"),
        ],
    );
}

/// R1: `#[derive(...)]` of a standard trait implements it, so the type has the trait's methods,
/// required and provided (`ne`, `clone_from`, `lt`, `max`, `clamp`) and those of the standard
/// library's blanket impls over it (`to_owned` of `Clone`), also under `cfg_attr` and with a
/// path (`std::fmt::Debug`). A derive of another crate (`serde::Serialize`, also under
/// `cfg_attr`) may generate any member: absence is unprovable, never MISSING. An invented method of a type with only
/// standard derives is MISSING.
#[test]
fn rust_standard_derives_give_their_traits_methods() {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"geo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    r.write(
        "src/lib.rs",
        "\
use std::fmt;

#[derive(Clone, PartialEq, Debug, Default, Hash, PartialOrd, Ord, Eq)]
pub struct Point {
    pub x: i32,
}

/// A mode.
#[derive(Copy, Clone)]
// A comment between the attributes.
#[derive(std::fmt::Debug)]
pub enum Mode {
    Fast,
    Slow,
}

#[cfg_attr(feature = \"extra\", derive(PartialEq, Eq))]
pub struct Tagged(u8);

#[derive(serde::Serialize, Clone)]
pub struct Wire;

#[derive(Debug)]
#[cfg_attr(feature = \"strum\", derive(strum::EnumIter))]
pub enum Flagged {
    One,
}

pub struct Shown;

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(\"shown\")
    }
}

impl Point {
    pub fn origin() -> Point {
        Point { x: 0 }
    }
}
",
    );
    expect_verdicts(
        &r,
        &[
            ("Point::clone", "VERIFIED src/lib.rs"),
            ("Point::clone_from", "VERIFIED src/lib.rs"),
            ("Point::to_owned", "VERIFIED src/lib.rs"),
            ("Point::eq", "VERIFIED src/lib.rs"),
            ("Point::ne", "VERIFIED src/lib.rs"),
            ("Point::fmt", "VERIFIED src/lib.rs"),
            ("Point::default", "VERIFIED src/lib.rs"),
            ("Point::hash", "VERIFIED src/lib.rs"),
            ("Point::partial_cmp", "VERIFIED src/lib.rs"),
            ("Point::lt", "VERIFIED src/lib.rs"),
            ("Point::ge", "VERIFIED src/lib.rs"),
            ("Point::cmp", "VERIFIED src/lib.rs"),
            ("Point::max", "VERIFIED src/lib.rs"),
            ("Point::clamp", "VERIFIED src/lib.rs"),
            ("Point::origin", "VERIFIED src/lib.rs"),
            ("Mode::clone", "VERIFIED src/lib.rs"),
            ("Mode::fmt", "VERIFIED src/lib.rs"),
            ("Tagged::eq", "VERIFIED src/lib.rs"),
            ("Wire::clone", "VERIFIED src/lib.rs"),
            // serde's derive gives the type `serialize` (grammars/rust/crate-derives.txt), and no
            // other member.
            ("Wire::serialize", "VERIFIED src/lib.rs"),
            ("Wire::serialise", "MISSING"),
            // Under `cfg_attr` too: the derive applies where the condition holds.
            ("Flagged::iter", "UNCHECKABLE non-standard derives"),
            ("Flagged::fmt", "VERIFIED src/lib.rs"),
            // A standard trait implemented by hand: its blanket impls' methods too.
            ("Shown::fmt", "VERIFIED src/lib.rs"),
            ("Shown::to_string", "VERIFIED src/lib.rs"),
            // Invented: a method no derive gives, one of a trait not derived.
            ("Point::distance", "MISSING"),
            ("Point::partial_cmp_by", "MISSING"),
            ("Mode::eq", "MISSING"),
            ("Mode::default", "MISSING"),
            ("Tagged::clone", "MISSING"),
            ("Shown::clone", "MISSING"),
        ],
    );
}

/// J3: CommonJS exports made by chained assignments (`const proto = module.exports = {}` then
/// `proto.name = ...`, `var app = exports = module.exports = {}`, `exports.a = exports.b = fn`,
/// `module.exports.x = module.exports.y = 1`), and the names of a `module.exports = { ... }`
/// literal whatever their value (`version: '1.0'`, `parse: parseFn`, `sub: require('./sub')`),
/// imports the module exports by name (`const { util } = require(...)` then
/// `module.exports = { util }`, ES `import { util } ...; export { util }`), and modules spread
/// into the exports (`...require('./a')`, `...a`, `Object.assign(module.exports, require(..))`).
#[test]
fn javascript_chained_and_literal_commonjs_exports_are_members() {
    let r = Repo::new();
    r.write(
        "package.json",
        "{\"name\": \"cjs\", \"version\": \"1.0.0\"}\n",
    );
    r.write(
        "lib/proto.js",
        "'use strict';\nconst proto = module.exports = {};\nproto.name = function () {};\nproto.count = 3;\n",
    );
    r.write(
        "lib/router.js",
        "var proto = module.exports = function (options) { return options; };\nproto.param = function param(name, fn) {};\n",
    );
    r.write(
        "lib/app.js",
        "var app = exports = module.exports = {};\napp.init = function () {};\n",
    );
    r.write(
        "lib/chain.js",
        "exports.a = exports.b = function () {};\nmodule.exports.x = module.exports.y = 1;\nexports.p = module.exports.q = exports.r = 5;\n",
    );
    r.write("lib/u.js", "exports.util = 1;\n");
    r.write("lib/sub.js", "exports.deep = 1;\n");
    r.write(
        "lib/api.js",
        "\
'use strict';
const { util } = require('./u');
function parseFn() {}
module.exports = {
  util,
  version: '1.0',
  parse: parseFn,
  sub: require('./sub'),
  deep: require('./sub').deep,
  make: function () {},
  run() {},
};
",
    );
    r.write("lib/c.js", "exports.gamma = 1;\nexports.delta = 2;\n");
    r.write("lib/d.js", "exports.epsilon = 1;\n");
    r.write(
        "lib/spread.js",
        "const c = require('./c');\nmodule.exports = {\n  ...require('./sub'),\n  ...c,\n  own: 1,\n};\nObject.assign(module.exports, require('./d'));\n",
    );
    r.write(
        "lib/es.mjs",
        "import { util } from './u.js';\nimport { deep as deeper } from './sub.js';\nexport { util, deeper };\n",
    );
    expect_verdicts(
        &r,
        &[
            ("lib/proto.name", "VERIFIED lib/proto.js"),
            ("lib/proto.count", "VERIFIED lib/proto.js"),
            ("proto.name", "VERIFIED lib/proto.js"),
            ("lib/router.param", "VERIFIED lib/router.js"),
            ("lib/app.init", "VERIFIED lib/app.js"),
            ("lib/chain.a", "VERIFIED lib/chain.js"),
            ("lib/chain.b", "VERIFIED lib/chain.js"),
            ("lib/chain.x", "VERIFIED lib/chain.js"),
            ("lib/chain.y", "VERIFIED lib/chain.js"),
            ("lib/chain.p", "VERIFIED lib/chain.js"),
            ("lib/chain.q", "VERIFIED lib/chain.js"),
            ("lib/chain.r", "VERIFIED lib/chain.js"),
            ("lib/api.util", "VERIFIED lib/u.js"),
            ("lib/api.version", "VERIFIED lib/api.js"),
            ("lib/api.parse", "VERIFIED lib/api.js"),
            ("lib/api.deep", "VERIFIED lib/sub.js"),
            ("lib/api.make", "VERIFIED lib/api.js"),
            ("lib/api.run", "VERIFIED lib/api.js"),
            ("lib/es.util", "VERIFIED lib/u.js"),
            ("lib/es.deeper", "VERIFIED lib/sub.js"),
            // Spread into the exports literal, `Object.assign(module.exports, require(...))`.
            ("lib/spread.deep", "VERIFIED lib/sub.js"),
            ("lib/spread.gamma", "VERIFIED lib/c.js"),
            ("lib/spread.delta", "VERIFIED lib/c.js"),
            ("lib/spread.epsilon", "VERIFIED lib/d.js"),
            ("lib/spread.own", "VERIFIED lib/spread.js"),
            ("lib/spread.zeta", "MISSING"),
            ("lib/proto.names", "MISSING"),
            ("lib/router.params", "MISSING"),
            ("lib/app.start", "MISSING"),
            ("lib/chain.c", "MISSING"),
            ("lib/api.versions", "MISSING"),
            ("lib/es.utils", "MISSING"),
        ],
    );
    // `sub: require('./sub')`: the module itself.
    let got = resolve_all(&r, &["lib/api.sub"]);
    assert_eq!(got[0]["verdict"], "VERIFIED", "{}", got[0]);
    assert_eq!(got[0]["location"], "lib/sub.js", "{}", got[0]);
}

/// A standard trait implemented for a repository type of the same name (`impl
/// std::error::Error for Error`): the trait is the standard library's, so its provided methods
/// (`source`, `description`) are the type's; a method neither declares stays MISSING.
#[test]
fn rust_trait_named_like_the_implementing_type_is_the_outside_trait() {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"semverish\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    r.write(
        "src/lib.rs",
        "\
use std::fmt;

#[derive(Debug)]
pub struct Error {
    kind: u8,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, \"{}\", self.kind)
    }
}

impl std::error::Error for Error {}
",
    );
    expect_verdicts(
        &r,
        &[
            ("Error::fmt", "VERIFIED src/lib.rs"),
            ("Error::kind", "VERIFIED src/lib.rs"),
            ("Error::source", "VERIFIED src/lib.rs"),
            ("Error::description", "VERIFIED src/lib.rs"),
            ("Error::to_string", "VERIFIED src/lib.rs"),
            ("Error::backtrace_of", "MISSING"),
        ],
    );
}
