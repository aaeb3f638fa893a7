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
        try: __GSDDBG1_rt1__
        except NameError: (lambda p: __import__("runpy").run_path(p + ".py", {"g": globals()}))(
            __import__("os").environ["GSD_DEBUG_PROBE_RUNTIME"])
        if "gsd-debug-probe/slow-evict/p2" in __GSDDBG1_rt1__: __GSDDBG1_rt1__[""](lambda: (
        ), "gsd-debug-probe/slow-evict/p2")
    except Exception: globals().setdefault("__GSDDBG1_rt1__", {})
    # fmt: on
    # gsd-debug-probe:end slow-evict p2
    had = _cache.pop(key, None) is not None
    return had
