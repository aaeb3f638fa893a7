"use strict";
// benches/probe-cost, the JavaScript program: node bench.js MODE OUT ROUNDS RUN_MS
// MODE: `loops` (inert or capped: the environment decides) or `record1` / `record8`.
// run.py copies it into a scratch git repository and places the probes at the entry of probe1
// and probe8 (probity place --function). Writes one JSON object to OUT.
const dbg = require("debug")("probe-cost");

function plain(a) {
  const x = a + 1;
  return x;
}

function probe1(a) {
  const x = a + 1;
  return x;
}

function probe8(a) {
  const x = a + 1;
  return x;
}

function log1(a) {
  dbg("a=%o", a);
  const x = a + 1;
  return x;
}

function log8(a) {
  dbg("%o %o %o %o %o %o %o %o", a, a, a, a, a, a, a, a);
  const x = a + 1;
  return x;
}

// One loop per function, so that each call site sees one function (as a real caller does).
function loopPlain(n) {
  let acc = 0;
  for (let i = 0; i < n; i++) acc += plain(i & 1023);
  return acc;
}

function loopProbe1(n) {
  let acc = 0;
  for (let i = 0; i < n; i++) acc += probe1(i & 1023);
  return acc;
}

function loopProbe8(n) {
  let acc = 0;
  for (let i = 0; i < n; i++) acc += probe8(i & 1023);
  return acc;
}

function loopLog1(n) {
  let acc = 0;
  for (let i = 0; i < n; i++) acc += log1(i & 1023);
  return acc;
}

function loopLog8(n) {
  let acc = 0;
  for (let i = 0; i < n; i++) acc += log8(i & 1023);
  return acc;
}

const LOOPS = [
  ["plain", loopPlain],
  ["probe1", loopProbe1],
  ["probe8", loopProbe8],
  ["log1", loopLog1],
  ["log8", loopLog8],
];
let ACC = 0;

// [wall ns, CPU ns of the process (Node 20 has no per-thread CPU clock)] of f(n).
function timed(f, n) {
  const c = process.cpuUsage();
  const t = process.hrtime.bigint();
  ACC += f(n);
  const w = Number(process.hrtime.bigint() - t);
  const d = process.cpuUsage(c);
  return [w, (d.user + d.system) * 1000];
}

function calibrate(f, runNs) {
  for (let n = 1000; ; n *= 10) {
    const t = timed(f, n)[0];
    if (t >= runNs / 10) return Math.max(Math.round((n * runNs) / Math.max(t, 1)), 1000);
  }
}

function main() {
  const [mode, out, rounds, runMs] = process.argv.slice(2);
  process.cpuUsage(process.cpuUsage()); // both clocks used once before the first timing
  process.hrtime.bigint();
  let res;
  if (mode === "loops") {
    // Capped: these calls spend every probe's 100-event cap (inert: they do nothing).
    for (let i = 0; i < 200; i++) ACC += probe1(i) + probe8(i);
    const ns = LOOPS.map(([, f]) => calibrate(f, Number(runMs) * 1e6));
    const wall = LOOPS.map(() => []);
    const cpu = LOOPS.map(() => []);
    for (let r = 0; r < Number(rounds); r++) {
      LOOPS.forEach(([, f], k) => {
        const [w, c] = timed(f, ns[k]);
        wall[k].push(w / ns[k]);
        cpu[k].push(c / ns[k]);
      });
    }
    const variants = {};
    LOOPS.forEach(([name], k) => (variants[name] = { n: ns[k], ns: wall[k], cpu_ns: cpu[k] }));
    res = { variants };
  } else {
    const f = mode === "record1" ? probe1 : probe8;
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    ACC += f(0);
    const t1 = process.hrtime.bigint();
    const c1 = process.cpuUsage();
    for (let i = 1; i < 100; i++) ACC += f(i);
    const t2 = process.hrtime.bigint();
    const c2 = process.cpuUsage();
    const us = (a, b) => (b.user + b.system - a.user - a.system) * 1000;
    res = {
      first_ns: Number(t1 - t0),
      rest_ns: Number(t2 - t1) / 99,
      first_cpu_ns: us(c0, c1),
      rest_cpu_ns: us(c1, c2) / 99,
    };
  }
  res.acc = ACC;
  require("fs").writeFileSync(out, JSON.stringify(res) + "\n");
}

main();
