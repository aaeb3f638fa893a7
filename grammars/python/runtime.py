# probity probe runtime {{RUNTIME_VERSION}} for Python. Written by `probity run` / `probity env` into
# the session's capture root and removed by `probity cleanup`; never part of a user's file.
# A probe block runs it (runpy.run_path, init_globals {"g": <the module's globals>}) once per
# instrumented module: the first run sets the runtime up and registers it in sys.modules, every
# run puts its `live` dict into the module's globals as __{{RUNTIME_MODULE}}__. Blocks of the previous
# template call hit(key, thunk). See docs/probes.md.


def _setup():
    import os
    import sys
    import time
    import types
    import reprlib
    import _thread

    # Everything the runtime needs is taken here, once: later changes the program makes to
    # os, time, json or sys do not reach it. File and process calls come from the C module
    # under os (posix, nt), which programs do not patch when they patch os.
    builtin = type(len)
    native = sys.modules.get(os.name) or os
    environ = os.environ
    getpid, o_open, o_write, o_close, o_fstat, o_stat = (
        native.getpid, native.open, native.write, native.close, native.fstat, native.stat)
    s_isreg = __import__("stat").S_ISREG
    time_ns = time.time_ns if type(time.time_ns) is builtin else (lambda: 0)
    get_ident = _thread.get_ident
    flags = (os.O_WRONLY | os.O_APPEND | getattr(os, "O_NONBLOCK", 0)
             | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0))
    max_events, max_line, max_chars = {{MAX_EVENTS}}, {{MAX_LINE_BYTES}}, {{MAX_VALUE_CHARS}}
    max_items = {{MAX_SEQ_ITEMS}}
    # probe key -> the fixed part of its events (JSON object without its closing brace).
    probes = {{PROBES}}
    rep = reprlib.Repr()
    rep.maxstring = rep.maxother = rep.maxlong = max_chars
    inf = float("inf")

    def esc(s):
        out = []
        for c in s:
            o = ord(c)
            if 32 <= o < 127 and o != 34 and o != 92:
                out.append(c)
            elif o > 65535:
                out.append("\\u%04x\\u%04x" % (55232 + (o >> 10), 56320 | (o & 1023)))
            else:
                out.append("\\u%04x" % (65533 if 55296 <= o < 57344 else o))
        return '"' + "".join(out) + '"'

    def env_json(name):
        v = environ.get(name)
        return "null" if v is None else esc(v[:max_line])

    # Decided once, here: whether this process records at all (a sink that is a regular file;
    # it is never created), and the run's identity.
    sink = environ.get("GSD_DEBUG_PROBE_SINK") or None
    try:
        records = sink is not None and s_isreg(o_stat(sink).st_mode)
    except (OSError, ValueError):
        records = False
    run, phase = env_json("GSD_DEBUG_PROBE_RUN"), env_json("GSD_DEBUG_PROBE_PHASE")

    def scalar(v, t):
        # The JSON text of a scalar (None, bool, int, float, str), or None for anything else.
        if v is None:
            return "null"
        if t is bool:
            return "true" if v else "false"
        if t is int:
            if -(1 << 63) <= v < (1 << 64):  # the range of i64 and u64, as a Rust probe
                return "%d" % v
            n = v.bit_length()
            return esc(("%d" % v if n < 4000 else "int of %d bits" % n)[:max_chars])
        if t is float:
            if v - v == 0:
                return repr(v)
            return '"NaN"' if v != v else ('"Infinity"' if v > 0 else '"-Infinity"')
        if t is str:
            return esc(v[:max_chars])
        return None

    def val(v):
        try:
            t = type(v)
            s = scalar(v, t)
            if s is not None:
                return s
            if (t is list or t is tuple) and len(v) <= max_items:
                items = [scalar(x, type(x)) for x in v]
                if None not in items:
                    return "[" + ",".join(items) + "]"
            return esc(rep.repr(v)[:max_chars])
        except Exception:
            return esc("<unrepresentable>")

    # The counters of this process: probe key -> events written. `lock` serializes only the
    # ordinal and its one write (never held while program code runs); `owner` makes a hit from a
    # signal handler that interrupted a write in the same thread skip instead of waiting.
    state = {"pid": getpid(), "counts": {}, "owner": None, "lock": _thread.allocate_lock()}

    def hit(key, thunk):
        try:
            head = probes.get(key)
            if head is None or not records or state["counts"].get(key, 0) >= max_events:
                return
            if state["owner"] == get_ident():
                return
            try:
                data = "{" + ",".join(esc(k) + ":" + val(v) for k, v in thunk()) + "}"
            except Exception as e:
                data = '{"_capture_error":%s}' % esc(type(e).__name__)
            lock = state["lock"]
            with lock:
                state["owner"] = get_ident()
                try:
                    if state["pid"] != getpid():
                        after_fork()
                    counts = state["counts"]
                    n = counts.get(key, 0) + 1
                    if n > max_events:
                        return
                    tail = ',"timestamp":%d,"pid":%d}' % (time_ns() // 1000000, getpid())
                    line = '%s,"run_id":%s,"phase":%s,"ordinal":%d,"data":' % (head, run, phase, n)
                    line = "GSDDBG1 " + line
                    if len(line) + len(data) + len(tail) > max_line:
                        data = '{"_truncated":true}'
                    if len(line) + len(data) + len(tail) > max_line:
                        return
                    out = (line + data + tail + "\n").encode("ascii")
                    fd = o_open(sink, flags)
                    try:
                        # The descriptor, not the path: what was opened is what is written.
                        if s_isreg(o_fstat(fd).st_mode) and o_write(fd, out) == len(out):
                            counts[key] = n
                            if n >= max_events:
                                live.pop(key, None)
                    finally:
                        o_close(fd)
                finally:
                    state["owner"] = None
        except Exception:
            pass

    def record(thunk, key):
        hit(key, thunk)

    def caller(key):
        return lambda thunk: hit(key, thunk)

    # What a block looks up on every call: is its probe key here (the probes that still record
    # in this process; a key leaves when its probe's cap is spent, and none is here when the
    # process does not record). A block whose key is here calls live[""](thunk, key), the
    # recorder; each key also maps to a callable(thunk) of its own.
    live = {"": record}
    callers = {k: caller(k) for k in probes} if records else {}
    live.update(callers)

    def after_fork():
        # A forked child counts on its own: fresh counters and lock, every key back in `live`
        # (the same dict object the modules' globals hold).
        state["pid"], state["counts"], state["owner"] = getpid(), {}, None
        state["lock"] = _thread.allocate_lock()
        live.update(callers)

    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=after_fork)

    module = types.ModuleType("{{RUNTIME_MODULE}}")
    module.hit = hit
    module.live = live
    module.version = "{{RUNTIME_VERSION}}"
    return sys.modules.setdefault("{{RUNTIME_MODULE}}", module)


def _install(g):
    import sys

    m = sys.modules.get("{{RUNTIME_MODULE}}")
    live = getattr(m, "live", None)
    if live is None:
        live = _setup().live
    if type(g) is dict:
        g.setdefault("__{{RUNTIME_MODULE}}__", live)


_install(globals().get("g"))
