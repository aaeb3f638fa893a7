def healthy(values):
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
    best = float("-inf")
    for v in values:
        best = max(best, v)
    return best


def broken(values):
    total = sum(values)
    avg = total / (len(values) +
    return avg
