def clamp(x, lo, hi):
    # gsd-debug-probe:start golden-run p1
    # fmt: off
    try:
        if __import__("os").environ.get("GSD_DEBUG_PROBE_RUNTIME"):
            __import__("sys").modules.get("GSDDBG1_rt1") or __import__("runpy").run_path(
                __import__("os").environ["GSD_DEBUG_PROBE_RUNTIME"] + ".py")
            __import__("GSDDBG1_rt1").hit("gsd-debug-probe/golden-run/p1", lambda: (
            ))
    except Exception: pass
    # fmt: on
    # gsd-debug-probe:end golden-run p1
    if x < lo: return lo
    if x > hi: return hi
    return x


def sign(x): return (x > 0) - (x < 0)


def normalize(values):
    lo, hi = min(values), max(values)
    for i, v in enumerate(values):
        if hi == lo: values[i] = 0.0
        else: values[i] = (v - lo) / (hi - lo)
    return values
