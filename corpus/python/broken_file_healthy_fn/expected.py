def healthy(values):
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
    best = float("-inf")
    for v in values:
        best = max(best, v)
    return best


def broken(values):
    total = sum(values)
    avg = total / (len(values) +
    return avg
