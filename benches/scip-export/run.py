#!/usr/bin/env python3
"""`probity index --scip` on real code (issue 26 §4): for each root, export the declarations as
SCIP, read the file back with an independent decoder (benches/drift-oracle/scip.py: a protobuf
wire reader written from scip.proto, not the `scip` crate the tests use), and check it against
`probity index --json` of the same root: one document per file, one definition occurrence per
declaration that declares a symbol, every symbol string parseable, each occurrence's range
holding the name in the file's bytes. Prints per root: files, symbols, problems, and the time
and peak memory of the export against the JSON index.

Usage: benches/scip-export/run.py [--probity BIN] ROOT...
(roots: e.g. the drift-accuracy packages' cache, a CPython lib folder, ~/.cargo/registry/src).
Exit 1 when any problem is found.
"""
import argparse, json, os, subprocess, sys, tempfile, time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "drift-oracle"))
import scip  # noqa: E402

NO_SYMBOL = {"import", "cli_flag", "impl"}
GENERATED = 16  # SymbolRole.Generated: a name not written at its place (derives, macros)


def timed(cmd):
    t0 = time.time()
    r = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", *cmd], capture_output=True, text=True)
    wall = time.time() - t0
    u, s, kb = r.stderr.strip().splitlines()[-1].split()
    return r, wall, float(u) + float(s), int(kb) // 1024


def check(probity, root):
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "index.scip"
        rj, wj, cj, mj = timed([probity, "index", "--no-cache", "--json", "--root", str(root)])
        rs, ws, cs, ms = timed([probity, "index", "--no-cache", "--json", "--root", str(root), "--scip", str(out)])
        if rs.returncode != 0:
            return None, [f"export failed: {rs.stdout[:300]}"]
        files = json.loads(rj.stdout)["data"]["files"]
        idx = scip.read_index(out)
        docs = {d.relative_path: d for d in idx.documents}
        if len(docs) != len(files):
            problems.append(f"{len(docs)} documents for {len(files)} files")
        n_sym = gen = 0
        for f in files:
            d = docs.get(f["path"])
            if d is None:
                problems.append(f"{f['path']}: no document")
                continue
            want = [x for x in f["decls"] if x["kind"] not in NO_SYMBOL]
            occ = [o for o in d.occurrences if o.roles & scip.DEFINITION]
            if len(occ) != len(want):
                problems.append(f"{f['path']}: {len(occ)} definitions for {len(want)} declarations")
            n_sym += len(d.symbols)
            try:
                lines = (Path(root) / f["path"]).read_bytes().split(b"\n")
            except OSError as e:
                problems.append(f"{f['path']}: {e}")
                continue
            names = {s.symbol: s.display_name for s in d.symbols}
            for o in occ:
                try:
                    scip.parse_symbol(o.symbol)
                except Exception as e:  # the decoder's own grammar check
                    problems.append(f"{f['path']}: symbol {o.symbol!r}: {e}")
                line, start, end = o.range[0], o.range[1], o.range[3]
                got = lines[line][start:end] if line < len(lines) else b""
                if o.roles & GENERATED:
                    gen += 1
                    if start != end:
                        problems.append(f"{f['path']}:{line + 1}: generated with a range {got!r}")
                elif got != names.get(o.symbol, "").encode():
                    problems.append(f"{f['path']}:{line + 1}: range holds {got!r}, symbol {o.symbol!r}")
    row = dict(files=len(files), symbols=n_sym, generated=gen, json=(wj, cj, mj), scip=(ws, cs, ms))
    return row, problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--probity", default="target/release/probity")
    ap.add_argument("roots", nargs="+")
    a = ap.parse_args()
    bad = 0
    print("| root | files | symbols | generated | problems | index --json wall/CPU s, MB | --scip wall/CPU s, MB |")
    print("|---|---|---|---|---|---|---|")
    for root in a.roots:
        row, problems = check(a.probity, root)
        bad += len(problems)
        if row is None:
            print(f"| {root} | - | - | - | {len(problems)} | - | - |")
        else:
            j, s = row["json"], row["scip"]
            print(f"| {root} | {row['files']} | {row['symbols']} | {row['generated']} | {len(problems)} | "
                  f"{j[0]:.2f} / {j[1]:.2f}, {j[2]} | {s[0]:.2f} / {s[1]:.2f}, {s[2]} |")
        for p in problems[:20]:
            print(f"    {p}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
