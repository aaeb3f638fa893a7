#!/usr/bin/env python3
"""The Rust family of the drift oracle (see README.md).

For every crate of `packages-rust.toml`: fetch the pinned `.crate` from
crates.io into the cache, unpack it, run nightly rustdoc's JSON output over
its lib target (`--document-private-items`), read the compiler's symbol table
from it, make real references in the forms planners write and invented ones by
perturbation, run `probity resolve` over the crate and tally the verdicts.

    python3 benches/drift-oracle/rust.py            # every crate
    ONLY=semver,itoa python3 benches/drift-oracle/rust.py
    REAL=350 INVENTED=350 PROBITY=target/release/probity python3 ...
    DOC_ONLY=1 ...     # fetch and document only;  RETRY=1: retry failed rustdoc runs
    SHOW=100000 ...    # list every unsafe verdict (200 by default)

The rustdoc JSON is cached (`$PROBITY_ORACLE_CACHE/rust/json/`), so a rerun
only runs probity. The table goes to stdout, every verdict to
`$PROBITY_ORACLE_CACHE/rust/results-rust.json`.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from common import INVENTED, REAL, Ref  # noqa: E402

# The rustdoc JSON format this reader was written against; another version is
# read anyway (the fields used are old and stable) but said so.
FORMAT_VERSION = 57

# Marker traits `#[derive(PartialEq)]` / `#[derive(Eq)]` also implement: no
# methods, and not something a planner cites.
DERIVE_INTERNAL = {"StructuralPartialEq", "StructuralEq"}

# Provided methods of standard traits that are unstable or `#[doc(hidden)]`
# (rustdoc lists them in `provided_trait_methods` like any other): no planner
# cites them. Names starting with `_` (`__chaining_lt`, `__iterator_get_unchecked`)
# are skipped too.
STD_HIDDEN = {
    # Eq, Drop, Error, Clone
    "assert_receiver_is_total_eq", "assert_fields_are_eq", "pin_drop", "provide", "type_id",
    "clone_to_uninit",
    # Iterator, DoubleEndedIterator
    "try_collect", "collect_into", "partition_in_place", "is_partitioned", "try_reduce", "try_find",
    "advance_by", "advance_back_by", "next_chunk", "array_chunks", "map_windows", "intersperse",
    "intersperse_with", "cmp_by", "partial_cmp_by", "eq_by",
    # Read, Write, Extend
    "read_buf", "read_buf_exact", "read_array", "write_all_vectored", "is_write_vectored",
    "is_read_vectored", "extend_one", "extend_one_unchecked", "extend_reserve",
}
# ExactSizeIterator::is_empty is unstable (exact_size_is_empty)
STD_HIDDEN_OF = {("ExactSizeIterator", "is_empty")}


# ---------------------------------------------------------------- the oracle


def crate_paths(pkg: dict) -> tuple[Path, Path]:
    name, version = pkg["name"], pkg["version"]
    archive = common.cache_dir("rust", "crates") / f"{name}-{version}.crate"
    url = f"https://static.crates.io/crates/{name}/{name}-{version}.crate"
    common.fetch(url, archive, pkg.get("sha256"))
    root = common.unpack(archive, common.cache_dir("rust", "src", f"{name}-{version}"))
    return archive, root


def lib_target(root: Path) -> dict | None:
    """The lib target of the crate (name, src_path) from `cargo metadata`."""
    proc = subprocess.run(
        ["cargo", "+nightly", "metadata", "--no-deps", "--format-version", "1", "--offline"],
        cwd=root,
        capture_output=True,
    )
    if proc.returncode != 0:
        proc = subprocess.run(
            ["cargo", "+nightly", "metadata", "--no-deps", "--format-version", "1"],
            cwd=root,
            capture_output=True,
        )
    if proc.returncode != 0:
        return None
    meta = json.loads(proc.stdout)
    for target in meta["packages"][0]["targets"]:
        if {"lib", "rlib", "proc-macro", "dylib", "cdylib", "staticlib"} & set(target["kind"]):
            return target
    return None


def rustdoc_json(pkg: dict, root: Path) -> tuple[Path | None, str]:
    """Run (once) nightly rustdoc's JSON output over the crate's lib target."""
    name, version = pkg["name"], pkg["version"]
    out = common.cache_dir("rust", "json") / f"{name}-{version}.json"
    if out.exists():
        return out, ""
    failed = out.with_suffix(".failed")
    if failed.exists() and not os.environ.get("RETRY"):
        return None, failed.read_text()[-300:]
    target = lib_target(root)
    if target is None:
        return None, "no lib target (cargo metadata)"
    target_dir = common.cache_dir("rust", "target")
    cmd = ["nice", "-n", "19", "cargo", "+nightly", "rustdoc", "--lib", "-q"]
    for feat in pkg.get("features", []):
        cmd += ["--features", feat]
    cmd += ["--", "-Z", "unstable-options", "--output-format", "json", "--document-private-items",
            "--cap-lints", "warn"]
    env = dict(os.environ, CARGO_TARGET_DIR=str(target_dir), RUSTDOCFLAGS="", RUSTFLAGS="")
    proc = subprocess.run(cmd, cwd=root, capture_output=True, env=env, timeout=3600)
    if proc.returncode != 0 and drop_dev_dependencies(root):
        # a dev-dependency the index cannot satisfy stops the resolution of a
        # lib that does not need it: document without them
        proc = subprocess.run(cmd, cwd=root, capture_output=True, env=env, timeout=3600)
    produced = target_dir / "doc" / (target["name"].replace("-", "_") + ".json")
    if proc.returncode != 0 or not produced.exists():
        why = f"rustdoc failed: {proc.stderr.decode(errors='replace')[-600:]}"
        failed.write_text(why)
        return None, why
    shutil.copyfile(produced, out)
    return out, ""


DEV_SECTION = re.compile(r"^\[(?:target\.[^\]]*\.)?dev-dependencies[\].]", re.M)


def drop_dev_dependencies(root: Path) -> bool:
    """Rewrite the unpacked Cargo.toml without its dev-dependency sections
    (the original is kept beside it); True when there were some."""
    manifest = root / "Cargo.toml"
    text = manifest.read_text()
    if not DEV_SECTION.search(text):
        return False
    keep, skipping = [], False
    for line in text.splitlines(keepends=True):
        if line.startswith("["):
            skipping = bool(DEV_SECTION.match(line))
        if not skipping:
            keep.append(line)
    shutil.copyfile(manifest, root / "Cargo.toml.oracle-orig")
    manifest.write_text("".join(keep))
    (root / "Cargo.lock").unlink(missing_ok=True)
    return True


MACRO_CALL = re.compile(r"^(?:pub(?:\([^)]*\))?\s+)?[A-Za-z_][\w:]*!\s*[\[({]")

DECL_KEYWORD = {
    "function": "fn", "struct": "struct", "enum": "enum", "union": "union", "trait": "trait",
    "constant": "const", "assoc_const": "const", "static": "static", "type_alias": "type",
    "assoc_type": "type", "module": "mod", "macro": r"macro_rules!",
}


@dataclasses.dataclass
class Member:
    name: str
    form: str
    why: str


@dataclasses.dataclass
class Container:
    """A struct, enum, union or trait of the crate, with what rustdoc says it has."""

    id: int
    name: str
    kind: str
    module: tuple
    file: str
    real: list = dataclasses.field(default_factory=list)  # Members to cite
    names: set = dataclasses.field(default_factory=set)  # every member name, any impl
    deref: bool = False  # method calls reach another type's members
    opaque: bool = False  # a member set the oracle cannot close (supertraits)


class Oracle:
    """The crate's symbol table as rustdoc's JSON gives it."""

    def __init__(self, doc: dict, root: Path, krate: str):
        self.doc = doc
        self.root = root
        self.krate = krate
        # every item rustdoc wrote (std's blanket impls' methods have another crate_id)
        self.all = {int(k): v for k, v in doc["index"].items()}
        self.index = {k: v for k, v in self.all.items() if v.get("crate_id") == 0}
        self.paths = doc.get("paths", {})
        self.skipped = collections.Counter()  # why members were not cited
        self.macro_ranges = self._macro_ranges()
        self.lines: dict[str, list[str]] = {}
        self.modules: dict[tuple, dict] = {}  # module path -> {"file", "decls", "uses", "globs", "id"}
        self.decls: list[tuple] = []  # (module path, name, kind, id, file)
        self.reexports: list[tuple] = []  # (module path, name, target id, glob, source path)
        self.containers: dict[int, Container] = {}
        self._walk(doc["root"], ())
        self._members()

    # -- spans

    def file_of(self, item: dict) -> str | None:
        span = item.get("span")
        if not span:
            return None
        return span["filename"]

    def in_crate(self, filename: str | None) -> bool:
        if not filename or filename.startswith("/") or filename.startswith("<"):
            return False
        return (self.root / filename).is_file()

    def _macro_ranges(self) -> list[tuple]:
        out = []
        for item in self.index.values():
            if "macro" in item["inner"] and item.get("span"):
                s = item["span"]
                out.append((s["filename"], s["begin"][0], s["end"][0]))
        return out

    def source_line(self, filename: str, line: int) -> str:
        if filename not in self.lines:
            try:
                self.lines[filename] = (self.root / filename).read_text(errors="replace").splitlines()
            except OSError:
                self.lines[filename] = []
        lines = self.lines[filename]
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def generated(self, item: dict, by_text: bool = True) -> str:
        """Whether a macro declared the item, and where rustdoc's span points:
        "macro_rules" (into a `macro_rules!` body of the crate), "macro call"
        (`by_text`: the text at the span is not the declaration, as in a call
        `bitflags! { ... }` or `num!(u8)`), "" (written out)."""
        span = item.get("span")
        if not span:
            return ""
        f, line = span["filename"], span["begin"][0]
        for mf, b, e in self.macro_ranges:
            if mf == f and b <= line <= e and item["inner"].get("macro") is None:
                return "macro_rules"
        name = item.get("name")
        if by_text and name:
            # the declaration as written: its keyword and name near the span's start
            # (attributes and doc comments may come first)
            kw = DECL_KEYWORD.get(next(iter(item["inner"])))
            pat = (kw + r"\s+" if kw else r"(?:^|[\s(,{])") + re.escape(name) + r"\b"
            text = "\n".join(self.source_line(f, line + k) for k in range(0, 12))
            if not re.search(pat, text):
                return "macro call"
            if self.in_macro_call(f, line):
                return "macro call"
        return ""

    def in_macro_call(self, f: str, line: int) -> bool:
        """The line is inside a top-level macro call (`bitflags! {`,
        `thread_local! {`): the nearest line above it that starts at column 0
        (comments and attributes aside) opens the call."""
        first = self.source_line(f, line)
        if MACRO_CALL.match(first) and not first.startswith("macro_rules!"):
            return True  # the span is the whole call (`bitflags! { pub struct Options ... }`)
        if first[:1] not in (" ", "\t"):
            return False
        for k in range(line - 1, 0, -1):
            text = self.source_line(f, k)
            if not text.strip() or text[:1] in (" ", "\t"):
                continue
            if text.startswith(("//", "#", "/*", "*")):
                continue
            return bool(MACRO_CALL.match(text)) and not text.startswith("macro_rules!")
        return False

    def impl_generated(self, item: dict, trait: str | None, tname: str) -> str:
        """An impl block whose text at its span is not `impl ... Trait ... Type`:
        "alias" when it names the type by another name (`type Alias = Type;`,
        `use x::Type as Alias;`), else "macro call"; "" when written out."""
        span = item.get("span")
        if not span:
            return ""
        f, line = span["filename"], span["begin"][0]
        text = "\n".join(self.source_line(f, line + k) for k in range(0, 8))
        want = re.escape(trait) + r"\b[^{]*\b" + re.escape(tname) if trait else re.escape(tname)
        if re.search(r"\bimpl\b[^{]*\b" + want + r"\b", text):
            return ""
        head = re.search(r"\bimpl\b(?:\s*<[^{]*?>)?\s+(?:[^{]*?\bfor\s+)?(?:[\w:]*::)?(\w+)", text)
        if head:
            alias = re.escape(head.group(1))
            whole = "\n".join(self.lines.get(f, []))
            if re.search(r"\btype\s+" + alias + r"\b", whole) or re.search(r"\bas\s+" + alias + r"\b", whole) \
                    or any(re.search(r"\btype\s+" + alias + r"\b", "\n".join(ls)) for ls in self.lines.values()):
                return "alias"
        return "macro call"

    # -- module properties, for the suspected cause of an unsafe verdict

    def inline(self, path: tuple) -> bool:
        """A `mod m { ... }` written inside its parent's file."""
        if not path or path not in self.modules or path[:-1] not in self.modules:
            return False
        m, parent = self.modules[path], self.modules[path[:-1]]
        item = self.index[m["id"]]
        return m["file"] == parent["file"] and (item.get("span") or {}).get("begin", [1])[0] != 1

    def path_attr(self, path: tuple) -> bool:
        """A module file where the 2018 layout does not put it (`#[path]`)."""
        if not path or path not in self.modules or path[:-1] not in self.modules:
            return False
        if self.inline(path) or self.inline(path[:-1]):
            return False
        pf = self.modules[path[:-1]]["file"]
        f = self.modules[path]["file"]
        if not pf or not f:
            return False
        ppath = Path(pf)
        base = ppath.parent if (len(path) == 1 or ppath.name in ("lib.rs", "mod.rs", "main.rs")) else ppath.parent / ppath.stem
        return f not in ((base / f"{path[-1]}.rs").as_posix(), (base / path[-1] / "mod.rs").as_posix())

    # -- modules and paths

    def _walk(self, mid: int, path: tuple) -> None:
        item = self.index.get(mid)
        if item is None or path in self.modules:
            return
        mod = {"id": mid, "file": self.file_of(item), "decls": {}, "uses": set(), "globs": False}
        self.modules[path] = mod
        for cid in item["inner"]["module"]["items"]:
            child = self.index.get(cid)
            if child is None:
                continue
            kind = next(iter(child["inner"]))
            if kind == "module":
                mod["decls"][child["name"]] = "module"
                self._walk(cid, path + (child["name"],))
            elif kind == "use":
                use = child["inner"]["use"]
                if use["is_glob"]:
                    mod["globs"] = True
                    self.reexports.append((path, None, use["id"], True, use.get("source", "")))
                else:
                    mod["uses"].add(use["name"])
                    self.reexports.append((path, use["name"], use["id"], False, use.get("source", "")))
            elif kind in ("impl",):
                continue
            elif child.get("name"):
                mod["decls"][child["name"]] = kind
                self.decls.append((path, child["name"], kind, cid, self.file_of(child)))

    # -- members

    def _trait_name(self, impl: dict) -> str | None:
        tr = impl.get("trait")
        return tr["path"].split("::")[-1] if tr else None

    def _members(self) -> None:
        for iid, item in self.index.items():
            kind = next(iter(item["inner"]))
            if kind in ("struct", "enum", "union", "trait"):
                self.containers[iid] = Container(
                    iid, item["name"], kind, (), self.file_of(item) or ""
                )
        for path, name, kind, cid, f in self.decls:
            if cid in self.containers:
                self.containers[cid].module = path
        for cid, c in self.containers.items():
            item = self.index[cid]
            inner = item["inner"][c.kind]
            if c.kind == "trait":
                if inner.get("bounds"):
                    c.opaque = True  # supertraits: `Sub::super_method` is not decided here
                for mid in inner["items"]:
                    m = self.index.get(mid)
                    if not m:
                        continue
                    mk = next(iter(m["inner"]))
                    c.names.add(m["name"])
                    if mk == "function":
                        form = "Trait::method"
                    elif mk == "assoc_const":
                        form = "Trait::CONST"
                    else:
                        self.skipped["trait assoc type"] += 1
                        continue
                    self._cite(c, m, form, f"trait {c.name}")
                continue
            if c.kind == "struct":
                sk = inner["kind"]
                if isinstance(sk, dict) and "plain" in sk:
                    for fid in sk["plain"]["fields"]:
                        fld = self.index.get(fid)
                        if fld:
                            c.names.add(fld["name"])
                            self._cite(c, fld, "Type::field", "named field")
            if c.kind == "union":
                for fid in inner.get("fields", []):
                    fld = self.index.get(fid)
                    if fld:
                        c.names.add(fld["name"])
                        self._cite(c, fld, "Type::field", "union field")
            if c.kind == "enum":
                for vid in inner["variants"]:
                    v = self.index.get(vid)
                    if v:
                        c.names.add(v["name"])
                        self._cite(c, v, "Enum::Variant", "variant")
            for impl_id in inner.get("impls", []):
                self._impl(c, impl_id)

    def _impl(self, c: Container, impl_id: int) -> None:
        item = self.index.get(impl_id)
        if item is None:
            # an impl rustdoc keeps in another crate (std's blanket impls): its
            # items are not in this index, so names may be missing: note it
            self.skipped["impl outside the crate's index"] += 1
            return
        impl = item["inner"]["impl"]
        trait = self._trait_name(impl)
        for i in impl["items"]:
            m = self.all.get(i)
            if m and m.get("name"):
                c.names.add(m["name"])  # `From<T> for T` gives every type `from`
        items = [self.index.get(i) for i in impl["items"]]
        items = [m for m in items if m]
        c.names.update(impl.get("provided_trait_methods", []))
        if trait in ("Deref", "DerefMut"):
            c.deref = True
        if impl.get("is_synthetic"):
            self.skipped["synthetic (auto trait) impl"] += 1
            return
        if impl.get("blanket_impl") is not None:
            self.skipped["blanket impl member"] += len(items) + len(impl.get("provided_trait_methods", []))
            return
        if trait in DERIVE_INTERNAL:
            return
        target = impl.get("for", {}).get("resolved_path")
        if not target or target.get("id") != c.id:
            self.skipped["impl for a reference or wrapper of the type"] += len(items)
            return
        derived = "automatically_derived" in [a if isinstance(a, str) else "" for a in item["attrs"]]
        if not self.in_crate(self.file_of(item)):
            self.skipped["impl spanned outside the crate (another crate's macro)"] += len(items)
            return
        gen = self.generated(item, by_text=False) or (
            self.impl_generated(item, trait, c.name) if not derived else ""
        )
        origin = self._origin(impl)
        for m in items:
            mk = next(iter(m["inner"]))
            if trait is None:
                form = {"function": "Type::method", "assoc_const": "Type::CONST"}.get(mk)
            elif derived:
                form = "Type::derived_method" if mk == "function" else None
            else:
                form = {"function": "Type::trait_method", "assoc_const": "Type::trait_CONST"}.get(mk)
                form = form and f"{form} ({origin} trait)"
            if form is None:
                self.skipped[f"{mk} in an impl"] += 1
                continue
            why = f"impl {trait or ''} for {c.name}".replace("impl  ", "impl ")
            self._cite(c, m, form, why, gen or ("" if derived else self.generated(m)))
        for pname in impl.get("provided_trait_methods", []):
            if pname.startswith("_") or (origin == "std" and (pname in STD_HIDDEN or (trait, pname) in STD_HIDDEN_OF)):
                self.skipped["unstable or hidden provided method"] += 1
                continue
            form = "Type::derived_provided" if derived else f"Type::provided_method ({origin} trait)"
            c.real.append(Member(pname, form + (f" [{gen}]" if gen else ""), f"default of {trait}"))

    def _origin(self, impl: dict) -> str:
        """Whose trait an impl implements: the crate's, std's or a dependency's."""
        tid = (impl.get("trait") or {}).get("id")
        if tid in self.index:
            return "crate"
        info = self.paths.get(str(tid))
        if info is None:
            return "dep"
        if info["crate_id"] == 0:
            return "crate"
        ext = self.doc.get("external_crates", {}).get(str(info["crate_id"]), {})
        return "std" if ext.get("name") in ("std", "core", "alloc") else "dep"

    def _cite(self, c: Container, m: dict, form: str, why: str, gen: str | None = None) -> None:
        f = self.file_of(m)
        if f is not None and not self.in_crate(f):
            self.skipped["member spanned outside the crate"] += 1
            return
        if gen is None:
            gen = self.generated(m)
        c.real.append(Member(m["name"], form + (f" [{gen}]" if gen else ""), why))

    # -- coverage

    def covered_files(self) -> set[str]:
        files = set()
        for item in self.index.values():
            f = self.file_of(item)
            if f and self.in_crate(f):
                files.add(f)
        return files


# ---------------------------------------------------------------- references


def lib_files(root: Path, lib_src: Path) -> list[str]:
    """The .rs files under the lib root's directory, but for other targets'
    (`src/main.rs`, `src/bin/`)."""
    base = lib_src.parent
    out = []
    for p in sorted(base.rglob("*.rs")):
        rel = p.relative_to(root).as_posix()
        if rel in ("src/main.rs", "src/build.rs") or rel.startswith("src/bin/"):
            continue
        out.append(rel)
    return out


DECL_KW = re.compile(rb"\b(?:fn|const|static|type)\s+([A-Za-z_][A-Za-z0-9_]*)")


def text_decl_counts(files: list[Path]) -> collections.Counter:
    counts: collections.Counter = collections.Counter()
    for f in files:
        try:
            data = f.read_bytes()
        except OSError:
            continue
        for m in DECL_KW.finditer(data):
            counts[m.group(1).decode()] += 1
    return counts


def file_words(path: Path) -> set[str]:
    return common.source_words([path])


def allocate(groups: dict[str, list], k: int, rng: random.Random) -> list:
    """Pick `k` items spread evenly over the groups (water filling)."""
    picked = []
    sizes = {g: len(v) for g, v in groups.items()}
    budget = {g: 0 for g in groups}
    left = k
    open_groups = [g for g in sorted(groups) if sizes[g]]
    while left > 0 and open_groups:
        share = max(1, left // len(open_groups))
        nxt = []
        for g in open_groups:
            take = min(share, sizes[g] - budget[g], left)
            budget[g] += take
            left -= take
            if budget[g] < sizes[g]:
                nxt.append(g)
            if left == 0:
                break
        open_groups = nxt
    for g in sorted(groups):
        items = sorted(groups[g], key=lambda r: r.text)
        picked.extend(items if len(items) <= budget[g] else rng.sample(items, budget[g]))
    return picked


def tag(gen: str) -> str:
    return f" [{gen}]" if gen else ""


def references(o: Oracle, root: Path, lib_rel: list[str], covered: set[str], rng: random.Random,
               n_real: int, n_inv: int) -> tuple[list[Ref], dict]:
    krate = o.krate
    all_rs = sorted(root.rglob("*.rs"))
    words = common.source_words(all_rs)
    uncovered = [root / f for f in lib_rel if f not in covered]
    uncovered_words = common.source_words(uncovered)
    text_decls = text_decl_counts(all_rs)
    oracle_decls: collections.Counter = collections.Counter()
    for item in o.index.values():
        kind = next(iter(item["inner"]))
        if kind in ("function", "assoc_const", "assoc_type", "constant", "static", "type_alias") and item.get("name"):
            oracle_decls[item["name"]] += 1

    def undeclared_elsewhere(name: str) -> bool:
        """The name is declared nowhere the oracle did not see (cfg'd-out code,
        tests, examples, fns in bodies): the text counts no more declarations."""
        return name not in uncovered_words and text_decls[name] <= oracle_decls[name]

    real: dict[str, list[Ref]] = collections.defaultdict(list)
    inv: dict[str, list[Ref]] = collections.defaultdict(list)

    def add(bucket, text, truth, form, why):
        bucket[form].append(Ref(text, truth, form, why))

    # containers by name: a head names every container so called
    by_name: dict[str, list[Container]] = collections.defaultdict(list)
    for c in o.containers.values():
        if o.in_crate(c.file) and c.file in covered:
            by_name[c.name].append(c)
    module_names: dict[str, list[tuple]] = collections.defaultdict(list)
    for path in o.modules:
        if path:
            module_names[path[-1]].append(path)

    def head_names(head: str) -> set[str] | None:
        """Every member name any container or module called `head` has; None
        when the oracle cannot close the set."""
        names: set[str] = set()
        if not undeclared_elsewhere(head):
            # another type so called where the oracle does not see (proc-macro2's
            # `fallback::Span`, which derives PartialEq: `Span::ne` is real there)
            return None
        for c in by_name.get(head, []):
            if c.deref or c.opaque:
                return None
            names |= c.names
        for path in module_names.get(head, []):
            names |= set(o.modules[path]["decls"]) | o.modules[path]["uses"]
            if o.modules[path]["globs"]:
                return None
        return names

    # -- real members, and invented ones around them
    containers = [c for cs in by_name.values() for c in cs]
    for c in containers:
        for m in c.real:
            add(real, f"{c.name}::{m.name}", REAL, m.form, m.why)
    member_pool = sorted({(m.name, c.name) for c in containers for m in c.real})
    for c in sorted(containers, key=lambda c: (c.name, c.id)):
        closed = head_names(c.name)
        mine = sorted({m.name for m in c.real})
        if not mine:
            continue
        for mname in rng.sample(mine, min(4, len(mine))):
            nm = common.near_miss(mname, words, rng)
            # a near miss may still be a member the text never spells (a std
            # trait's provided method: `nth` of `next`), or reached through Deref
            if nm and closed is not None and nm not in closed:
                add(inv, f"{c.name}::{nm}", INVENTED, "near_miss member", f"{c.name}::{mname}")
            nt = common.near_miss(c.name, words, rng)
            if nt:
                add(inv, f"{nt}::{mname}", INVENTED, "near_miss type", f"{c.name}::{mname}")
        if closed is None:
            continue
        siblings = [s for s in containers if s.module == c.module and s.name != c.name and s.kind == c.kind]
        for pool, form in (
            (sorted({(m.name, s.name) for s in siblings for m in s.real}), "sibling's member"),
            (member_pool, "other type's member"),
        ):
            cands = [(n, s) for n, s in pool if s != c.name and n not in closed and undeclared_elsewhere(n)]
            for n, s in rng.sample(cands, min(3, len(cands))):
                add(inv, f"{c.name}::{n}", INVENTED, form, f"{s}::{n}; {c.name} has no {n}")

    # -- paths
    def modtext(path: tuple) -> str:
        return "::".join(path)

    for path, name, kind, cid, f in o.decls:
        if kind == "module" or not (f and f in covered):
            continue
        item = o.index[cid]
        gen = tag(o.generated(item))
        if kind == "macro":
            add(real, f"{name}!", REAL, "macro!" + gen, f"macro_rules at {f}")
            nm = common.near_miss(name, words, rng)
            if nm:
                add(inv, f"{nm}!", INVENTED, "near_miss macro!", f"{name}!")
            continue
        if path:
            add(real, f"crate::{modtext(path)}::{name}", REAL, "crate::module::Item" + gen, kind)
            add(real, f"{path[-1]}::{name}", REAL, "module::Item" + gen, kind)
            add(real, f"{krate}::{modtext(path)}::{name}", REAL, "krate::module::Item" + gen, kind)
        else:
            add(real, f"crate::{name}", REAL, "crate::Item" + gen, kind)
            add(real, f"{krate}::{name}", REAL, "krate::Item" + gen, kind)
        nm = common.near_miss(name, words, rng)
        if nm:
            prefix = f"crate::{modtext(path)}::" if path else "crate::"
            add(inv, f"{prefix}{nm}", INVENTED, "near_miss item", f"{prefix}{name}")
        if path and len(path[-1]) >= 4:
            nmod = common.near_miss(path[-1], words, rng)
            if nmod:
                add(inv, f"crate::{modtext(path[:-1] + (nmod,))}::{name}", INVENTED, "near_miss module",
                    f"crate::{modtext(path)}::{name}")
        # a wrong module: a sibling module that does not hold the name
        parent = path[:-1] if path else None
        sibs = [p for p in o.modules if p and p != path and (parent is None or p[:-1] == parent)]
        if not sibs:
            sibs = [p for p in o.modules if p and p != path]
        rng.shuffle(sibs)
        for s in sibs[:6]:
            if not wrong_module_ok(o, root, s, name, module_names, covered):
                continue
            add(inv, f"crate::{modtext(s)}::{name}", INVENTED, "wrong module", f"{name} is in crate::{modtext(path)}")
            add(inv, f"{s[-1]}::{name}", INVENTED, "wrong module (short)", f"{name} is in crate::{modtext(path)}")
            break

    # re-exports: `pub use` and globs of the crate's own modules
    decl_home = {cid: path for path, _name, _kind, cid, _f in o.decls}
    for path, name, target, glob, source in o.reexports:
        titem = o.index.get(target) if target is not None else None
        if titem is None:
            o.skipped["re-export of another crate's item"] += 1
            continue
        prefix = f"crate::{modtext(path)}::" if path else "crate::"
        kprefix = f"{krate}::{modtext(path)}::" if path else f"{krate}::"
        if not glob:
            home = "::".join(("crate",) + decl_home.get(target, ("?",)))
            gen = tag(o.generated(titem))
            via = f" via {source}" if source else ""
            add(real, prefix + name, REAL, "re-export" + gen, f"pub use of {titem.get('name')} from {home}{via}")
            add(real, kprefix + name, REAL, "krate re-export" + gen,
                f"pub use of {titem.get('name')} from {home}{via}")
        elif "module" in titem["inner"]:
            for cid in titem["inner"]["module"]["items"]:
                child = o.index.get(cid)
                if child and child.get("name") and child.get("visibility") == "public" and "impl" not in child["inner"]:
                    gen = tag(o.generated(child))
                    home = "::".join(("crate",) + decl_home.get(cid, ("?",)))
                    add(real, prefix + child["name"], REAL, "glob re-export" + gen,
                        f"pub use {titem['name']}::* from {home}")

    # files
    for f in sorted(covered):
        add(real, f, REAL, "file path", "rustdoc span")
        p = Path(f)
        stem = p.stem
        if stem in ("mod", "lib") or len(stem) < 4:
            continue
        nm = common.near_miss(stem, words | {Path(x).stem for x in lib_rel}, rng)
        if nm:
            cand = (p.parent / (nm + p.suffix)).as_posix()
            if not (root / cand).exists() and not (root / cand[:-3]).exists():
                add(inv, cand, INVENTED, "near_miss file", f)

    # a text both real and invented is real (the oracle says it exists)
    real_texts = {r.text for rs in real.values() for r in rs}
    for form in list(inv):
        inv[form] = [r for r in inv[form] if r.text not in real_texts]
    # one reference per text
    for bucket in (real, inv):
        seen: set[str] = set()
        for form in sorted(bucket):
            keep = []
            for r in bucket[form]:
                if r.text not in seen:
                    seen.add(r.text)
                    keep.append(r)
            bucket[form] = keep

    picked = allocate(real, n_real, rng) + allocate(inv, n_inv, rng)
    stats = {
        "real candidates": {k: len(v) for k, v in sorted(real.items())},
        "invented candidates": {k: len(v) for k, v in sorted(inv.items())},
    }
    return picked, stats


STD_MODULES = {
    "alloc", "any", "array", "ascii", "borrow", "boxed", "cell", "char", "clone", "cmp", "collections",
    "convert", "default", "env", "error", "f32", "f64", "ffi", "fmt", "fs", "future", "hash", "hint",
    "io", "iter", "marker", "mem", "net", "num", "ops", "option", "os", "panic", "path", "pin", "prelude",
    "primitive", "process", "ptr", "rc", "result", "slice", "str", "string", "sync", "task", "thread",
    "time", "vec", "arch", "simd", "backtrace", "usize", "u8", "u16", "u32", "u64", "u128", "i8", "i16",
    "i32", "i64", "i128", "isize",
}
INDENTED_GLOB = re.compile(r"^[ \t]+use\s+(?:super|self|crate)::[^;]*\*", re.M)


CLASSES = {
    1: "derive-generated impl member",
    2: "declared by a macro",
    3: "path through an inline module",
    4: "`use super::*` in a nested module read as the module's own glob",
    5: "#[path] module not followed",
    6: "a file of another target (tests/, benches/) read as a lib module",
    7: "short module path: several modules so named",
    8: "short module path named like the crate",
    9: "an impl's trait read as the repository type of the same name",
    10: "`Trait::Type` verified by `impl Trait for Type`",
    11: "impl written on an alias of the type",
}


def suspect(o: Oracle, root: Path, ref: Ref, res: dict) -> str:
    """A first guess at the cause of an unsafe verdict, from what the oracle
    knows of the reference: one of the classes of FINDINGS-rust.md (numbered
    as there, each confirmed by a minimal reproduction), or "?: ..."."""

    def cls(n: int, detail: str = "") -> str:
        return f"{n}. {CLASSES[n]}" + (f" ({detail})" if detail else "")

    f, text = ref.form, ref.text
    segs = text.split("::")
    if ref.truth == REAL:
        if "derived" in f:
            return cls(1)
        if "[macro_rules]" in f:
            return cls(2, "span in a macro_rules! body")
        if "[macro call]" in f:
            return cls(2, "span at a macro call")
        if "[alias]" in f:
            return cls(11)
        if f.startswith(("Type::", "Enum::", "Trait::")):
            for c in o.containers.values():
                if c.name == segs[0] and o.generated(o.index[c.id]):
                    return cls(2, "the type is declared by a macro call")
        if "provided_method" in f or "trait_method" in f:
            trait = ref.why.split()[-1] if ref.why.startswith("default of") else ref.why.split()[1]
            if any(c.name == trait and c.kind != "trait" for c in o.containers.values()) or re.search(
                r"\b(?:struct|enum|union|type)\s+" + re.escape(trait) + r"\b", crate_text(root)
            ):
                return cls(9)
        if f.startswith(("Type::", "Enum::", "Trait::")):
            return "?: member"
        if f.startswith("module::Item"):
            mods = [p for p in o.modules if p and p[-1] == segs[0]]
            if len(mods) > 1:
                return cls(7)
            if other_target_file(root, segs[0]):
                return cls(6, "shadows the lib's module")
            if segs[0] == o.krate:
                return cls(8)
            chain = mods[0] if mods else ()
        else:
            chain = tuple(segs[1:-1])
        if "re-export" in f and " via " in ref.why:
            # the `pub use` path: through an inline or #[path] module?
            src = ref.why.split(" via ")[1].split("::")[:-1]
            where = chain
            if src and src[0] == "crate":
                where, src = (), src[1:]
            while src and src[0] in ("self", "super"):
                where = where if src[0] == "self" else where[:-1]
                src = src[1:]
            for i in range(1, len(src) + 1):
                if o.inline(where + tuple(src[:i])):
                    return cls(3, "the `pub use` goes through it")
                if o.path_attr(where + tuple(src[:i])):
                    return cls(5, "the `pub use` goes through it")
        if "re-export" in f and " from crate::" in ref.why:
            # the re-exported item's own module decides
            chain = chain + ("|",) + tuple(ref.why.split(" from crate::")[1].split(" via ")[0].split("::"))
        for i in range(1, len(chain) + 1):
            sub = chain[:i]
            if "|" in sub:
                sub = chain[chain.index("|") + 1 : i]
                if not sub:
                    continue
            if o.inline(sub):
                return cls(3)
            if o.path_attr(sub):
                return cls(5)
        for path, name, _kind, cid, _f in o.decls:
            if name == segs[-1] and o.generated(o.index[cid]):
                return cls(2, "an item a macro call declares")
        return "?: path"
    loc = res.get("location") or ""
    if (loc and not loc.startswith("src/")) or (f.startswith("wrong module") and other_target_file(root, segs[-2])):
        return cls(6, "its imports verify the name")
    if f.startswith("wrong module"):
        for p in (p for p in o.modules if p and p[-1] == segs[-2]):
            mf = o.modules[p]["file"]
            if mf and INDENTED_GLOB.search((root / mf).read_text(errors="replace")):
                return cls(4)
        return "?: wrong module"
    head, member = segs[0], segs[-1]
    heads = [c for c in o.containers.values() if c.name == head]
    for c in heads:
        if c.kind == "trait" and any(t.name == member and t.kind != "trait" for t in o.containers.values()):
            return cls(10)
    for item in o.index.values():
        impl = item["inner"].get("impl")
        if not impl or not impl.get("trait"):
            continue
        tname = impl["trait"]["path"].split("::")[-1]
        target = (impl.get("for") or {}).get("resolved_path") or {}
        implements = any(target.get("id") == c.id for c in heads)
        named_like_head = tname == head and all(impl["trait"].get("id") != c.id for c in heads)
        if implements and any(member in t.names for t in o.containers.values() if t.name == tname and t.kind != "trait"):
            return cls(9, "the same-named type lends its members")
        if named_like_head and any((o.all.get(i) or {}).get("name") == member for i in impl["items"]):
            return cls(9, "another trait of that name lends its methods")
    return "?: member"


_TEXT: dict[Path, str] = {}


def crate_text(root: Path) -> str:
    """Every .rs file of the package, as one text (cfg'd-out code included)."""
    if root not in _TEXT:
        _TEXT[root] = "\n".join(p.read_text(errors="replace") for p in sorted(root.rglob("*.rs")))
    return _TEXT[root]


def other_target_file(root: Path, name: str) -> bool:
    """A file `name.rs` (or `name/mod.rs`) of a test, bench or example target."""
    for d in ("tests", "benches", "examples"):
        if (root / d / f"{name}.rs").exists() or (root / d / name / "mod.rs").exists():
            return True
    return False


def wrong_module_ok(o: Oracle, root: Path, s: tuple, name: str, module_names, covered) -> bool:
    """`crate::s::name` is invented for certain: no module called like `s`
    holds, imports, globs or even mentions `name` in its file."""
    for path in module_names.get(s[-1], []):
        mod = o.modules[path]
        if name in mod["decls"] or name in mod["uses"] or mod["globs"]:
            return False
        f = mod["file"]
        if not f or f not in covered:
            return False
        text = (root / f).read_text(errors="replace")
        if name in file_words(root / f):
            return False
        stems = [p for p in (root / "src").rglob(f"{s[-1]}.rs")] + [p for p in (root / "src").rglob(f"{s[-1]}/mod.rs")]
        if any(p.relative_to(root).as_posix() != f for p in stems):
            # `#[cfg_attr(unix, path = "unix.rs")] mod platform;`: a file called
            # like the module that is not the module's own file
            return False
        if TOP_GLOB.search(text):
            # `use super::*;` at the top of the module's file binds (privately)
            # every name of the parent: rustdoc does not list private imports,
            # so the oracle cannot say the name is not there
            return False
    return True


TOP_GLOB = re.compile(r"^(?:pub(?:\([^)]*\))?\s+)?use\s[^;]*\*", re.M)


# ---------------------------------------------------------------- main


def main() -> int:
    pkgs = common.load_packages("packages-rust.toml")
    score = common.Score("rust")
    n_real = int(os.environ.get("REAL", "350"))
    n_inv = int(os.environ.get("INVENTED", "350"))
    details = {}
    for pkg in pkgs:
        label = f"{pkg['name']} {pkg['version']}"
        try:
            _, root = crate_paths(pkg)
        except Exception as exc:  # noqa: BLE001 - a fetch failure skips the crate
            score.skip(label, f"fetch: {exc}")
            continue
        path, why = rustdoc_json(pkg, root)
        if os.environ.get("DOC_ONLY"):
            print(f"{label}: {'ok' if path else why[-200:]}", flush=True)
            continue
        if path is None:
            score.skip(label, why.strip().splitlines()[-1][:120] if why.strip() else "rustdoc failed")
            continue
        doc = json.loads(path.read_text())
        if doc.get("format_version") != FORMAT_VERSION:
            print(f"# {label}: rustdoc JSON format {doc.get('format_version')}, read as {FORMAT_VERSION}", file=sys.stderr)
        target = lib_target(root)
        krate = target["name"].replace("-", "_")
        lib_src = Path(target["src_path"])
        o = Oracle(doc, root, krate)
        lib_rel = lib_files(root, lib_src)
        covered = o.covered_files()
        in_lib = covered & set(lib_rel)
        missing = [f for f in lib_rel if f not in covered]
        coverage = f"{len(in_lib)}/{len(lib_rel)} files"
        if not in_lib:
            score.skip(label, f"the index covers no file ({coverage})")
            continue
        rng = random.Random(pkg["name"])
        refs, stats = references(o, root, lib_rel, covered, rng, n_real, n_inv)
        ps = score.package(label, coverage)
        results = common.resolve(root, refs)
        for ref in refs:
            res = results.get(ref.text) or {}
            score.add(ps, ref, res)
            ps.results[-1]["location"] = res.get("location")
            ps.results[-1]["reason"] = (res.get("reason") or "")[:200]
            if ps.unsafe and ps.unsafe[-1][0] is ref:
                ps.results[-1]["suspect"] = suspect(o, root, ref, res)
        details[label] = stats | {
            "uncovered files": missing,
            "skipped members": dict(o.skipped),
            "format_version": doc.get("format_version"),
        }
    score.report(common.cache_dir("rust") / "results-rust.json")
    skipped: collections.Counter = collections.Counter()
    for info in details.values():
        skipped.update(info["skipped members"])
    print("\nnot cited (the oracle's members probity need not see, or planners do not write):")
    for why, n in skipped.most_common():
        print(f"{n:>8}  {why}")
    (common.cache_dir("rust") / "oracle-rust.json").write_text(json.dumps(details, indent=1))
    forms_table(score)
    causes: collections.Counter = collections.Counter()
    examples: dict = collections.defaultdict(list)
    for p in score.packages:
        for r in p.results:
            if "suspect" in r:
                causes[r["suspect"]] += 1
                if len(examples[r["suspect"]]) < 3:
                    examples[r["suspect"]].append(f"{p.name}: {r['ref']} -> {r['verdict']}")
    print(f"\nunsafe verdicts by suspected cause ({sum(causes.values())}):")
    for cause, n in causes.most_common():
        print(f"{n:>6}  {cause}   e.g. {'; '.join(examples[cause])}")
    return 0


def forms_table(score: common.Score) -> None:
    """Verdicts per reference form over the family (where the classes live)."""
    tally: dict = collections.defaultdict(collections.Counter)
    for p in score.packages:
        for r in p.results:
            tally[(r["truth"], r["form"])][r["verdict"]] += 1
    print(f"\n{'truth':<9} {'form':<40} {'n':>6} {'right':>7} {'unc':>7} {'unsafe':>6}")
    for (truth, form), c in sorted(tally.items()):
        n = sum(c.values())
        right = c["MISSING"] if truth == INVENTED else c["VERIFIED"] + c["AMBIGUOUS"]
        unc = c["UNCHECKABLE"]
        print(f"{truth:<9} {form:<40} {n:>6} {common.pct(right, n):>7} {common.pct(unc, n):>7} {n - right - unc:>6}")


if __name__ == "__main__":
    sys.exit(main())
