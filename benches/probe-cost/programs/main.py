"""benches/probe-cost, the Python driver: python3 main.py MODE OUT ROUNDS RUN_MS
MODE: `loops` (inert or capped: the environment decides) or `record1` / `record8`.
Writes one JSON object to OUT."""

import json
import sys
import time
from itertools import repeat

from hot import log1, log8, plain, probe1, probe8

ns_now = time.perf_counter_ns
cpu_now = time.thread_time_ns


# One loop per function, so that each call site sees one function (as a real caller does).
# `repeat` and `x & 255` (small, preallocated ints) keep the loop's own cost low.
def loop_plain(n):
    x = 0
    for _ in repeat(None, n):
        x = plain(x & 255)
    return x


def loop_probe1(n):
    x = 0
    for _ in repeat(None, n):
        x = probe1(x & 255)
    return x


def loop_probe8(n):
    x = 0
    for _ in repeat(None, n):
        x = probe8(x & 255)
    return x


def loop_log1(n):
    x = 0
    for _ in repeat(None, n):
        x = log1(x & 255)
    return x


def loop_log8(n):
    x = 0
    for _ in repeat(None, n):
        x = log8(x & 255)
    return x


LOOPS = [
    ("plain", loop_plain),
    ("probe1", loop_probe1),
    ("probe8", loop_probe8),
    ("log1", loop_log1),
    ("log8", loop_log8),
]
ACC = [0]


def timed(f, n):
    """(wall ns, this thread's CPU ns) of f(n)."""
    c, t = cpu_now(), ns_now()
    ACC[0] += f(n)
    return ns_now() - t, cpu_now() - c


def calibrate(f, run_ns):
    n = 100
    while True:
        t = timed(f, n)[0]
        if t >= run_ns // 10:
            return max(n * run_ns // max(t, 1), 100)
        n *= 10


def main():
    mode, out, rounds, run_ms = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    cpu_now(), ns_now()  # both clocks used once before the first timing
    if mode == "loops":
        # Capped: these calls spend every probe's 100-event cap (inert: they do nothing).
        for i in range(200):
            ACC[0] += probe1(i) + probe8(i)
        ns = [calibrate(f, run_ms * 1_000_000) for _, f in LOOPS]
        wall, cpu = [[] for _ in LOOPS], [[] for _ in LOOPS]
        for _ in range(rounds):
            for k, (_, f) in enumerate(LOOPS):
                w, c = timed(f, ns[k])
                wall[k].append(w / ns[k])
                cpu[k].append(c / ns[k])
        res = {"variants": {name: {"n": ns[k], "ns": wall[k], "cpu_ns": cpu[k]}
                            for k, (name, _) in enumerate(LOOPS)}}
    else:
        f = probe1 if mode == "record1" else probe8
        c0, t0 = cpu_now(), ns_now()
        ACC[0] += f(0)
        c1, t1 = cpu_now(), ns_now()
        for i in range(1, 100):
            ACC[0] += f(i)
        c2, t2 = cpu_now(), ns_now()
        res = {"first_ns": t1 - t0, "rest_ns": (t2 - t1) / 99,
               "first_cpu_ns": c1 - c0, "rest_cpu_ns": (c2 - c1) / 99}
    res["acc"] = ACC[0]
    with open(out, "w") as fh:
        json.dump(res, fh)


main()
