//! Signature drift (issue 26 point 1, docs/drift.md "Call shapes"): a call the plan writes is
//! checked against the declaration's parameters, read from its parse tree, in Rust, Python,
//! JavaScript and TypeScript: `match`, `mismatch` with the real signature quoted, or
//! `uncheckable` with the reason.

use crate::util::{Repo, drift_plan, resolve_all};

/// Each call resolves VERIFIED with one call check: `want` is `match`, `mismatch` or
/// `uncheckable`, then a text its reason must contain (empty: anything).
#[track_caller]
fn expect_calls(r: &Repo, want: &[(&str, &str, &str)]) {
    let refs: Vec<&str> = want.iter().map(|(c, _, _)| *c).collect();
    let got = resolve_all(r, &refs);
    let mut bad = Vec::new();
    for ((call, verdict, why), v) in want.iter().zip(&got) {
        let c = &v["calls"][0];
        let ok = v["verdict"] == "VERIFIED"
            && v["ref"] == *call
            && c["verdict"] == *verdict
            && c["cited"] == *call
            && c["reason"].as_str().unwrap_or("").contains(why)
            && (*verdict != "mismatch" || v["severity"] == "needs-acknowledgement")
            && (*verdict == "mismatch" || v["severity"] == "none")
            // An `uncheckable` whose declaration could not be read quotes none.
            && (*verdict == "uncheckable" || c["expected"].as_str().is_some_and(|e| !e.is_empty()));
        if !ok {
            bad.push(format!("{call}: want {verdict} {why:?}, got {v}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn python_calls_bind_like_python() {
    let r = Repo::new();
    r.write(
        "pkg/parser.py",
        "import functools\n\n\
         def parse(text, *, strict=False):\n    return text\n\n\
         def pos_only(a, b, /, c=1):\n    pass\n\n\
         def forward(*args, **kwargs):\n    pass\n\n\
         class Reader:\n    def read(self, path, mode=\"r\"):\n        pass\n\n    \
         @staticmethod\n    def make(name):\n        pass\n\n    \
         @classmethod\n    def open(cls, path):\n        pass\n\n    \
         @functools.lru_cache(maxsize=3)\n    def cached(self, key):\n        pass\n\n    \
         @app.route(\"/x\")\n    def routed(self, key):\n        pass\n\n    \
         @property\n    def size(self):\n        return 0\n",
    );
    expect_calls(
        &r,
        &[
            ("parse(text, strict=True)", "match", ""),
            ("parse(text)", "match", ""),
            (
                "parse(strict=True)",
                "mismatch",
                "the required argument `text` is missing",
            ),
            ("parse(*(), **{})", "uncheckable", "unpacks"),
            (
                "parse(text, True)",
                "mismatch",
                "takes at most 1 positional argument but 2 given",
            ),
            (
                "parse(text, mode=1)",
                "mismatch",
                "no parameter is named `mode`",
            ),
            (
                "parse(text, text=1)",
                "mismatch",
                "several values for `text`",
            ),
            ("pos_only(1, b=2)", "mismatch", "`b` is positional-only"),
            ("pos_only(1, 2, c=3)", "match", ""),
            ("forward(1, x=2)", "uncheckable", "lands in `**kwargs`"),
            ("parse(*rest)", "uncheckable", "unpacks arguments"),
            // The receiver is bound (`obj.read(p)`), or passed through the class.
            ("Reader.read(path)", "match", ""),
            ("Reader.read(reader, path, \"w\")", "match", ""),
            ("Reader.read(mode=\"w\")", "mismatch", "`path` is missing"),
            ("Reader.make(name)", "match", ""),
            ("Reader.open(path)", "match", ""),
            ("Reader.open(cls, path)", "mismatch", "takes at most"),
            ("Reader.cached(k)", "match", ""),
            (
                "Reader.routed(k)",
                "uncheckable",
                "decorated by `@app.route(\"/x\")`",
            ),
            ("Reader.size(1)", "uncheckable", "property"),
        ],
    );
}

#[test]
fn rust_calls_bind_by_position_with_either_receiver_reading() {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    r.write(
        "src/lib.rs",
        "pub struct Builder;\nimpl Builder {\n    \
         pub fn new(cfg: u32, n: u32) -> Self { Builder }\n    \
         pub fn build<T: Into<String>>(&self, name: T) -> String { name.into() }\n    \
         #[my_macros::rewrite]\n    pub fn odd(&self) {}\n}\n\
         pub fn run(x: &str) {}\n",
    );
    expect_calls(
        &r,
        &[
            ("Builder::new(cfg, 3)", "match", ""),
            (
                "Builder::new(cfg)",
                "mismatch",
                "requires 2 arguments but 1 given (`n` missing)",
            ),
            (
                "Builder::new(a, b, c)",
                "mismatch",
                "takes 2 arguments but 3 given",
            ),
            // `Type::method` is a method call or a path call with the receiver explicit.
            ("Builder::build(\"x\")", "match", ""),
            ("Builder::build(&b, \"x\")", "match", ""),
            (
                "Builder::build(a, b, c)",
                "mismatch",
                "takes 1 argument but 3 given",
            ),
            ("run(*s)", "match", ""),
            ("run(a, b)", "mismatch", "takes 1 argument but 2 given"),
            (
                "run(x, strict = 1)",
                "mismatch",
                "takes 1 argument but 2 given",
            ),
            ("Builder::odd(&b)", "uncheckable", "#[my_macros::rewrite]"),
        ],
    );
}

#[test]
fn javascript_calls_never_mismatch_on_arity() {
    let r = Repo::new();
    r.write(
        "lib/client.js",
        "function send(req, opts) { return req; }\n\
         function logAll() { console.log(arguments); }\n\
         const sum = (...xs) => xs.length;\n\
         module.exports = { send, logAll, sum };\n",
    );
    expect_calls(
        &r,
        &[
            ("send(req, { timeout })", "match", ""),
            ("send(req)", "match", "left undefined"),
            (
                "send(a, b, c)",
                "uncheckable",
                "JavaScript ignores the extra ones",
            ),
            ("logAll(1, 2, 3)", "uncheckable", "reads `arguments`"),
            ("sum(1, 2)", "uncheckable", "rest parameter"),
            ("send(...args)", "uncheckable", "spreads"),
        ],
    );
}

#[test]
fn typescript_calls_check_optional_rest_and_overloads() {
    let r = Repo::new();
    r.write(
        "src/api.ts",
        "export function fetchIt(url: string, init?: object): void {}\n\
         export function over(a: string): void;\n\
         export function over(a: number, b: number): void;\n\
         export function over(a: any, b?: any): void {}\n\
         export function rest(first: string, ...more: string[]): void {}\n\
         export function typed(this: Window, x = 1): void {}\n\
         export function gap(a: string, b = 1, c: number): void {}\n\
         export class Store {\n  get(key: string, fallback?: string): string { return key; }\n}\n\
         export class Observable {\n  /** @deprecated */\n  toPromise(): Promise<void>;\n  \
         /** @deprecated */\n  toPromise(ctor: typeof Promise): Promise<void>;\n  \
         toPromise(ctor?: unknown): Promise<void> { return undefined as any; }\n}\n\
         export interface Sink {\n  write(a: string): void;\n  write(a: string, b: number): void;\n}\n",
    );
    expect_calls(
        &r,
        &[
            ("fetchIt(u)", "match", ""),
            ("fetchIt(u, {})", "match", ""),
            (
                "fetchIt(u, timeout = 5)",
                "uncheckable",
                "no keyword arguments",
            ),
            (
                "fetchIt(a, b, c)",
                "mismatch",
                "takes 2 arguments but 3 given",
            ),
            // Any overload signature binds; the implementation's is not callable.
            ("over(1, 2)", "match", ""),
            ("over(\"a\")", "match", ""),
            (
                "over(\"a\", \"b\", \"c\")",
                "mismatch",
                "no overload binds the call",
            ),
            ("rest(\"a\", \"b\")", "uncheckable", "rest parameter"),
            ("typed(1, 2)", "mismatch", "takes 1 argument but 2 given"),
            ("typed(1)", "match", ""),
            // A default before a required parameter is still passed (`undefined`).
            ("gap(a, b, c)", "match", ""),
            (
                "gap(a, b)",
                "mismatch",
                "requires 3 arguments but 2 given (`c` missing)",
            ),
            ("Store.get(k)", "match", ""),
            (
                "Store.get(k, f, x)",
                "mismatch",
                "takes 2 arguments but 3 given",
            ),
            // A class's or interface's overload signatures are read beside the member the
            // index keeps (the first): rxjs's `Observable.toPromise(ctor)` was a false mismatch.
            ("Observable.toPromise(p)", "match", ""),
            (
                "Observable.toPromise(p, q)",
                "mismatch",
                "no overload binds the call",
            ),
            ("Sink.write(a, 1)", "match", ""),
            (
                "Sink.write(a, 1, 2)",
                "mismatch",
                "no overload binds the call",
            ),
        ],
    );
}

/// The plan pass: call shapes of code spans and the arity of prose, each checked once; a
/// `mismatch` raises the symbol to needs-acknowledgement at rung 2, never `high`; declarations
/// and elided arguments cite no call.
#[test]
fn plans_cite_call_shapes() {
    let r = Repo::new();
    r.write(
        "pkg/parser.py",
        "def parse(text, *, strict=False):\n    return text\n\n\
         class Reader:\n    def read(self, path):\n        pass\n\n\
         def load_all(paths):\n    pass\n",
    );
    let plan = "# Plan\n\n\
        Call `parse(text, strict=True)`, then `doc = parse(text, mode=\"fast\")`.\n\
        `Reader.read` taking two arguments; `Reader.read` takes three arguments.\n\
        Keep `load_all(...)` and `def load_all(paths, strict)` as they are.\n";
    let res = drift_plan(&r, plan);
    let by = |name: &str| res.iter().find(|x| x["ref"] == name).unwrap().clone();
    let parse = by("parse");
    let calls = parse["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 2, "{parse}");
    assert_eq!(calls[0]["verdict"], "match");
    assert_eq!(calls[0]["line"], 3);
    assert_eq!(calls[1]["cited"], "parse(text, mode=\"fast\")");
    assert_eq!(calls[1]["verdict"], "mismatch");
    assert_eq!(calls[1]["expected"], "def parse(text, *, strict=False)");
    assert_eq!(parse["severity"], "needs-acknowledgement");
    let read = by("Reader.read");
    let calls = read["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 2, "{read}");
    assert_eq!(calls[0]["cited"], "Reader.read taking two arguments");
    // Two arguments counting `self`, one without: either reading binds.
    assert_eq!(calls[0]["verdict"], "match");
    assert_eq!(calls[1]["verdict"], "mismatch");
    assert!(by("load_all").get("calls").is_none(), "{}", by("load_all"));
    // The coverage block lists every call check.
    let out = crate::util::probity()
        .arg("drift")
        .arg("--plan")
        .arg(r.path().join("PLAN.md"))
        .arg("--root")
        .arg(r.path())
        .arg("--no-cache")
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(
        md.contains(
            "4 call(s) checked against their declarations: 2 match, 2 mismatch, 0 uncheckable."
        ),
        "{md}"
    );
    assert!(
        md.contains("| `parse(text, mode=\"fast\")` | mismatch | needs-acknowledgement |"),
        "{md}"
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "a mismatch at rung 2 is no hard block"
    );
}

/// A head naming both a module and a class of the same name with the cited member (dateutil's
/// `parser.parse`: the `dateutil.parser` package's function and the class `parser`'s method;
/// @tiptap/core's `DecorationManager.liveWidgetKeys`: a function of `DecorationManager.ts` and
/// the class's method) is AMBIGUOUS, and so its calls are `uncheckable`: checked against the
/// module's function alone, a real call of the method was a false `mismatch` (the call oracle,
/// benches/drift-oracle/calls.py).
#[test]
fn a_module_and_a_class_of_one_name_make_the_member_ambiguous() {
    let r = Repo::new();
    r.write(
        "dateutil/parser/__init__.py",
        "from ._parser import parse, parser\n",
    );
    r.write(
        "dateutil/parser/_parser.py",
        "class parser:\n    def parse(self, timestr, default=None, ignoretz=False, tzinfos=None):\n        return timestr\n\n\
         def parse(timestr, parserinfo=None, **kwargs):\n    return parser().parse(timestr, **kwargs)\n",
    );
    r.write(
        "src/DecorationManager.ts",
        "export function liveWidgetKeys(editor: object): Set<string> { return new Set(); }\n\
         export class DecorationManager {\n  liveWidgetKeys(): Set<string> { return new Set(); }\n}\n",
    );
    let got = resolve_all(
        &r,
        &[
            "parser.parse(a, b, c, d)",
            "DecorationManager.liveWidgetKeys(e)",
        ],
    );
    for v in &got {
        assert_eq!(v["verdict"], "AMBIGUOUS", "{v:#}");
        assert_eq!(v["candidates"].as_array().map(Vec::len), Some(2), "{v:#}");
        assert_eq!(v["calls"][0]["verdict"], "uncheckable", "{v:#}");
        assert!(
            v["calls"][0]["reason"]
                .as_str()
                .unwrap()
                .contains("1 bind the call, 1 refuse it"),
            "{v:#}"
        );
    }
    // Checked against each candidate: refused by both, or bound by both.
    let got = resolve_all(&r, &["parser.parse(a, b, c, d, e, f)", "parser.parse(a)"]);
    assert_eq!(got[0]["calls"][0]["verdict"], "mismatch", "{:#}", got[0]);
    // The name's own severity (AMBIGUOUS: `medium`) is above a call's.
    assert_eq!(got[0]["severity"], "medium", "{:#}", got[0]);
    let expected = got[0]["calls"][0]["expected"].as_str().unwrap();
    assert!(
        expected.contains("dateutil/parser/_parser.py:2:9: def parse(self, timestr")
            && expected.contains("def parse(timestr, parserinfo=None, **kwargs)"),
        "{expected}"
    );
    assert_eq!(got[1]["calls"][0]["verdict"], "match", "{:#}", got[1]);
    assert_eq!(got[1]["severity"], "medium", "{:#}", got[1]);
}

/// A call of a class is checked against the constructor it reaches: its own `__init__` or
/// `constructor` (with TypeScript overloads), else the one inherited from a base the
/// repository declares (in the file or through an import, a few classes up), else none (a
/// class without base takes no arguments). What probity cannot follow stays `uncheckable`
/// with the reason: a base outside the repository (a Python `tuple` may take the arguments
/// first, an exception takes any), several bases, `__new__`, a metaclass, a class decorator.
#[test]
fn calls_of_classes_reach_their_constructors() {
    let r = Repo::new();
    r.write(
        "pkg/models.py",
        "class Base:\n    def __init__(self, path, mode=\"r\"):\n        self.path = path\n\n\n\
         class Reader(Base):\n    pass\n\n\n\
         class Plain:\n    pass\n\n\n\
         class Tagged(tuple):\n    def __init__(self, a, b):\n        pass\n\n\n\
         class Oops(ValueError):\n    def __init__(self, msg, code):\n        pass\n\n\n\
         class Bare(ValueError):\n    pass\n\n\n\
         class Made:\n    def __new__(cls, *args):\n        return object.__new__(cls)\n\n    \
         def __init__(self, a):\n        pass\n\n\n\
         class Meta(metaclass=abc.ABCMeta):\n    def __init__(self, a):\n        pass\n\n\n\
         @dataclasses.dataclass\nclass Point:\n    x: int\n\n\n\
         class Both(Base, Plain):\n    pass\n",
    );
    r.write(
        "pkg/more.py",
        "from .models import Base\n\n\n\
         class Child(Base):\n    def __init__(self, a, *, strict=False):\n        super().__init__(a)\n\n\n\
         class GrandChild(Child):\n    pass\n",
    );
    expect_calls(
        &r,
        &[
            ("Reader(path)", "match", ""),
            ("Reader(path, mode=\"w\")", "match", ""),
            (
                "Reader(a, b, c)",
                "mismatch",
                "takes at most 2 positional arguments but 3 given",
            ),
            (
                "Reader(path, nosuch=1)",
                "mismatch",
                "no parameter is named `nosuch`",
            ),
            (
                "Plain(x)",
                "mismatch",
                "takes at most 0 positional arguments",
            ),
            (
                "Tagged(a, b)",
                "uncheckable",
                "its base `tuple` is not declared",
            ),
            ("Oops(msg, 3)", "match", ""),
            (
                "Oops(msg)",
                "mismatch",
                "the required argument `code` is missing",
            ),
            (
                "Bare(msg)",
                "uncheckable",
                "`ValueError`'s, which takes any arguments",
            ),
            ("Made(a)", "uncheckable", "`__new__`"),
            ("Meta(a)", "uncheckable", "metaclass"),
            (
                "Point(x)",
                "uncheckable",
                "decorated by `@dataclasses.dataclass`",
            ),
            ("Both(x)", "uncheckable", "2 bases"),
            // Through an import of another file, and one class further up.
            ("Child(a, strict=True)", "match", ""),
            (
                "Child(a, b)",
                "mismatch",
                "takes at most 1 positional argument",
            ),
            ("GrandChild(a, strict=True)", "match", ""),
            (
                "GrandChild(a, mode=1)",
                "mismatch",
                "no parameter is named `mode`",
            ),
        ],
    );
    let r = Repo::new();
    r.write(
        "web/client.ts",
        "import { EventEmitter } from 'events';\n\
         export class Client {\n  constructor(url: string, timeout?: number) {}\n}\n\
         export class Empty {}\n\
         export class Sub extends Client {}\n\
         export class Own extends EventEmitter {\n  constructor(name: string) { super(); }\n}\n\
         export class Emitter extends EventEmitter {}\n\
         export class Over {\n  constructor(a: string);\n  constructor(a: string, b: number);\n  \
         constructor(a: string, b?: number) {}\n}\n",
    );
    r.write(
        "web/legacy.js",
        "const { Transport } = require('./base');\n\
         class Plain {}\n\
         class Remote extends Transport {}\n\
         module.exports = { Plain, Remote };\n",
    );
    r.write(
        "web/base.js",
        "class Transport {\n  constructor(url, retries) {}\n}\nmodule.exports = { Transport };\n",
    );
    expect_calls(
        &r,
        &[
            ("Client(url)", "match", ""),
            (
                "Client(url, 1, 2)",
                "mismatch",
                "takes 2 arguments but 3 given",
            ),
            ("Empty(x)", "mismatch", "takes 0 arguments but 1 given"),
            ("Sub(url, 5)", "match", ""),
            ("Sub(a, b, c)", "mismatch", "takes 2 arguments but 3 given"),
            ("Own(name)", "match", ""),
            ("Own(a, b)", "mismatch", "takes 1 argument but 2 given"),
            (
                "Emitter(x)",
                "uncheckable",
                "its base `EventEmitter` is imported from `events`",
            ),
            ("Over(a, 2)", "match", ""),
            ("Over(a, 2, 3)", "mismatch", "no overload binds the call"),
            // JavaScript: extra arguments are legal, missing ones are `undefined`.
            ("Plain(x)", "uncheckable", ""),
            ("Remote(url)", "match", ""),
        ],
    );
}
