//! benches/probe-cost, the Rust program. run.py copies it into a scratch git repository, places
//! the probes at the entry of `probe1` and `probe8` with `probity place --function`, and builds it
//! with `cargo build --release`. Usage: probe-cost MODE OUT ROUNDS RUN_MS
//!   MODE: `loops` (inert or capped: the environment decides) or `record1` / `record8`.
//! Writes one JSON object to OUT.
#![allow(clippy::let_and_return, unused_variables)]

use std::hint::black_box;
use std::time::Instant;

fn plain(a: u64) -> u64 {
    let x = a + 1;
    x
}

fn probe1(a: u64) -> u64 {
    let x = a + 1;
    x
}

fn probe8(a: u64) -> u64 {
    let x = a + 1;
    x
}

fn log1(a: u64) -> u64 {
    tracing::debug!(a, "probe-cost");
    let x = a + 1;
    x
}

fn log8(a: u64) -> u64 {
    tracing::debug!(
        a0 = a,
        a1 = a,
        a2 = a,
        a3 = a,
        a4 = a,
        a5 = a,
        a6 = a,
        a7 = a,
        "probe-cost"
    );
    let x = a + 1;
    x
}

// One loop per function, so that each call site sees one function (as a real caller does).
fn loop_plain(n: u64) -> u64 {
    let mut acc = 0u64;
    for i in 0..n {
        acc = acc.wrapping_add(plain(black_box(i & 1023)));
    }
    acc
}

fn loop_probe1(n: u64) -> u64 {
    let mut acc = 0u64;
    for i in 0..n {
        acc = acc.wrapping_add(probe1(black_box(i & 1023)));
    }
    acc
}

fn loop_probe8(n: u64) -> u64 {
    let mut acc = 0u64;
    for i in 0..n {
        acc = acc.wrapping_add(probe8(black_box(i & 1023)));
    }
    acc
}

fn loop_log1(n: u64) -> u64 {
    let mut acc = 0u64;
    for i in 0..n {
        acc = acc.wrapping_add(log1(black_box(i & 1023)));
    }
    acc
}

fn loop_log8(n: u64) -> u64 {
    let mut acc = 0u64;
    for i in 0..n {
        acc = acc.wrapping_add(log8(black_box(i & 1023)));
    }
    acc
}

type Loop = fn(u64) -> u64;

const LOOPS: [(&str, Loop); 5] = [
    ("plain", loop_plain),
    ("probe1", loop_probe1),
    ("probe8", loop_probe8),
    ("log1", loop_log1),
    ("log8", loop_log8),
];

/// This thread's CPU time in ns (`CLOCK_THREAD_CPUTIME_ID`; libc is linked anyway).
#[cfg(target_os = "linux")]
fn cpu_ns() -> u64 {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, t: *mut Timespec) -> i32;
    }
    let mut t = Timespec { sec: 0, nsec: 0 };
    // SAFETY: a valid clock id and a pointer to a live timespec.
    unsafe { clock_gettime(3, &mut t) };
    t.sec as u64 * 1_000_000_000 + t.nsec as u64
}

#[cfg(not(target_os = "linux"))]
fn cpu_ns() -> u64 {
    0
}

/// (wall ns, this thread's CPU ns) `f(n)` takes; the result goes into `acc`.
fn time(f: Loop, n: u64, acc: &mut u64) -> (u64, u64) {
    let c = cpu_ns();
    let t = Instant::now();
    *acc = acc.wrapping_add(black_box(f(black_box(n))));
    let w = t.elapsed().as_nanos() as u64;
    (w, cpu_ns() - c)
}

/// The number of calls one timed run of `f` makes to last about `run_ns`.
fn calibrate(f: Loop, run_ns: u64, acc: &mut u64) -> u64 {
    let mut n = 1000;
    loop {
        let t = time(f, n, acc).0;
        if t >= run_ns / 10 || n >= 1 << 40 {
            return (n as u128 * run_ns as u128 / t.max(1) as u128).max(1000) as u64;
        }
        n *= 10;
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (mode, out) = (args[1].as_str(), &args[2]);
    let rounds: usize = args[3].parse().unwrap();
    let run_ns: u64 = args[4].parse::<u64>().unwrap() * 1_000_000;
    let mut acc = 0u64;
    black_box((cpu_ns(), Instant::now())); // resolve both clocks before the first timing
    let json = match mode {
        "loops" => {
            // Capped: these calls spend every probe's 100-event cap (inert: they do nothing).
            for i in 0..200 {
                acc = acc.wrapping_add(probe1(black_box(i)) + probe8(black_box(i)));
            }
            let ns: Vec<u64> = LOOPS
                .iter()
                .map(|(_, f)| calibrate(*f, run_ns, &mut acc))
                .collect();
            let mut wall: Vec<Vec<f64>> = vec![Vec::new(); LOOPS.len()];
            let mut cpu: Vec<Vec<f64>> = vec![Vec::new(); LOOPS.len()];
            for _ in 0..rounds {
                for (k, (_, f)) in LOOPS.iter().enumerate() {
                    let (w, c) = time(*f, ns[k], &mut acc);
                    wall[k].push(w as f64 / ns[k] as f64);
                    cpu[k].push(c as f64 / ns[k] as f64);
                }
            }
            let list = |v: &[f64]| {
                v.iter()
                    .map(|x| format!("{x:.4}"))
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let fields: Vec<String> = LOOPS
                .iter()
                .enumerate()
                .map(|(k, (name, _))| {
                    format!(
                        "\"{name}\":{{\"n\":{},\"ns\":[{}],\"cpu_ns\":[{}]}}",
                        ns[k],
                        list(&wall[k]),
                        list(&cpu[k])
                    )
                })
                .collect();
            format!("{{\"variants\":{{{}}},\"acc\":{acc}}}", fields.join(","))
        }
        "record1" | "record8" => {
            let f: fn(u64) -> u64 = if mode == "record1" { probe1 } else { probe8 };
            let (c0, t0) = (cpu_ns(), Instant::now());
            acc = acc.wrapping_add(f(black_box(0)));
            let (c1, t1) = (cpu_ns(), Instant::now());
            for i in 1..100 {
                acc = acc.wrapping_add(f(black_box(i)));
            }
            let (c2, t2) = (cpu_ns(), Instant::now());
            let first = (t1 - t0).as_nanos() as f64;
            let rest = (t2 - t1).as_nanos() as f64 / 99.0;
            let (first_cpu, rest_cpu) = ((c1 - c0) as f64, (c2 - c1) as f64 / 99.0);
            format!(
                "{{\"first_ns\":{first:.1},\"rest_ns\":{rest:.2},\"first_cpu_ns\":{first_cpu:.1},\
                 \"rest_cpu_ns\":{rest_cpu:.2},\"acc\":{acc}}}"
            )
        }
        _ => panic!("unknown mode {mode}"),
    };
    std::fs::write(out, json + "\n").unwrap();
}
