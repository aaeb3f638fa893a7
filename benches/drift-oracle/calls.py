#!/usr/bin/env python3
"""Signature drift against compiler-grade signatures (issue 26, point 1; README.md "Calls").

For real packages of the oracle's lists, the signatures come from the language's own tools,
never from probity's parser: CPython's `ast` and `inspect.Signature.bind` (Python: whether a call
binds is decided by CPython itself, on a function compiled from the declaration's parameter
list), nightly rustdoc's JSON (`sig.inputs`, Rust), the TypeScript compiler's parser
(`calls-ts.mjs`; TypeScript and JavaScript). From each declaration the script writes the calls a
planner writes (`Class.method(v1, key=v2)`, `module.func(v1)`, `Type::method(v1, v2)`), real ones
(the oracle binds them) and invented ones (too many arguments, an unknown keyword, a required
argument missing: the oracle refuses them), runs `probity resolve` over them and tallies
`calls[0].verdict`:

- a real call is **wrong** when probity says `mismatch` (a false signature-drift alarm: the
  target is 0), right when `match`, `uncheckable` otherwise;
- an invented call is right when `mismatch`, **missed** when `match`, `uncheckable` otherwise;
- a call whose name probity does not VERIFY gets no check (`no check`: counted apart).

A call without arguments is not written: `f()` alone names the function in a plan (docs/drift.md,
"Call shapes"), so it is no call to check.

    python3 benches/drift-oracle/calls.py python|rust|ts [ONLY=a,b] [PER_PKG=300]

Packages come from packages-<family>.toml (fetched pinned into the cache, never vendored; Rust
reuses rust.py's cached rustdoc JSON and runs rustdoc for crates that have none).
"""

from __future__ import annotations

import ast
import collections
import dataclasses
import inspect
import json
import os
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402

HERE = Path(__file__).resolve().parent

# Decorators that leave a Python function's call signature as written (probity reads these the
# same way); any other decorator makes the truth unknown, and the function is not cited.
PY_KEEP = {
    "staticmethod", "classmethod", "abstractmethod", "override", "final", "cache", "lru_cache",
    "wraps", "deprecated", "no_type_check",
}


@dataclasses.dataclass
class Call:
    text: str
    truth: str  # REAL (the oracle binds it) or INVENTED (the oracle refuses it)
    form: str
    why: str


def arg_names(n: int, avoid: str) -> list[str]:
    """`n` argument names none of which holds `avoid` (a class name: probity reads a first
    argument holding it as the instance)."""
    avoid = avoid.lower().replace("_", "")
    for stem in ("v", "q", "zz"):
        names = [f"{stem}{i + 1}" for i in range(n)]
        if not avoid or all(avoid not in x for x in names):
            return names
    return [f"zz{i + 1}" for i in range(n)]


def near_kw(names: list[str], taken: set[str]) -> str:
    """A keyword no parameter has: a near miss of a real one when there is one."""
    rng = random.Random(",".join(names))
    for n in names:
        cand = common.near_miss(n, taken, rng)
        if cand:
            return cand
    return "nosuch_option"


# ------------------------------------------------------------------ Python


def py_signature(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> inspect.Signature:
    """The signature CPython gives a function with `fn`'s parameter list (annotations dropped,
    defaults replaced by None: neither changes what binds)."""
    a = ast.arguments(
        posonlyargs=[ast.arg(x.arg) for x in fn.args.posonlyargs],
        args=[ast.arg(x.arg) for x in fn.args.args],
        vararg=fn.args.vararg and ast.arg(fn.args.vararg.arg),
        kwonlyargs=[ast.arg(x.arg) for x in fn.args.kwonlyargs],
        kw_defaults=[None if d is None else ast.Constant(None) for d in fn.args.kw_defaults],
        kwarg=fn.args.kwarg and ast.arg(fn.args.kwarg.arg),
        defaults=[ast.Constant(None) for _ in fn.args.defaults],
    )
    mod = ast.Module(
        body=[ast.FunctionDef(name="f", args=a, body=[ast.Pass()], decorator_list=[], lineno=1)],
        type_ignores=[],
    )
    ns: dict = {}
    exec(compile(ast.fix_missing_locations(mod), "<sig>", "exec"), ns)  # noqa: S102
    return inspect.signature(ns["f"])


def decorator_names(fn) -> list[str]:
    out = []
    for d in fn.decorator_list:
        d = d.func if isinstance(d, ast.Call) else d
        while isinstance(d, ast.Attribute):
            if d.attr in PY_KEEP:
                break
            d = d.value
        out.append(d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", "?"))
    return out


def py_calls(ref: str, fn, bound: int, cls: str) -> list[Call]:
    """Calls of `ref` (a function whose first `bound` parameters the call binds implicitly:
    1 for a method on an instance or a classmethod), each with the oracle's truth."""
    sig = py_signature(fn)
    params = list(sig.parameters.values())[bound:]
    P = inspect.Parameter
    positional = [p for p in params if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
    req_pos = [p for p in positional if p.default is P.empty]
    opt_kw = [p for p in params if p.kind in (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY)
              and p.default is not P.empty]
    req_kw = [p for p in params if p.kind == P.KEYWORD_ONLY and p.default is P.empty]
    has_var = any(p.kind == P.VAR_POSITIONAL for p in params)
    has_varkw = any(p.kind == P.VAR_KEYWORD for p in params)
    names = [p.name for p in params]
    shapes: list[tuple[str, int, list[str]]] = [("required", len(req_pos), [p.name for p in req_kw])]
    if opt_kw:
        shapes.append(("with a keyword", len(req_pos), [p.name for p in req_kw] + [opt_kw[0].name]))
    if len(positional) > len(req_pos):
        shapes.append(("all positional", len(positional), [p.name for p in req_kw]))
    if not has_var:
        shapes.append(("one too many", len(positional) + 1, [p.name for p in req_kw]))
    if not has_varkw:
        bad = near_kw(names, set(names))
        shapes.append(("unknown keyword", len(req_pos), [p.name for p in req_kw] + [bad]))
    if req_pos:
        shapes.append(("one missing", len(req_pos) - 1, [p.name for p in req_kw]))
    out = []
    seen = set()
    for form, npos, kws in shapes:
        pos = arg_names(npos + len(kws), cls)
        args = pos[:npos] + [f"{k}={v}" for k, v in zip(kws, pos[npos:])]
        text = f"{ref}({', '.join(args)})"
        # `f()` alone names the function (docs/drift.md): no call to check
        if not args or text in seen:
            continue
        seen.add(text)
        try:
            sig.bind(*(["_"] * bound), *range(npos), **{k: 0 for k in kws})
            truth = common.REAL
        except TypeError:
            truth = common.INVENTED
        out.append(Call(text, truth, form, str(sig)))
    return out


def py_constructor_calls(ref: str, node: ast.ClassDef, body: list, count, skipped) -> list[Call]:
    """Calls of the class `ref` (`mod.Class(args)`), when CPython's own rules decide them from
    the class alone: no decorator, no keyword among the bases, no base but `object` (a base's
    `__new__` or `__init__` would take part), no `__new__`, and `__init__` defined once (or not
    at all: then `object()` takes no arguments, and only a call with one is written, invented)."""
    bases_ok = all(isinstance(b, ast.Name) and b.id == "object" for b in node.bases)
    binds_ctor = any(
        isinstance(t, ast.Name) and t.id in ("__init__", "__new__", "__metaclass__")
        for st in node.body if isinstance(st, (ast.Assign, ast.AnnAssign))
        for t in (st.targets if isinstance(st, ast.Assign) else [st.target])
    )
    if node.decorator_list or node.keywords or not bases_ok or binds_ctor or count["__new__"]:
        skipped["constructor not decided by the class alone"] += 1
        return []
    if count["__init__"] > 1:
        skipped["dunder or defined twice in its class"] += 1
        return []
    init = next((f for f in body if f.name == "__init__"), None)
    if init is None:
        init = ast.parse("def __init__(self): pass").body[0]
    elif set(decorator_names(init)) - PY_KEEP or not (init.args.posonlyargs or init.args.args):
        skipped["constructor not decided by the class alone"] += 1
        return []
    out = py_calls(ref, init, 1, node.name)
    for c in out:
        c.form = f"constructor: {c.form}"
    return out


def python_package(pkg: dict, per_pkg: int) -> tuple[Path, list[Call], collections.Counter]:
    import python  # noqa: PLC0415 - the family script, for its fetch and prune
    import scip  # noqa: PLC0415

    root = python.tree(pkg)
    skipped: collections.Counter = collections.Counter()
    calls: list[Call] = []
    for rel in python.source_files(root):
        try:
            tree = ast.parse((root / rel).read_bytes())
        except (SyntaxError, ValueError):
            skipped["file CPython cannot parse"] += 1
            continue
        mod = scip.py_module(rel, root)
        top = collections.Counter(
            n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        )
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and mod:
                if top[node.name] > 1:
                    skipped["defined twice in its module"] += 1
                    continue
                if set(decorator_names(node)) - PY_KEEP:
                    skipped["decorator that may change the signature"] += 1
                    continue
                calls += py_calls(f"{mod}.{node.name}", node, 0, "")
            elif isinstance(node, ast.ClassDef) and top[node.name] == 1:
                body = [n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
                count = collections.Counter(n.name for n in body)
                if mod:
                    calls += py_constructor_calls(f"{mod}.{node.name}", node, body, count, skipped)
                for fn in body:
                    if fn.name.startswith("__") or count[fn.name] > 1:
                        skipped["dunder or defined twice in its class"] += 1
                        continue
                    decos = set(decorator_names(fn))
                    if decos - PY_KEEP:
                        skipped["decorator that may change the signature"] += 1
                        continue
                    bound = 0 if "staticmethod" in decos else 1
                    if bound and not (fn.args.posonlyargs or fn.args.args):
                        skipped["method without a self parameter"] += 1
                        continue
                    calls += py_calls(f"{node.name}.{fn.name}", fn, bound, node.name)
    rng = random.Random(pkg["name"])
    if len(calls) > per_pkg:
        calls = rng.sample(calls, per_pkg)
    return root, calls, skipped


# ------------------------------------------------------------------ Rust


def rust_package(pkg: dict, per_pkg: int) -> tuple[Path, list[Call], collections.Counter]:
    import rust  # noqa: PLC0415

    _, root = rust.crate_paths(pkg)
    path, why = rust.rustdoc_json(pkg, root)
    if path is None:
        raise RuntimeError(why.strip().splitlines()[-1][:160] if why.strip() else "rustdoc failed")
    doc = json.loads(path.read_text())
    target = rust.lib_target(root)
    o = rust.Oracle(doc, root, target["name"].replace("-", "_"))
    skipped: collections.Counter = collections.Counter()
    # (type name, method) -> arities of every inherent definition (several impls may define it)
    arities: dict[tuple, set] = collections.defaultdict(set)
    selfs: dict[tuple, set] = collections.defaultdict(set)
    type_names = collections.Counter(c.name for c in o.containers.values())
    for item in o.index.values():
        impl = (item.get("inner") or {}).get("impl")
        if not impl or impl.get("trait") is not None or impl.get("is_synthetic"):
            continue
        target_id = ((impl.get("for") or {}).get("resolved_path") or {}).get("id")
        c = o.containers.get(target_id)
        if c is None:
            continue
        if o.generated(item, by_text=False):
            skipped["impl a macro writes"] += 1
            continue
        for i in impl["items"]:
            m = o.index.get(i)
            fn = m and (m.get("inner") or {}).get("function")
            if not fn:
                continue
            if not o.in_crate(o.file_of(m)) or o.generated(m):
                skipped["method a macro writes or spanned outside"] += 1
                continue
            sig = fn["sig"]
            if sig.get("is_c_variadic"):
                skipped["C variadic"] += 1
                continue
            inputs = sig.get("inputs", [])
            has_self = bool(inputs) and inputs[0][0] == "self"
            arities[(c.name, m["name"])].add(len(inputs) - has_self)
            selfs[(c.name, m["name"])].add(has_self)
    calls: list[Call] = []
    for (tname, mname), ns in sorted(arities.items()):
        if type_names[tname] > 1:
            skipped["type name declared twice"] += 1
            continue
        has_self = selfs[(tname, mname)]
        # what binds: the arity as a method call, and with the receiver explicit
        ok = set(ns) | {n + 1 for n in ns if True in has_self}
        tried = sorted({min(ns), max(ns) + 2} | ({min(ns) - 1} if min(ns) >= 1 else set()))
        for n in tried:
            if n == 0:
                continue  # `T::f()` alone names the function: no call to check
            truth = common.REAL if n in ok else common.INVENTED
            args = ", ".join(arg_names(n, ""))
            form = "real arity" if truth == common.REAL else ("too many" if n > min(ns) else "too few")
            calls.append(Call(f"{tname}::{mname}({args})", truth, form, f"arities {sorted(ns)}"
                              f"{' (self)' if True in has_self else ''}"))
    rng = random.Random(pkg["name"])
    if len(calls) > per_pkg:
        calls = rng.sample(calls, per_pkg)
    return root, calls, skipped


# ------------------------------------------------------------------ TypeScript / JavaScript


def ts_package(pkg: dict, per_pkg: int) -> tuple[Path, list[Call], collections.Counter]:
    import js  # noqa: PLC0415

    root = js.tree(pkg)
    files = [f for f in js.source_files(root)]
    proc = subprocess.run(
        ["node", str(HERE / "calls-ts.mjs"), str(root), *files],
        capture_output=True, timeout=900, cwd=common.REPO,
    )
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.decode(errors="replace")[-300:])
    decls = json.loads(proc.stdout)
    skipped: collections.Counter = collections.Counter(decls.pop("skipped", {}))
    calls: list[Call] = []
    for d in decls["functions"]:
        ref, sigs, js_file = d["ref"], d["signatures"], d["js"]
        cls = d.get("class", "")
        lo = min(s["required"] for s in sigs)
        hi = max(float("inf") if s["rest"] else s["total"] for s in sigs)

        def binds(n: int) -> bool:
            return any(s["required"] <= n and (s["rest"] or n <= s["total"]) for s in sigs)

        tried = {lo}
        if hi != float("inf"):
            tried.add(int(hi))
            tried.add(int(hi) + 1)
        if lo >= 1:
            tried.add(lo - 1)
        for n in sorted(tried - {0}):  # `f()` alone names the function: no call to check
            # JavaScript: any arity is legal at run time; a missing argument is `undefined`
            truth = common.REAL if binds(n) else common.INVENTED
            if js_file and truth == common.INVENTED:
                continue
            form = ("real arity" if truth == common.REAL else ("too many" if n > lo else "too few"))
            form = ("js " if js_file else "ts ") + form
            args = ", ".join(arg_names(n, cls))
            calls.append(Call(f"{ref}({args})", truth, form, d["why"]))
    rng = random.Random(pkg["name"])
    if len(calls) > per_pkg:
        calls = rng.sample(calls, per_pkg)
    return root, calls, skipped


# ------------------------------------------------------------------ scoring


FAMILIES = {
    "python": ("packages-python.toml", python_package),
    "rust": ("packages-rust.toml", rust_package),
    "ts": ("packages-js.toml", ts_package),
}


def main() -> int:
    fam = sys.argv[1] if len(sys.argv) > 1 else "python"
    toml, make = FAMILIES[fam]
    per_pkg = int(os.environ.get("PER_PKG", "300"))
    rows = []
    totals: collections.Counter = collections.Counter()
    by_form: dict = collections.defaultdict(collections.Counter)
    wrong: list = []
    skipped_all: collections.Counter = collections.Counter()
    for pkg in common.load_packages(toml):
        name = pkg["name"]
        try:
            root, calls, skipped = make(pkg, per_pkg)
        except Exception as e:  # noqa: BLE001 - an oracle that fails is reported, not trusted
            print(f"{name}: skipped: {str(e)[:200]}", file=sys.stderr, flush=True)
            continue
        skipped_all.update(skipped)
        if not calls:
            continue
        results = common.resolve(root, [common.Ref(c.text, c.truth, c.form, c.why) for c in calls])
        t: collections.Counter = collections.Counter()
        for c in calls:
            res = results.get(c.text) or {}
            checks = res.get("calls") or []
            v = checks[0]["verdict"] if checks else "no check"
            t[(c.truth, v)] += 1
            by_form[c.form][v] += 1
            bad = (c.truth == common.REAL and v == "mismatch") or (c.truth == common.INVENTED and v == "match")
            if bad:
                wrong.append((name, c, res.get("verdict"), checks[0] if checks else {}))
        totals.update(t)
        rows.append((name, t))
        print(f"{name}: {len(calls)} calls, real mismatch {t[(common.REAL, 'mismatch')]}, "
              f"invented match {t[(common.INVENTED, 'match')]}", file=sys.stderr, flush=True)

    def line(name: str, t) -> str:
        R, I = common.REAL, common.INVENTED
        real = sum(v for (tr, _), v in t.items() if tr == R)
        inv = sum(v for (tr, _), v in t.items() if tr == I)
        return (f"| {name} | {real} | {t[(R, 'match')]} | {t[(R, 'uncheckable')]} | "
                f"**{t[(R, 'mismatch')]}** | {t[(R, 'no check')]} | {inv} | {t[(I, 'mismatch')]} | "
                f"{t[(I, 'uncheckable')]} | **{t[(I, 'match')]}** | {t[(I, 'no check')]} |")

    print(f"\n{fam}: {len(rows)} packages")
    print("| package | real calls | match | uncheckable | mismatch (false alarm) | no check | "
          "invented calls | mismatch (caught) | uncheckable | match (missed) | no check |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, t in rows:
        print(line(name, t))
    print(line("**all**", totals))
    print("\nper form (verdicts):")
    for form, c in sorted(by_form.items()):
        print(f"  {form:<22} " + ", ".join(f"{k} {v}" for k, v in c.most_common()))
    print("\nnot cited (the oracle cannot decide, or probity reads the name otherwise):")
    for why, n in skipped_all.most_common():
        print(f"  {n:>6}  {why}")
    show = int(os.environ.get("SHOW", "40"))
    print(f"\nwrong verdicts ({len(wrong)}):")
    for name, c, verdict, check in wrong[:show]:
        print(f"  {name}: {c.truth} {c.text} [{c.form}] oracle {c.why} -> {verdict} / "
              f"{check.get('verdict')}: {check.get('reason') or check.get('expected')}")
    out = common.cache_dir() / f"calls-{fam}{'-subset' if os.environ.get('ONLY') else ''}.json"
    out.write_text(json.dumps(
        {"rows": [(n, {f"{a}/{b}": v for (a, b), v in t.items()}) for n, t in rows],
         "wrong": [(n, dataclasses.asdict(c), v, ch) for n, c, v, ch in wrong]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
