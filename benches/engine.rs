//! Engine benchmarks: one tree-sitter parse, one placement and one strip of a ~5,000-line file
//! per language (issue 2 §7: place ≤ 3x parse, strip ≤ 2x parse).
//!
//! Inputs are generated here, deterministically (a fixed-seed LCG picks among hand-written
//! function shapes), so every run and every machine measures the same bytes. Each input is
//! checked before it is measured: it parses without ERROR/MISSING nodes, the placement succeeds,
//! and stripping the placed file gives back the original bytes.
//!
//! Run: `cargo bench --bench engine`, then `python3 benches/ratios.py`. See benches/README.md.

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, criterion_group};

use probity::lang::{self, Grammar, Language};
use probity::parse;
use probity::place::{self, Anchor, Placement};
use probity::probe::ProbeIdentity;
use probity::source::Source;
use probity::strip::{self, StripPlan, Target};
use tree_sitter::Tree;

/// Lines each generated file reaches (it stops at the first function that crosses this).
const TARGET_LINES: usize = 5_000;

/// A tiny deterministic generator (Knuth's MMIX LCG); the benchmark needs variety, not quality.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One benchmark input: the file name (its extension picks the grammar), its text, the anchor
/// statement text to place before (the occurrence nearest the middle is used), and two captures.
struct Input {
    name: &'static str,
    text: String,
    anchor: &'static str,
    captures: [&'static str; 2],
}

/// Fill `@I@`, `@A@`, `@B@` of a shape with the function index and two small numbers.
fn fill(shape: &str, i: usize, rng: &mut Lcg) -> String {
    shape
        .replace("@I@", &i.to_string())
        .replace("@A@", &(rng.below(90) + 3).to_string())
        .replace("@B@", &(rng.below(900) + 10).to_string())
}

/// Header, then shapes picked at random until the file has [`TARGET_LINES`] lines.
fn generate(seed: u64, header: &str, shapes: &[&str]) -> String {
    let mut rng = Lcg(seed);
    let mut out = String::from(header);
    let mut i = 0;
    while out.lines().count() < TARGET_LINES {
        let shape = shapes[rng.below(shapes.len() as u64) as usize];
        out.push_str(&fill(shape, i, &mut rng));
        i += 1;
    }
    out
}

// --- Rust -----------------------------------------------------------------------------------

const RUST_HEADER: &str = r##"//! Generated benchmark input: inventory, accounts and text helpers.
#![allow(dead_code)]

use std::collections::HashMap;
use std::fmt;

/// One weighted item.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub name: String,
    pub weight: u32,
    pub tags: Vec<String>,
}

"##;

const RUST_SHAPES: &[&str] = &[
    r##"/// Weighted total of batch @I@; the label is "quoted" and has // no comment inside.
pub fn total_@I@(items: &[Item], factor: u32) -> u64 {
    // Start from a non-zero base so that empty batches are visible.
    let mut total: u64 = @B@;
    let label = "batch @I@: \"quoted\" // not a comment";
    for (idx, item) in items.iter().enumerate() {
        if item.weight > @A@ {
            total += u64::from(item.weight) * u64::from(factor);
        } else if idx % 2 == 0 {
            total = total.saturating_sub(@A@);
        } else {
            continue;
        }
    }
    let count = items.len();
    debug_assert!(count < usize::MAX, "{}", label);
    total + count as u64
}

"##,
    r##"fn classify_@I@(code: i32) -> &'static str {
    let bucket = code / @A@;
    /* a block comment
       over two lines */
    match bucket {
        0 => "zero",
        1 | 2 => {
            let doubled = bucket * 2;
            if doubled > 3 { "low-high" } else { "low" }
        }
        n if n < 0 => "negative",
        _ => "other",
    }
}

"##,
    r##"/// Account @I@ with a running history.
pub struct Account@I@ {
    id: u64,
    owner: String,
    balance: i64,
    history: Vec<i64>,
}

impl Account@I@ {
    pub fn new(id: u64, owner: &str) -> Self {
        Account@I@ {
            id,
            owner: owner.to_string(),
            balance: 0,
            history: Vec::new(),
        }
    }

    pub fn deposit(&mut self, amount: i64) -> Result<i64, String> {
        if amount <= 0 {
            return Err(format!("account {}: bad amount {}", self.id, amount));
        }
        self.balance += amount;
        self.history.push(amount);
        Ok(self.balance)
    }

    pub fn withdraw(&mut self, amount: i64) -> Option<i64> {
        let next = self.balance.checked_sub(amount)?;
        if next < -@B@ {
            None
        } else {
            self.balance = next;
            self.history.push(-amount);
            Some(next)
        }
    }
}

impl fmt::Display for Account@I@ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{} {} ({})", self.id, self.owner, self.balance)
    }
}

"##,
    r##"fn scan_@I@(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let words: Vec<&str> = text.split_whitespace().collect();
    let keep = |w: &str| w.len() > @A@ % 7 && !w.starts_with('#');
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if keep(w) {
            out.push(w.to_uppercase());
        }
        i += 1;
    }
    out.sort();
    out.dedup();
    out
}

"##,
    r##"mod helpers_@I@ {
    use super::Item;

    /// The heaviest item, if any.
    pub(crate) fn heaviest(items: &[Item]) -> Option<&Item> {
        let mut best: Option<&Item> = None;
        for item in items {
            match best {
                Some(b) if b.weight >= item.weight => {}
                _ => best = Some(item),
            }
        }
        best
    }

    pub(crate) fn tagged<'a>(items: &'a [Item], tag: &str) -> impl Iterator<Item = &'a Item> + 'a {
        let tag = tag.to_owned();
        items.iter().filter(move |i| i.tags.iter().any(|t| *t == tag))
    }
}

"##,
    r##"pub fn index_@I@(items: &[Item]) -> HashMap<String, Vec<u32>> {
    let mut map: HashMap<String, Vec<u32>> = HashMap::new();
    for item in items {
        for tag in &item.tags {
            map.entry(tag.clone()).or_default().push(item.weight);
        }
    }
    let limit = @B@_u32;
    map.retain(|_, ws| {
        ws.sort_unstable();
        ws.iter().sum::<u32>() < limit
    });
    if map.is_empty() {
        eprintln!("index @I@: nothing under {limit}");
    }
    map
}

"##,
];

// --- Python ---------------------------------------------------------------------------------

const PY_HEADER: &str = r##""""Generated benchmark input: inventory, accounts and text helpers."""
from __future__ import annotations

import dataclasses
import functools
from typing import Dict, Iterable, List, Optional


@dataclasses.dataclass
class Item:
    name: str
    weight: int
    tags: List[str] = dataclasses.field(default_factory=list)


"##;

const PY_SHAPES: &[&str] = &[
    r##"def total_@I@(items: List[Item], factor: int = 2) -> int:
    """Weighted total of batch @I@; "# not a comment" lives in this docstring."""
    # Start from a non-zero base so that empty batches are visible.
    total = @B@
    label = f"batch @I@: {factor!r} # not a comment"
    for idx, item in enumerate(items):
        if item.weight > @A@:
            total += item.weight * factor
        elif idx % 2 == 0:
            total = max(0, total - @A@)
        else:
            continue
    count = len(items)
    assert count >= 0, label
    return total + count


"##,
    r##"def classify_@I@(code: int) -> str:
    bucket = code // @A@
    if bucket == 0:
        return "zero"
    elif bucket in (1, 2):
        doubled = bucket * 2
        return "low-high" if doubled > 3 else "low"
    elif bucket < 0:
        return "negative"
    return "other"


"##,
    r##"class Account@I@:
    """Account @I@ with a running history."""

    overdraft = @B@

    def __init__(self, ident: int, owner: str) -> None:
        self.ident = ident
        self.owner = owner
        self.balance = 0
        self.history: List[int] = []

    def deposit(self, amount: int) -> int:
        if amount <= 0:
            raise ValueError(f"account {self.ident}: bad amount {amount}")
        self.balance += amount
        self.history.append(amount)
        return self.balance

    def withdraw(self, amount: int) -> Optional[int]:
        nxt = self.balance - amount
        if nxt < -self.overdraft:
            return None
        self.balance = nxt
        self.history.append(-amount)
        return nxt

    @property
    def summary(self) -> str:
        return "#%d %s (%d)" % (self.ident, self.owner, self.balance)


"##,
    r##"def scan_@I@(text: str) -> List[str]:
    out = []
    words = text.split()
    keep = lambda w: len(w) > @A@ % 7 and not w.startswith("#")
    i = 0
    while i < len(words):
        w = words[i]
        if keep(w):
            out.append(w.upper())
        i += 1
    out = sorted(set(out))
    return out


"##,
    r##"@functools.lru_cache(maxsize=@B@)
def fib_@I@(n: int) -> int:
    if n < 2:
        return n
    return fib_@I@(n - 1) + fib_@I@(n - 2)


async def fetch_all_@I@(sources: Iterable[str]) -> Dict[str, int]:
    results: Dict[str, int] = {}
    for src in sources:
        try:
            size = len(src)
        except TypeError as exc:  # pragma: no cover
            print("skip", exc)
            continue
        else:
            results[src] = size
        finally:
            pass
    return results


"##,
    r##"def index_@I@(items: Iterable[Item]) -> Dict[str, List[int]]:
    table: Dict[str, List[int]] = {}
    for item in items:
        for tag in item.tags:
            table.setdefault(tag, []).append(item.weight)
    limit = @B@
    table = {k: sorted(v) for k, v in table.items() if sum(v) < limit}
    with open("/dev/null", "w") as sink:
        sink.write("index @I@ # done\n")
    return table


"##,
];

// --- JavaScript -----------------------------------------------------------------------------

const JS_HEADER: &str = r##"'use strict';
// Generated benchmark input: inventory, accounts and text helpers.

const { EventEmitter } = require('events');

"##;

const JS_SHAPES: &[&str] = &[
    r##"/**
 * Weighted total of batch @I@; the label is "quoted" and has // no comment inside.
 */
function total@I@(items, factor = 2) {
  // Start from a non-zero base so that empty batches are visible.
  let total = @B@;
  const label = `batch @I@: ${factor} // not a comment`;
  for (const [idx, item] of items.entries()) {
    if (item.weight > @A@) {
      total += item.weight * factor;
    } else if (idx % 2 === 0) {
      total = Math.max(0, total - @A@);
    } else {
      continue;
    }
  }
  const count = items.length;
  console.assert(count >= 0, label);
  return total + count;
}

"##,
    r##"function classify@I@(code) {
  const bucket = Math.trunc(code / @A@);
  /* a block comment
     over two lines */
  switch (bucket) {
    case 0:
      return 'zero';
    case 1:
    case 2: {
      const doubled = bucket * 2;
      return doubled > 3 ? 'low-high' : 'low';
    }
    default:
      if (bucket < 0) {
        return 'negative';
      }
      return 'other';
  }
}

"##,
    r##"class Account@I@ extends EventEmitter {
  #history = [];

  constructor(id, owner) {
    super();
    this.id = id;
    this.owner = owner;
    this.balance = 0;
  }

  deposit(amount) {
    if (amount <= 0) {
      throw new RangeError(`account ${this.id}: bad amount ${amount}`);
    }
    this.balance += amount;
    this.#history.push(amount);
    this.emit('deposit', amount);
    return this.balance;
  }

  withdraw(amount) {
    const next = this.balance - amount;
    if (next < -@B@) {
      return null;
    }
    this.balance = next;
    this.#history.push(-amount);
    return next;
  }

  get summary() {
    return '#' + this.id + ' ' + this.owner + ' (' + this.balance + ')';
  }
}

"##,
    r##"const scan@I@ = (text) => {
  const out = [];
  const words = text.split(/\s+/);
  const keep = (w) => w.length > @A@ % 7 && !w.startsWith('#');
  let i = 0;
  while (i < words.length) {
    const w = words[i];
    if (keep(w)) {
      out.push(w.toUpperCase());
    }
    i += 1;
  }
  return [...new Set(out)].sort();
};

"##,
    r##"async function fetchAll@I@(sources) {
  const results = {};
  for (const src of sources) {
    try {
      const size = await Promise.resolve(src.length);
      results[src] = size;
    } catch (err) {
      console.error('skip', err);
      continue;
    } finally {
      results.visited = (results.visited || 0) + 1;
    }
  }
  return results;
}

function* ids@I@(start) {
  let n = start;
  while (n < start + @A@) {
    yield n++;
  }
}

"##,
    r##"function index@I@(items) {
  const table = new Map();
  for (const item of items) {
    for (const tag of item.tags) {
      if (!table.has(tag)) {
        table.set(tag, []);
      }
      table.get(tag).push(item.weight);
    }
  }
  const limit = @B@;
  const kept = {};
  table.forEach((ws, tag) => {
    const sum = ws.reduce((a, b) => a + b, 0);
    if (sum < limit) {
      kept[tag] = ws.sort((a, b) => a - b);
    }
  });
  return kept;
}

"##,
];

// --- TypeScript -----------------------------------------------------------------------------

const TS_HEADER: &str = r##"// Generated benchmark input: inventory, accounts and text helpers.
import { EventEmitter } from 'events';

export interface Item {
  name: string;
  weight: number;
  tags: string[];
}

export enum Bucket {
  Zero = 'zero',
  Low = 'low',
  High = 'low-high',
  Negative = 'negative',
  Other = 'other',
}

"##;

const TS_SHAPES: &[&str] = &[
    r##"/**
 * Weighted total of batch @I@; the label is "quoted" and has // no comment inside.
 */
export function total@I@(items: readonly Item[], factor: number = 2): number {
  // Start from a non-zero base so that empty batches are visible.
  let total: number = @B@;
  const label = `batch @I@: ${factor} // not a comment`;
  for (const [idx, item] of items.entries()) {
    if (item.weight > @A@) {
      total += item.weight * factor;
    } else if (idx % 2 === 0) {
      total = Math.max(0, total - @A@);
    } else {
      continue;
    }
  }
  const count = items.length;
  console.assert(count >= 0, label);
  return total + count;
}

"##,
    r##"function classify@I@(code: number): Bucket {
  const bucket = Math.trunc(code / @A@);
  /* a block comment
     over two lines */
  switch (bucket) {
    case 0:
      return Bucket.Zero;
    case 1:
    case 2: {
      const doubled: number = bucket * 2;
      return doubled > 3 ? Bucket.High : Bucket.Low;
    }
    default:
      if (bucket < 0) {
        return Bucket.Negative;
      }
      return Bucket.Other;
  }
}

"##,
    r##"export class Account@I@ extends EventEmitter {
  private readonly history: number[] = [];
  public balance = 0;

  constructor(public readonly id: number, private owner: string) {
    super();
  }

  deposit(amount: number): number {
    if (amount <= 0) {
      throw new RangeError(`account ${this.id}: bad amount ${amount}`);
    }
    this.balance += amount;
    this.history.push(amount);
    this.emit('deposit', amount);
    return this.balance;
  }

  withdraw(amount: number): number | null {
    const next = this.balance - amount;
    if (next < -@B@) {
      return null;
    }
    this.balance = next;
    this.history.push(-amount);
    return next;
  }

  get summary(): string {
    return '#' + this.id + ' ' + this.owner + ' (' + this.balance + ')';
  }
}

"##,
    r##"export const scan@I@ = (text: string): string[] => {
  const out: string[] = [];
  const words = text.split(/\s+/);
  const keep = (w: string): boolean => w.length > @A@ % 7 && !w.startsWith('#');
  let i = 0;
  while (i < words.length) {
    const w = words[i];
    if (keep(w)) {
      out.push(w.toUpperCase());
    }
    i += 1;
  }
  return [...new Set(out)].sort();
};

"##,
    r##"export async function fetchAll@I@(sources: Iterable<string>): Promise<Record<string, number>> {
  const results: Record<string, number> = {};
  for (const src of sources) {
    try {
      const size = await Promise.resolve(src.length);
      results[src] = size;
    } catch (err: unknown) {
      console.error('skip', err);
      continue;
    } finally {
      results.visited = (results.visited ?? 0) + 1;
    }
  }
  return results;
}

function* ids@I@(start: number): Generator<number, void, undefined> {
  let n = start;
  while (n < start + @A@) {
    yield n++;
  }
}

"##,
    r##"type Table@I@ = Map<string, number[]>;

export function index@I@<T extends Item>(items: Iterable<T>): Record<string, number[]> {
  const table: Table@I@ = new Map();
  for (const item of items) {
    for (const tag of item.tags) {
      if (!table.has(tag)) {
        table.set(tag, []);
      }
      table.get(tag)!.push(item.weight);
    }
  }
  const limit = @B@;
  const kept: Record<string, number[]> = {};
  table.forEach((ws, tag) => {
    const sum = ws.reduce((a, b) => a + b, 0);
    if (sum < limit) {
      kept[tag] = ws.sort((a, b) => a - b);
    }
  });
  return kept;
}

"##,
];

fn inputs() -> Vec<Input> {
    vec![
        Input {
            name: "bench.rs",
            text: generate(0x5eed_0001, RUST_HEADER, RUST_SHAPES),
            anchor: "    let count = items.len();",
            captures: ["total=total", "factor=factor"],
        },
        Input {
            name: "bench.js",
            text: generate(0x5eed_0002, JS_HEADER, JS_SHAPES),
            anchor: "  const count = items.length;",
            captures: ["total=total", "factor=factor"],
        },
        Input {
            name: "bench.ts",
            text: generate(0x5eed_0003, TS_HEADER, TS_SHAPES),
            anchor: "  const count = items.length;",
            captures: ["total=total", "factor=factor"],
        },
        Input {
            name: "bench.py",
            text: generate(0x5eed_0004, PY_HEADER, PY_SHAPES),
            anchor: "    count = len(items)",
            captures: ["total=total", "factor=factor"],
        },
    ]
}

/// The 1-based line of the occurrence of `anchor` (a whole line) nearest the file's middle.
fn middle_anchor(text: &str, anchor: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let middle = lines.len() / 2;
    (0..lines.len())
        .filter(|&i| lines[i] == anchor)
        .min_by_key(|&i| i.abs_diff(middle))
        .map(|i| i + 1)
        .expect("the generated file holds the anchor statement")
}

/// One language's input, checked and ready to measure.
struct Prepared {
    name: &'static str,
    language: &'static Language,
    grammar: &'static Grammar,
    text: String,
    source: Source,
    identity: ProbeIdentity,
    anchor: Anchor,
    placed: Source,
    targets: [Target; 1],
}

impl Prepared {
    fn parse(&self) -> Tree {
        parse::parse(self.grammar, black_box(&self.text)).expect("parse")
    }

    fn place(&self) -> Placement {
        place::place(
            self.language,
            self.grammar,
            black_box(&self.source),
            &self.identity,
            &self.anchor,
            self.name,
        )
        .expect("place")
    }

    fn strip(&self) -> StripPlan {
        strip::strip(
            self.language,
            self.grammar,
            black_box(&self.placed),
            &self.targets,
        )
    }
}

/// Generate an input and check it: it parses cleanly, the placement succeeds, and stripping the
/// placed file gives back the original bytes.
fn prepare(input: Input) -> Prepared {
    let (language, grammar) =
        lang::for_path(Path::new(input.name)).expect("a registered extension");
    let text = input.text;
    // `PROBITY_BENCH_DUMP=DIR` writes the generated inputs there, for a look or a profiler.
    if let Some(dir) = std::env::var_os("PROBITY_BENCH_DUMP") {
        let path = Path::new(&dir).join(input.name);
        std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    let tree = parse::parse(grammar, &text).expect("parse");
    assert_eq!(
        parse::error_count(&tree),
        0,
        "{}: the generated input must parse cleanly",
        input.name
    );
    let source = Source::new(text.as_bytes().to_vec()).expect("valid source");
    let identity = ProbeIdentity::new(
        "bench-session",
        "p1",
        &["h1".to_owned()],
        "state",
        &input.captures.map(str::to_owned),
    )
    .expect("identity");
    let line = middle_anchor(&text, input.anchor);
    let anchor = Anchor::Line(line);
    let placement = place::place(language, grammar, &source, &identity, &anchor, input.name)
        .unwrap_or_else(|r| panic!("{}: place refused: {r:?}", input.name));
    let placed = Source::new(placement.new_bytes.clone()).expect("placed source");
    let targets = [Target {
        slug: identity.slug.clone(),
        probe: identity.probe.clone(),
        expected_sha256: placement.block_sha256.clone(),
        expected_token_sha256: None,
    }];
    let plan = strip::strip(language, grammar, &placed, &targets);
    assert_eq!(
        plan.new_bytes.as_deref(),
        Some(text.as_bytes()),
        "{}: strip must give back the original bytes",
        input.name
    );
    eprintln!(
        "{}: {} lines, {} bytes; probe before line {line} ({} block lines)",
        input.name,
        text.lines().count(),
        text.len(),
        placement.block.lines().count()
    );
    Prepared {
        name: input.name,
        language,
        grammar,
        text,
        source,
        identity,
        anchor,
        placed,
        targets,
    }
}

fn bench_engine(c: &mut Criterion) {
    for p in inputs().into_iter().map(prepare) {
        let mut group = c.benchmark_group(p.language.id());
        group.sample_size(50);
        group.warm_up_time(Duration::from_secs(2));
        group.measurement_time(Duration::from_secs(5));
        group.bench_function("parse", |b| b.iter(|| p.parse()));
        group.bench_function("place", |b| b.iter(|| p.place()));
        group.bench_function("strip", |b| b.iter(|| p.strip()));
        group.finish();
    }
}

criterion_group!(benches, bench_engine);

/// `PROBITY_BENCH_ONLY=<lang>:<op>:<n>` (op: `none`, `parse`, `place`, `strip`) prepares only
/// that language and runs the operation `n` times without criterion: for instruction counts
/// under `valgrind --tool=callgrind`, which do not depend on what else the machine is doing
/// (see benches/instructions.sh). Otherwise, criterion as usual.
fn main() {
    if let Ok(only) = std::env::var("PROBITY_BENCH_ONLY") {
        let parts: Vec<&str> = only.split(':').collect();
        let [lang_id, op, n] = parts[..] else {
            panic!("PROBITY_BENCH_ONLY takes <lang>:<op>:<n>, not {only:?}");
        };
        let n: usize = n.parse().expect("a repeat count");
        let input = inputs()
            .into_iter()
            .find(|i| lang::for_path(Path::new(i.name)).is_some_and(|(l, _)| l.id() == lang_id))
            .unwrap_or_else(|| panic!("no benchmark input for language {lang_id:?}"));
        let p = prepare(input);
        for _ in 0..n {
            match op {
                "none" => {}
                "parse" => drop(black_box(p.parse())),
                "place" => drop(black_box(p.place())),
                "strip" => drop(black_box(p.strip())),
                _ => panic!("unknown operation {op:?}: none, parse, place or strip"),
            }
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
