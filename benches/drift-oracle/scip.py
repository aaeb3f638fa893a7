"""Read a SCIP index (https://github.com/sourcegraph/scip, `scip.proto`).

A small protobuf wire decoder (nothing generated, nothing vendored): the index
is a message `Index { 1 metadata, 2 documents, 3 external_symbols }`, a
`Document { 1 relative_path, 2 occurrences, 3 symbols, 4 language }`, an
`Occurrence { 1 range (packed int32), 2 symbol, 3 symbol_roles }`, a
`SymbolInformation { 1 symbol, 3 documentation, 4 relationships, 5 kind,
6 display_name, 8 enclosing_symbol }`, a `Relationship { 1 symbol,
2 is_reference, 3 is_implementation, 4 is_type_definition, 5 is_definition }`.

Symbol strings follow the grammar of scip.proto:
`<scheme> ' ' <manager> ' ' <package-name> ' ' <version> ' ' <descriptor>+`
(a space inside a field is written twice), or `local <id>`. Descriptors:
namespace `name/`, type `name#`, term `name.`, meta `name:`, macro `name!`,
method `name(disambiguator).`, type parameter `[name]`, parameter `(name)`;
a name is `[A-Za-z0-9_+$-]+` or back-quoted with doubled back-quotes.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter, defaultdict
from pathlib import Path

import common

DEFINITION = 1  # SymbolRole.Definition
IMPORT = 2

NAMESPACE, TYPE, TERM, METHOD, TYPE_PARAMETER, PARAMETER, META, MACRO = (
    "namespace",
    "type",
    "term",
    "method",
    "type_parameter",
    "parameter",
    "meta",
    "macro",
)


# --- protobuf wire format ---------------------------------------------------


def _varint(buf: bytes, i: int) -> tuple[int, int]:
    shift = 0
    val = 0
    while True:
        b = buf[i]
        i += 1
        val |= (b & 0x7F) << shift
        if b < 0x80:
            return val, i
        shift += 7


def fields(buf: bytes):
    """Yield (field number, wire type, value) of one message; a
    length-delimited value is a memoryview-free bytes slice."""
    i = 0
    n = len(buf)
    while i < n:
        key, i = _varint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            val, i = _varint(buf, i)
        elif wt == 2:
            ln, i = _varint(buf, i)
            val = buf[i : i + ln]
            i += ln
        elif wt == 1:
            val = buf[i : i + 8]
            i += 8
        elif wt == 5:
            val = buf[i : i + 4]
            i += 4
        else:
            raise ValueError(f"SCIP: unsupported wire type {wt} at byte {i}")
        yield num, wt, val


def _packed(val, wt) -> list[int]:
    if wt == 0:
        return [val]
    out = []
    i = 0
    while i < len(val):
        v, i = _varint(val, i)
        out.append(v)
    return out


# --- the messages -----------------------------------------------------------


@dataclasses.dataclass
class Relationship:
    symbol: str
    is_reference: bool = False
    is_implementation: bool = False
    is_type_definition: bool = False
    is_definition: bool = False


@dataclasses.dataclass
class SymbolInfo:
    symbol: str = ""
    kind: int = 0
    display_name: str = ""
    enclosing_symbol: str = ""
    relationships: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Occurrence:
    symbol: str
    roles: int
    range: tuple  # (start line, start col, end line, end col), 0-based

    @property
    def is_definition(self) -> bool:
        return bool(self.roles & DEFINITION)


@dataclasses.dataclass
class Document:
    relative_path: str
    language: str = ""
    occurrences: list = dataclasses.field(default_factory=list)
    symbols: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Index:
    project_root: str = ""
    tool: str = ""
    documents: list = dataclasses.field(default_factory=list)
    external_symbols: list = dataclasses.field(default_factory=list)


def _str(b: bytes) -> str:
    return bytes(b).decode("utf-8", errors="surrogateescape")


def _relationship(buf: bytes) -> Relationship:
    r = Relationship(symbol="")
    for num, _wt, val in fields(buf):
        if num == 1:
            r.symbol = _str(val)
        elif num == 2:
            r.is_reference = bool(val)
        elif num == 3:
            r.is_implementation = bool(val)
        elif num == 4:
            r.is_type_definition = bool(val)
        elif num == 5:
            r.is_definition = bool(val)
    return r


def _symbol_info(buf: bytes) -> SymbolInfo:
    s = SymbolInfo()
    for num, _wt, val in fields(buf):
        if num == 1:
            s.symbol = _str(val)
        elif num == 4:
            s.relationships.append(_relationship(val))
        elif num == 5:
            s.kind = val
        elif num == 6:
            s.display_name = _str(val)
        elif num == 8:
            s.enclosing_symbol = _str(val)
    return s


def _occurrence(buf: bytes) -> Occurrence:
    rng: list[int] = []
    sym = ""
    roles = 0
    for num, wt, val in fields(buf):
        if num == 1:
            rng.extend(_packed(val, wt))
        elif num == 2:
            sym = _str(val)
        elif num == 3:
            roles = val
    if len(rng) == 3:  # one-line range: start line, start col, end col
        rng = [rng[0], rng[1], rng[0], rng[2]]
    return Occurrence(symbol=sym, roles=roles, range=tuple(rng))


def _document(buf: bytes) -> Document:
    d = Document(relative_path="")
    for num, _wt, val in fields(buf):
        if num == 1:
            d.relative_path = _str(val)
        elif num == 2:
            d.occurrences.append(_occurrence(val))
        elif num == 3:
            d.symbols.append(_symbol_info(val))
        elif num == 4:
            d.language = _str(val)
    return d


def read_index(path: Path) -> Index:
    buf = Path(path).read_bytes()
    idx = Index()
    for num, _wt, val in fields(buf):
        if num == 1:
            for mnum, _mwt, mval in fields(val):
                if mnum == 3:
                    idx.project_root = _str(mval)
                elif mnum == 2:
                    for tnum, _twt, tval in fields(mval):
                        if tnum == 1:
                            idx.tool = _str(tval)
        elif num == 2:
            idx.documents.append(_document(val))
        elif num == 3:
            idx.external_symbols.append(_symbol_info(val))
    return idx


# --- symbol strings ---------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Descriptor:
    name: str
    suffix: str  # NAMESPACE, TYPE, TERM, METHOD, ...
    disambiguator: str = ""


@dataclasses.dataclass(frozen=True)
class Symbol:
    scheme: str
    manager: str
    package: str
    version: str
    descriptors: tuple  # of Descriptor
    local: str = ""  # the id of a `local N` symbol (then nothing else is set)

    @property
    def is_local(self) -> bool:
        return bool(self.local)

    @property
    def last(self) -> Descriptor | None:
        return self.descriptors[-1] if self.descriptors else None


def _space_field(s: str, i: int) -> tuple[str, int]:
    """A space-terminated field (`  ` is an escaped space)."""
    out = []
    while i < len(s):
        if s[i] == " ":
            if i + 1 < len(s) and s[i + 1] == " ":
                out.append(" ")
                i += 2
                continue
            return "".join(out), i + 1
        out.append(s[i])
        i += 1
    return "".join(out), i


def _ident_char(c: str) -> bool:
    return c.isalnum() or c in "_+-$"


def _name(s: str, i: int) -> tuple[str, int]:
    if i < len(s) and s[i] == "`":
        out = []
        i += 1
        while i < len(s):
            if s[i] == "`":
                if i + 1 < len(s) and s[i + 1] == "`":
                    out.append("`")
                    i += 2
                    continue
                return "".join(out), i + 1
            out.append(s[i])
            i += 1
        raise ValueError(f"SCIP symbol: unterminated name in {s!r}")
    j = i
    while j < len(s) and _ident_char(s[j]):
        j += 1
    return s[i:j], j


def parse_descriptors(s: str) -> tuple:
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "[":
            name, i = _name(s, i + 1)
            if i >= len(s) or s[i] != "]":
                raise ValueError(f"SCIP symbol: bad type parameter in {s!r}")
            out.append(Descriptor(name, TYPE_PARAMETER))
            i += 1
            continue
        if c == "(":
            name, i = _name(s, i + 1)
            if i >= len(s) or s[i] != ")":
                raise ValueError(f"SCIP symbol: bad parameter in {s!r}")
            out.append(Descriptor(name, PARAMETER))
            i += 1
            continue
        name, i = _name(s, i)
        if i >= len(s):
            raise ValueError(f"SCIP symbol: descriptor without suffix in {s!r}")
        c = s[i]
        if c == "/":
            out.append(Descriptor(name, NAMESPACE))
            i += 1
        elif c == "#":
            out.append(Descriptor(name, TYPE))
            i += 1
        elif c == ".":
            out.append(Descriptor(name, TERM))
            i += 1
        elif c == ":":
            out.append(Descriptor(name, META))
            i += 1
        elif c == "!":
            out.append(Descriptor(name, MACRO))
            i += 1
        elif c == "(":
            j = s.find(")", i)
            if j < 0 or j + 1 >= len(s) or s[j + 1] != ".":
                raise ValueError(f"SCIP symbol: bad method in {s!r}")
            out.append(Descriptor(name, METHOD, s[i + 1 : j]))
            i = j + 2
        else:
            raise ValueError(f"SCIP symbol: unexpected {c!r} at {i} in {s!r}")
    return tuple(out)


_CACHE: dict[str, Symbol] = {}


def parse_symbol(s: str) -> Symbol:
    """Parse a SCIP symbol string (memoised)."""
    hit = _CACHE.get(s)
    if hit is not None:
        return hit
    if s.startswith("local "):
        sym = Symbol("", "", "", "", (), local=s[6:] or "?")
    else:
        scheme, i = _space_field(s, 0)
        manager, i = _space_field(s, i)
        package, i = _space_field(s, i)
        version, i = _space_field(s, i)
        sym = Symbol(scheme, manager, package, version, parse_descriptors(s[i:]))
    _CACHE[s] = sym
    return sym


# --- the oracle: definitions -> cited references ----------------------------


JS, PY = "js", "py"

# Members every JS object or function has, and Python's object/type ones: a
# "class lacks it" invention must not be one of them.
UNIVERSAL_JS = {
    "constructor", "prototype", "name", "length", "call", "apply", "bind", "toString",
    "toLocaleString", "valueOf", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable",
    "caller", "arguments", "__proto__", "then",
}
JS_EXT = re.compile(r"\.(d\.ts|tsx|ts|mts|cts|jsx|js|mjs|cjs)$")
IDENT = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
PY_DECORATORS_OK = {"dataclass", "dataclasses.dataclass", "total_ordering", "functools.total_ordering", "final",
                    "typing.final"}


@dataclasses.dataclass
class Def:
    file: str  # the document's relative path
    decl: tuple  # (name, suffix) pairs below the file/module
    symbol: str
    line: int  # 0-based line of the definition occurrence


def py_module(rel: str, root: Path) -> str | None:
    """The dotted import name of a Python file: up through the folders that
    hold an `__init__.py` (so `src/tomli/_parser.py` is `tomli._parser`,
    `src/flask/sansio/app.py` is `flask.sansio.app`)."""
    parts = rel[:-3].split("/")
    dirs = parts[:-1]
    i = len(dirs)

    def init(k: int) -> bool:
        return k > 0 and (root / "/".join(dirs[:k]) / "__init__.py").exists()

    # a folder with `__init__.py`, or one without inside such a folder (a
    # namespace subpackage: `flask/sansio/` is `flask.sansio`)
    while i > 0 and (init(i) or init(i - 1)):
        i -= 1
    mod = parts[i:]
    if mod and mod[-1] == "__init__":
        mod = mod[:-1]
    if not mod or not all(IDENT.match(p) for p in mod):
        return None
    return ".".join(mod)


class Oracle:
    """The package's declarations as the index shows them, and the references
    made from them."""

    def __init__(self, root: Path, files: list[str], family: str):
        self.root = root
        self.family = family
        self.files = files
        self.covered: list[str] = []
        self.coverage = ""
        self.defs: list[Def] = []
        self.info: dict[str, SymbolInfo] = {}
        self.package = ""
        self.names: set[str] = set()  # every descriptor name of the index
        self.text: dict[str, str] = {}
        self.uses: list = []  # (file, symbol, range) of the non-definition occurrences
        self._ranges: dict = {}

    @classmethod
    def from_index(cls, idx: Index, root: Path, files: list[str], family: str) -> "Oracle":
        o = cls(root, files, family)
        docs = {d.relative_path: d for d in idx.documents}
        o.covered = [f for f in files if f in docs]
        o.coverage = f"{len(o.covered)}/{len(files)} files"
        if len(o.covered) < len(files):
            o.coverage += " (partial: generation restricted to covered files)"
        pkgs: Counter = Counter()
        for f in o.covered:
            d = docs[f]
            for s in d.symbols:
                o.info[s.symbol] = s
            for occ in d.occurrences:
                if not occ.symbol or occ.symbol.startswith("local "):
                    continue
                try:
                    sym = parse_symbol(occ.symbol)
                except ValueError:
                    continue
                for desc in sym.descriptors:
                    o.names.update(desc.name.split("."))
                if not occ.is_definition:
                    if occ.range:
                        o.uses.append((f, occ.symbol, occ.range))
                    continue
                decl = o._decl(sym, f)
                if decl is None:
                    continue
                pkgs[sym.package] += 1
                o.defs.append(Def(f, decl, occ.symbol, occ.range[0] if occ.range else 0))
                if occ.range:
                    o._ranges[(f, occ.symbol, occ.range[0])] = occ.range
        o.package = pkgs.most_common(1)[0][0] if pkgs else ""
        for f in files:
            try:
                o.text[f] = (root / f).read_text(errors="replace")
            except OSError:
                o.text[f] = ""
        # the definition's range must spell its name: scip-python files an
        # `import X as Y` alias as a definition of `Y` at `X`'s class header
        o.defs = [d for d in o.defs if o._spelled(d)]
        if family == PY:
            o.defs = [d for d in o.defs if o._py_true_def(d)]
        return o

    def _spelled(self, d: "Def") -> bool:
        rng = self._ranges.get((d.file, d.symbol, d.line))
        if not rng or rng[0] != rng[2]:
            return True  # a multi-line range: nothing to compare
        lines = self.text.get(d.file, "").split("\n")
        line = lines[rng[0]] if rng[0] < len(lines) else ""
        return line[rng[1] : rng[3]] == d.decl[-1][0]

    def _py_true_def(self, d: Def) -> bool:
        """scip-python names a function nested in a method as a member of the
        class (`C#m().` for a `def m` inside `C.f`), and a module-level
        `except E as e` as a module variable (Python unbinds it after the
        handler): neither is a declaration of the module or the class."""
        lines = self.text.get(d.file, "").split("\n")
        line = lines[d.line] if d.line < len(lines) else ""
        if len(d.decl) == 1:
            return not re.match(r"\s*except\b.*\bas\s+\w+\s*:", line)
        if len(d.decl) == 2 and d.decl[0][1] == TYPE and re.match(r"\s*(async\s+)?def\s", line):
            k = d.line - 1
            while k >= 0 and not re.match(rf"\s*class\s+{re.escape(d.decl[0][0])}\b", lines[k]):
                k -= 1
            if k < 0:
                return False
            j = k + 1
            # the class body's indentation: its first line below the header
            while j < len(lines) and (not lines[j].strip() or lines[j].lstrip().startswith("#")
                                      or not lines[k].rstrip().endswith(":") and j == k + 1):
                j += 1
            body = len(lines[j]) - len(lines[j].lstrip()) if j < len(lines) else 0
            return len(line) - len(line.lstrip()) == body
        return True

    def _decl(self, sym: Symbol, doc: str) -> tuple | None:
        descs = list(sym.descriptors)
        if self.family == JS:
            k = next((i for i, d in enumerate(descs) if JS_EXT.search(d.name)), None)
            path = "/".join(d.name for d in descs[: k + 1]) if k is not None else None
            # scip-typescript writes the path from the nearest package.json
            # (`src/package.json` makes `src/x.js` the symbol path `x.js`)
            if path is None or (path != doc and not doc.endswith("/" + path)):
                return None
            rest = descs[k + 1 :]
        else:
            if not descs or descs[0].suffix != NAMESPACE:
                return None
            rest = descs[1:]
        out = []
        for d in rest:
            if d.suffix not in (TYPE, TERM, METHOD):
                return None
            name = d.name
            if name.startswith("<get>") or name.startswith("<set>"):
                name = name[5:]
            if not IDENT.match(name):
                return None
            out.append((name, d.suffix))
        return tuple(out) if out else None

    # -- facts -----------------------------------------------------------

    def line(self, d: Def) -> str:
        lines = self.text.get(d.file, "").split("\n")
        return lines[d.line] if d.line < len(lines) else ""

    def build(self) -> None:
        """Containers (by name) with their members, bases and openness."""
        self.members: dict[str, set] = defaultdict(set)
        self.container_kind: dict[str, set] = defaultdict(set)
        self.bases: dict[str, set] = defaultdict(set)
        self.open: set[str] = set()
        self.top: dict[str, list] = defaultdict(list)  # file -> top-level Defs
        self.top_names: Counter = Counter()
        self.container_files: dict[str, set] = defaultdict(set)
        for d in self.defs:
            if len(d.decl) == 1:
                self.top[d.file].append(d)
                self.top_names[d.decl[0][0]] += 1
            if len(d.decl) >= 2:
                self.members[d.decl[-2][0]].add(d.decl[-1][0])
            name, suffix = d.decl[-1]
            if suffix in (TYPE, TERM):
                self.container_kind[name].add(suffix)
                self.container_files[name].add(d.file)
            if suffix == TYPE:
                self._bases(name, d)

    def _bases(self, name: str, d: Def) -> None:
        info = self.info.get(d.symbol)
        internal = set()
        for r in info.relationships if info else []:
            if not r.is_implementation:
                continue
            try:
                rs = parse_symbol(r.symbol)
            except ValueError:
                self.open.add(name)
                continue
            if rs.package != self.package or not rs.descriptors:
                self.open.add(name)
                continue
            internal.add(rs.descriptors[-1].name)
        self.bases[name] |= internal
        line = self.line(d)
        if self.family == JS:
            m = re.search(r"\bextends\s+([A-Za-z0-9_$.]+)", line)
            if m and m.group(1).split(".")[-1] not in internal:
                self.open.add(name)
            if "extends" in line and m is None:
                self.open.add(name)
            if re.search(r"\bclass\b", line) is None and re.search(r"\b(interface|enum|type)\b", line) is None:
                self.open.add(name)  # not a class header we can read (a function, an expression)
        else:
            m = re.match(r"\s*class\s+\w+\s*(\((.*))?", line)
            if m is None:
                self.open.add(name)
            elif m.group(2) is not None:
                inner = m.group(2)
                if ")" not in inner or "metaclass" in inner or "*" in inner:
                    self.open.add(name)
                else:
                    for b in inner.split(")")[0].split(","):
                        b = b.strip()
                        if b and b.split(".")[-1].split("[")[0] not in internal and b != "object":
                            self.open.add(name)
            lines = self.text.get(d.file, "").split("\n")
            k = d.line - 1
            while k >= 0 and lines[k].lstrip().startswith("@"):
                deco = lines[k].strip()[1:].split("(")[0]
                if deco not in PY_DECORATORS_OK:
                    self.open.add(name)
                k -= 1

    def all_members(self, name: str, seen=None) -> set:
        seen = seen or set()
        if name in seen:
            return set()
        seen.add(name)
        out = set(self.members.get(name, ()))
        for b in self.bases.get(name, ()):
            out |= self.all_members(b, seen)
        return out

    def closure_files(self, name: str, seen=None) -> set:
        seen = seen if seen is not None else set()
        if name in seen:
            return set()
        seen.add(name)
        out = set(self.container_files.get(name, ()))
        for b in self.bases.get(name, ()):
            out |= self.closure_files(b, seen)
        return out

    def closed(self, name: str, seen=None) -> bool:
        """Whether every member of the container named `name` is in the index:
        no base outside the package (through its bases), a class header read."""
        seen = seen or set()
        if name in seen:
            return True
        seen.add(name)
        if name in self.open or name not in self.container_kind:
            return False
        if self.container_kind[name] != {TYPE}:
            return False  # also a value or namespace: members may be assigned
        if "__getattr__" in self.members.get(name, ()) or "__getattribute__" in self.members.get(name, ()):
            return False
        return all(self.closed(b, seen) for b in self.bases.get(name, ()))

    # -- references --------------------------------------------------------

    def references(self, pkg_name: str, per_pkg: int) -> list:
        self.build()
        rng = random.Random(pkg_name)
        words = common.source_words([self.root / f for f in self.text]) | self.names
        for p in self.root.rglob("*"):
            words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", p.name))
        js = self.family == JS
        forms: dict[str, list] = defaultdict(list)
        R, I = common.REAL, common.INVENTED
        alltext = "\n".join(self.text.values())

        def add(form, text, truth, why):
            forms[form].append(common.Ref(text=text, truth=truth, form=form, why=why))

        modname = {}
        for f in self.covered:
            if js:
                modname[f] = "./" + JS_EXT.sub("", f)
            else:
                m = py_module(f, self.root)
                if m:
                    modname[f] = m

        # real: members of top-level containers
        member_defs = [d for d in self.defs if len(d.decl) == 2 and d.decl[0][1] in (TYPE, TERM)]
        containers = sorted({d.decl[0][0] for d in member_defs if d.decl[0][1] == TYPE})
        for d in member_defs:
            (c, cs), (m, ms) = d.decl
            if m in ("constructor",) or (not js and m.startswith("__") and m.endswith("__")):
                continue
            if not js and cs == TERM:
                continue  # scip-python's `X.X.` for a module variable: no member
            kind = "Type" if cs == TYPE else "value"
            if js and cs == TYPE:
                hdr = self.line(Def(d.file, d.decl[:1], "", self._line_of(d.file, c)))
                for kw in ("enum", "interface", "class", "type"):
                    if re.search(rf"\b{kw}\b", hdr):
                        kind = {"enum": "Enum", "interface": "Interface", "class": "Class", "type": "TypeAlias"}[kw]
                        break
            elif cs == TYPE:
                kind = "Class"
            suffix = "method" if ms == METHOD else "attr"
            if kind == "Enum":
                suffix = "member"
            add(f"{kind}.{suffix}", f"{c}.{m}", R, d.symbol)
            if not js and d.file in modname:
                add("module.Class.member", f"{modname[d.file]}.{c}.{m}", R, d.symbol)

        # real: files, top-level names, module paths
        for f in self.covered:
            add("file path", f, R, "document")
            for d in self.top[f]:
                n, s = d.decl[0]
                if self.is_import(d):
                    # an import is no declaration a plan cites, unless the
                    # module re-exports it (`const gte = require(...)` +
                    # `module.exports = { gte }`)
                    if js and f in modname and self._cjs_exports(f, n):
                        add("re-exported name", f"{modname[f]}.{n}", R, d.symbol)
                    continue
                add("path:name", f"{f}:{n}", R, d.symbol)
                if s in (TYPE, METHOD) or (not js and s == TERM and n.isupper()):
                    add("bare name", n, R, d.symbol)
                if f in modname:
                    if js and not (re.match(r"\s*export\s+(?!default)", self.line(d)) or self._cjs_exports(f, n)):
                        continue
                    add("module.name", f"{modname[f]}.{n}", R, d.symbol)

        if js:
            self._es_reexports(modname, add)
            self._cjs_assigned(modname, add, words, rng)
        else:
            self._py_reexports(modname, add)
        real_texts = {r.text for rs in forms.values() for r in rs}
        # JS modules that export names (not a single `module.exports = value`,
        # whose members nobody can decide): the only ones cited as `./mod.name`
        exporting = {r.text.rsplit(".", 1)[0] for form in ("module.name", "re-exported name") for r in forms[form]}

        def invented_ok(text, new_name):
            return new_name not in words and text not in real_texts

        # invented: near misses
        for d in member_defs:
            (c, cs), (m, ms) = d.decl
            if cs != TYPE or not self.closed(c):
                continue
            nm = common.near_miss(m, words, rng)
            if nm and invented_ok(f"{c}.{nm}", nm):
                add("near miss member", f"{c}.{nm}", I, f"{c}.{m}")
        for f in self.covered:
            for d in self.top[f]:
                n, s = d.decl[0]
                nm = common.near_miss(n, words, rng)
                if not nm or not invented_ok(nm, nm):
                    continue
                if s in (TYPE, METHOD):
                    add("near miss name", nm, I, n)
                if f in modname and (not js or modname[f] in exporting):
                    add("near miss module.name", f"{modname[f]}.{nm}", I, f"{modname[f]}.{n}")
            stem = JS_EXT.sub("", f.rsplit("/", 1)[-1]) if js else f.rsplit("/", 1)[-1][:-3]
            nm = common.near_miss(stem, words, rng) if IDENT.match(stem) else None
            if nm:
                ext = f[len(f) - (len(f.rsplit("/", 1)[-1]) - len(stem)):]
                cand = f[: len(f) - len(f.rsplit("/", 1)[-1])] + nm + ext
                if not (self.root / cand).exists() and not (self.root / cand[: -len(ext)]).exists():
                    add("near miss file path", cand, I, f)

        # invented: a real class with another class's member
        closed = [c for c in containers if self.closed(c)]
        all_m = {c: self.all_members(c) for c in containers}
        universal = UNIVERSAL_JS if js else set()
        by_file: dict[str, list] = defaultdict(list)
        for c in containers:
            for f in self.container_files[c]:
                by_file[f].append(c)

        def lacks(c, m):
            if m in all_m.get(c, ()) or m in universal or (not js and m.startswith("__")):
                return False
            if re.search(rf"\b{re.escape(c)}(\.prototype)?\.{re.escape(m)}\b", alltext):
                return False
            # the name must occur in no file of the class or of its bases:
            # members the index does not show (JS assigned ones, a Python
            # annotation-only `x: int`, attributes of a class with
            # `__slots__`, which scip-python leaves out) stay out of doubt
            for f in self.closure_files(c):
                if re.search(rf"\b{re.escape(m)}\b", self.text.get(f, "")):
                    return False
            return f"{c}.{m}" not in real_texts

        for c in closed:
            others = [o for o in containers if o != c and all_m.get(o)]
            if not others:
                continue
            for _ in range(6):
                o = rng.choice(others)
                m = rng.choice(sorted(all_m[o]))
                if lacks(c, m):
                    add("other type's member", f"{c}.{m}", I, f"{o}.{m}")
                    break
            sibs = sorted({s for f in self.container_files[c] for s in by_file[f] if s != c and all_m.get(s)})
            for _ in range(4 if sibs else 0):
                o = rng.choice(sibs)
                m = rng.choice(sorted(all_m[o]))
                if lacks(c, m):
                    add("sibling class member", f"{c}.{m}", I, f"{o}.{m}")
                    break

        # invented: a real name under a sibling module lacking it
        by_dir: dict[str, list] = defaultdict(list)
        for f in self.covered:
            if f in modname:
                by_dir[f.rsplit("/", 1)[0] if "/" in f else ""].append(f)
        for f in self.covered:
            sibs = [g for g in by_dir[f.rsplit("/", 1)[0] if "/" in f else ""] if g != f
                    and (not js or modname[g] in exporting)]
            if not sibs or not self.top[f]:
                continue
            for d in rng.sample(self.top[f], min(3, len(self.top[f]))):
                n = d.decl[0][0]
                g = rng.choice(sibs)
                # every file that is the module (x.js and x.d.ts are one module)
                same = [h for h in self.text if h in modname and modname[h] == modname[g]] or [g]
                body = "\n".join(self.text.get(h, "") for h in same)
                if re.search(rf"\b{re.escape(n)}\b", body) or self._has_submodule(g, n):
                    continue
                if re.search(r"export\s*\*|module\.exports\s*=\s*require\(|import\s*\*|__all__", body):
                    continue  # a module re-exporting another wholesale
                text = f"{modname[g]}.{n}"
                if text in real_texts:
                    continue
                add("wrong module", text, I, f"{modname[f]}.{n}")
                add("wrong module path:name", f"{g}:{n}", I, f"{f}:{n}")

        cap = max(20, per_pkg // max(1, len(forms)))
        out = []
        seen = set()
        for form in sorted(forms):
            for r in common.sample_refs(forms[form], cap, rng):
                if r.text not in seen:
                    seen.add(r.text)
                    out.append(r)
        return out

    def is_import(self, d: Def) -> bool:
        """Whether the definition is a name bound by an import statement."""
        line = self.line(d)
        if re.match(r"\s*(const|let|var)\s+[\w${}, :]+=\s*(/\*.*?\*/\s*)?require\(", line):
            return True
        if re.match(r"\s*(from\s+\S+\s+)?import\b", line):
            return True
        lines = self.text.get(d.file, "").split("\n")
        k = d.line - 1
        while k >= 0 and d.line - k < 60:
            t = lines[k]
            if ")" in t or "}" in t or ";" in t:
                return False
            if re.match(r"\s*(from\s+\S+\s+)?import\b", t) or re.match(r"\s*export\s*\{", t):
                return True
            if t.strip() and not re.match(r"^\s*[\w$]+(\s+as\s+[\w$]+)?\s*,?\s*(#.*)?$", t):
                return False
            k -= 1
        return False

    def _es_reexports(self, modname: dict, add) -> None:
        """Names a module re-exports, as the index shows them: in
        `export { x } from './y'` (or `export { x }` of an import) the
        occurrence of `x` is y's top-level symbol; `export * from './y'`
        names y's module, whose exported top-level names it passes on."""
        exported: dict[str, list] = defaultdict(list)
        for g, defs in self.top.items():
            for d in defs:
                if re.match(r"\s*export\s+(?!default)", self.line(d)) and not self.is_import(d):
                    exported[g].append(d)
        by_symbol = {d.symbol: d for defs in self.top.values() for d in defs}
        for f, symbol, rng in self.uses:
            if f not in modname:
                continue
            lines = self.text.get(f, "").split("\n")
            line = lines[rng[0]] if rng[0] < len(lines) else ""
            if re.match(r"\s*export\s*\*\s*from\b", line):
                try:
                    sym = parse_symbol(symbol)
                except ValueError:
                    continue
                if sym.package != self.package or not sym.descriptors or not JS_EXT.search(sym.descriptors[-1].name):
                    continue
                path = "/".join(d.name for d in sym.descriptors)
                g = next((h for h in self.covered if h == path or h.endswith("/" + path)), None)
                for d in exported.get(g, ()):
                    add("re-exported name", f"{modname[f]}.{d.decl[0][0]}", common.REAL, f"export * from {g}")
                continue
            d = by_symbol.get(symbol)
            if d is None or d.file == f or " as " in line:
                continue
            name = d.decl[0][0]
            if line[rng[1] : rng[3]] != name:
                continue
            if re.match(r"\s*export\s*(type\s*)?\{", line) or self._in_export_block(lines, rng[0]):
                add("re-exported name", f"{modname[f]}.{name}", common.REAL, f"export {{ {name} }} of {d.file}")

    def _py_reexports(self, modname: dict, add) -> None:
        """Names a Python package binds by importing them from another module
        of the package (`from .core import Command` in `click/__init__.py`):
        the occurrence in the import carries the defining module's symbol.
        Cited as `click.Command`, as planners do."""
        by_symbol = {d.symbol: d for defs in self.top.values() for d in defs}
        for f, symbol, rng in self.uses:
            if f not in modname or not f.endswith("__init__.py"):
                continue  # a package's re-exports, the form plans cite
            d = by_symbol.get(symbol)
            if d is None or d.file == f or d.decl[0][1] not in (TYPE, METHOD):
                continue
            name = d.decl[0][0]
            lines = self.text.get(f, "").split("\n")
            line = lines[rng[0]] if rng[0] < len(lines) else ""
            n = re.escape(name)
            spelled = line[rng[1] : rng[3]]
            if not re.fullmatch(rf"{n}(\s+as\s+{n})?", spelled) or re.search(rf"\b{n}\s+as\s+(?!{n}\b)", line):
                continue  # `X as X` (the explicit re-export) is the same name
            if not self.is_import(Def(f, (), "", rng[0])) or re.match(r"\s*import\b", line):
                continue
            if re.match(r"\s", line) and not self._in_import_parens(lines, rng[0]):
                continue  # an import inside a function or a conditional block
            add("re-exported name", f"{modname[f]}.{name}", common.REAL, f"from-import of {d.file}")

    @staticmethod
    def _in_import_parens(lines: list, k: int) -> bool:
        j = k - 1
        while j >= 0 and k - j < 200:
            t = lines[j]
            if re.match(r"from\s+\S+\s+import\s*\(", t):
                return True
            if not re.match(r"^\s+[\w]+(\s+as\s+\w+)?\s*,?\s*(#.*)?$", t):
                return False
            j -= 1
        return False

    @staticmethod
    def _in_export_block(lines: list, k: int) -> bool:
        j = k - 1
        while j >= 0 and k - j < 200:
            t = lines[j]
            if re.match(r"\s*export\s*(type\s*)?\{", t) and "}" not in t:
                return True
            if not re.match(r"^\s*(type\s+)?[\w$]+\s*,?\s*(//.*)?$", t):
                return False
            j -= 1
        return False

    def _cjs_assigned(self, modname: dict, add, words: set, rng) -> None:
        """Members assigned at the top of a CommonJS module to a top-level
        variable the index declares (`app.init = function ...` after
        `var app = exports = module.exports = {}`): scip-typescript 0.4.0
        records no definition for them, the text does. Cited as `app.init`,
        and as `./lib/application.init` when the variable is `module.exports`;
        invented: a near miss of the member under the same head."""
        for f in self.covered:
            text = self.text.get(f, "")
            for d in self.top[f]:
                x, s = d.decl[0]
                if s != TERM or self.is_import(d):
                    continue
                ex = re.escape(x)
                found = sorted(set(re.findall(rf"^{ex}\.([A-Za-z_$][\w$]*)\s*=(?!=)", text, re.M)))
                if not found:
                    continue
                is_exports = bool(
                    re.search(rf"^(var|let|const)\s+{ex}\s*=\s*(exports\s*=\s*)?module\.exports\s*=", text, re.M)
                    or re.search(rf"^module\.exports\s*=\s*{ex}\s*;?\s*$", text, re.M)
                )
                for y in found:
                    add("value.member (assigned)", f"{x}.{y}", common.REAL, f"{f}: {x}.{y} =")
                    if is_exports and f in modname:
                        add("module.name (assigned)", f"{modname[f]}.{y}", common.REAL, f"{f}: {x}.{y} = (module.exports)")
                    nm = common.near_miss(y, words, rng)
                    if nm:
                        add("near miss assigned member", f"{x}.{nm}", common.INVENTED, f"{x}.{y}")
                        if is_exports and f in modname:
                            add("near miss assigned member", f"{modname[f]}.{nm}", common.INVENTED, f"{modname[f]}.{y}")

    def _cjs_exports(self, f: str, n: str) -> bool:
        """Whether a CommonJS module exports its top-level `n` under that name:
        `exports.n = n`, `module.exports.n = ...`, or `n` in the object literal of
        `module.exports = { n, ... }` (the index has the declaration; the text
        says it is exported: scip-typescript 0.4.0 records no CommonJS export)."""
        text = self.text.get(f, "")
        if re.search(rf"^\s*(module\.)?exports\.{re.escape(n)}\s*=\s*{re.escape(n)}\s*;?\s*$", text, re.M):
            return True
        m = re.search(r"^module\.exports\s*=\s*\{([^}]*)\}", text, re.M)
        if m:
            for item in m.group(1).split(","):
                item = re.sub(r"//.*", "", item).strip()
                if item == n or re.fullmatch(rf"{re.escape(n)}\s*:\s*{re.escape(n)}", item):
                    return True
        return False

    def _line_of(self, file: str, name: str) -> int:
        for d in self.top.get(file, ()):
            if d.decl[0][0] == name:
                return d.line
        return 0

    def _has_submodule(self, f: str, n: str) -> bool:
        if not f.endswith("__init__.py"):
            return False
        base = self.root / f.rsplit("/", 1)[0] if "/" in f else self.root
        return (base / f"{n}.py").exists() or (base / n).is_dir()
