def clamp(x, lo, hi):
    if x < lo: return lo
    if x > hi: return hi
    return x


def sign(x): return (x > 0) - (x < 0)


def normalize(values):
    lo, hi = min(values), max(values)
    for i, v in enumerate(values):
        # gsd-debug-probe:start golden-run p1
        # fmt: off
        try:
            try: __GSDDBG1_rt1__
            except NameError: (lambda p: __import__("runpy").run_path(p + ".py", {"g": globals()}))(
                __import__("os").environ["GSD_DEBUG_PROBE_RUNTIME"])
            if "gsd-debug-probe/golden-run/p1" in __GSDDBG1_rt1__: __GSDDBG1_rt1__[""](lambda: (
            ), "gsd-debug-probe/golden-run/p1")
        except Exception: globals().setdefault("__GSDDBG1_rt1__", {})
        # fmt: on
        # gsd-debug-probe:end golden-run p1
        if hi == lo: values[i] = 0.0
        else: values[i] = (v - lo) / (hi - lo)
    return values
