_cache = {}


def load(key, compute):
    if key in _cache:
        return _cache[key]
    # gsd-debug-probe:start cache-miss p1
    print("cache-miss p1 reached")
    # gsd-debug-probe:end cache-miss p1
    value = compute(key)
    _cache[key] = value
    return value


def evict(key):
    # gsd-debug-probe:start slow-evict p2
    # fmt: off
    try:
        if __import__("os").environ.get("GSD_DEBUG_PROBE_RUNTIME"):
            __import__("sys").modules.get("GSDDBG1_rt1") or __import__("runpy").run_path(
                __import__("os").environ["GSD_DEBUG_PROBE_RUNTIME"] + ".py")
            __import__("GSDDBG1_rt1").hit("gsd-debug-probe/slow-evict/p2", lambda: (
            ))
    except Exception: pass
    # fmt: on
    # gsd-debug-probe:end slow-evict p2
    had = _cache.pop(key, None) is not None
    return had
