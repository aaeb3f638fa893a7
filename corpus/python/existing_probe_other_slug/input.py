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
    had = _cache.pop(key, None) is not None
    return had
