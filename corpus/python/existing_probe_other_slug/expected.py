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
    try:
        if __import__("os").environ.get("GSD_DEBUG_PROBE_SINK"):
            if "gsd-debug-probe/slow-evict/p2" not in __import__("sys").__dict__:
                exec("\n".join((
                    "import os, sys, time, itertools, _thread",
                    "Q = chr(34)",
                    "U = chr(92) + 'u%04x'",
                    "F = ',#run_id#:%s,#phase#:%s,#ordinal#:%d,#data#:%s,#timestamp#:%d,#pid#:%d}'.replace('#', Q)",
                    "W = os.O_WRONLY | os.O_APPEND | getattr(os, 'O_NONBLOCK', 0) | getattr(os, 'O_BINARY', 0)",
                    "T = [os.getpid(), itertools.count(1), {}]",
                    "R = []",
                    "def esc(s):",
                    "    r = []",
                    "    for c in s:",
                    "        o = ord(c)",
                    "        if 32 <= o < 127 and o != 34 and o != 92:",
                    "            r.append(c)",
                    "        elif o > 65535:",
                    "            r.append(U % (55232 + (o >> 10)) + U % (56320 | (o & 1023)))",
                    "        else:",
                    "            r.append(U % (65533 if 55296 <= o < 57344 else o))",
                    "    return Q + ''.join(r) + Q",
                    "def rep(v):",
                    "    if not R:",
                    "        import reprlib",
                    "        R.append(reprlib.Repr())",
                    "        R[0].maxstring = R[0].maxother = R[0].maxlong = 96",
                    "    return R[0].repr(v)",
                    "def val(v):",
                    "    try:",
                    "        t = type(v)",
                    "        if v is None:",
                    "            return 'null'",
                    "        if t is bool:",
                    "            return 'true' if v else 'false'",
                    "        if t is int and v.bit_length() < 64:",
                    "            return '%d' % v",
                    "        if t is int:",
                    "            return esc(('%d' % v if v.bit_length() < 4000 else 'int of %d bits' % v.bit_length())[:96])",
                    "        if t is float and v - v == 0:",
                    "            return repr(v)",
                    "        if t is str:",
                    "            return esc(v[:96])",
                    "        return esc(rep(v)[:96])",
                    "    except Exception:",
                    "        return esc('<unrepresentable>')",
                    "def emit(n, d):",
                    "    p = os.environ.get('GSD_DEBUG_PROBE_SINK')",
                    "    if not p or not os.path.isfile(p):",
                    "        return",
                    "    r = os.environ.get('GSD_DEBUG_PROBE_RUN')",
                    "    h = os.environ.get('GSD_DEBUG_PROBE_PHASE')",
                    "    x = ('null' if r is None else esc(r), 'null' if h is None else esc(h), n)",
                    "    y = (time.time_ns() // 1000000, os.getpid())",
                    "    s = 'GSDDBG1 ' + S + F % (x + (d,) + y)",
                    "    if len(s) > 1024:",
                    "        s = 'GSDDBG1 ' + S + F % (x + ('{#_truncated#:true}'.replace('#', Q),) + y)",
                    "    if len(s) > 1024:",
                    "        return",
                    "    fd = os.open(p, W)",
                    "    try:",
                    "        os.write(fd, (s + chr(10)).encode('ascii'))",
                    "    finally:",
                    "        os.close(fd)",
                    "def probe(op, pairs=()):",
                    "    try:",
                    "        i = _thread.get_ident()",
                    "        if op == 0:",
                    "            p = os.environ.get('GSD_DEBUG_PROBE_SINK')",
                    "            if not p or not os.path.isfile(p):",
                    "                return False",
                    "            if T[0] != os.getpid():",
                    "                T[:] = [os.getpid(), itertools.count(1), {}]",
                    "            n = next(T[1])",
                    "            if n > 100:",
                    "                return False",
                    "            T[2].setdefault(i, []).append(n)",
                    "            return True",
                    "        s = T[2].get(i)",
                    "        if not s:",
                    "            return False",
                    "        n = s.pop()",
                    "        if not s:",
                    "            T[2].pop(i, None)",
                    "        if op == 1:",
                    "            emit(n, '{' + ','.join(esc(k) + ':' + val(v) for k, v in pairs) + '}')",
                    "        else:",
                    "            emit(n, '{#_capture_error#:%s}'.replace('#', Q) % esc(type(sys.exc_info()[1]).__name__))",
                    "    except Exception:",
                    "        pass",
                    "    return False",
                    "sys.__dict__.setdefault(K, probe)",
                )), {"__name__": "gsd-debug-probe/slow-evict/p2", "K": "gsd-debug-probe/slow-evict/p2", "S": "{\"hypothesis_ids\":[\"h1\"],\"location\":\"input.py:13\",\"message\":\"checkpoint\",\"probe_id\":\"p2\",\"schema_version\":1,\"session_id\":\"slow-evict\""})
            if __import__("sys").__dict__["gsd-debug-probe/slow-evict/p2"](0):
                try:
                    __import__("sys").__dict__["gsd-debug-probe/slow-evict/p2"](1, (
                    ))
                except Exception:
                    __import__("sys").__dict__["gsd-debug-probe/slow-evict/p2"](2)
    except Exception:
        pass
    # gsd-debug-probe:end slow-evict p2
    had = _cache.pop(key, None) is not None
    return had
