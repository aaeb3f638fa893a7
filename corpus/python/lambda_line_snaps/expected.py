import asyncio
import functools
import logging

log = logging.getLogger(__name__)


def retry(times: int):
    def decorate(fn):
        @functools.wraps(fn)
        async def wrapper(*args, **kwargs):
            for attempt in range(1, times + 1):
                try:
                    return await fn(*args, **kwargs)
                except ConnectionError:
                    log.warning("attempt %d failed", attempt)
                    await asyncio.sleep(0.1 * attempt)
            raise ConnectionError(f"gave up after {times} attempts")
        return wrapper
    return decorate


@retry(times=3)
async def fetch_user(client, user_id: int) -> dict:
    response = await client.get(f"/users/{user_id}")
    response.raise_for_status()
    return response.json()


def chunks(rows, size):
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def top_spenders(orders, n=3):
    # gsd-debug-probe:start golden-run p1
    try:
        if __import__("os").environ.get("GSD_DEBUG_PROBE_SINK"):
            if "gsd-debug-probe/golden-run/p1" not in __import__("sys").__dict__:
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
                )), {"__name__": "gsd-debug-probe/golden-run/p1", "K": "gsd-debug-probe/golden-run/p1", "S": "{\"hypothesis_ids\":[\"h1\"],\"location\":\"input.py:42\",\"message\":\"checkpoint\",\"probe_id\":\"p1\",\"schema_version\":1,\"session_id\":\"golden-run\""})
            if __import__("sys").__dict__["gsd-debug-probe/golden-run/p1"](0):
                try:
                    __import__("sys").__dict__["gsd-debug-probe/golden-run/p1"](1, (
                    ))
                except Exception:
                    __import__("sys").__dict__["gsd-debug-probe/golden-run/p1"](2)
    except Exception:
        pass
    # gsd-debug-probe:end golden-run p1
    ranked = sorted(
        orders,
        key=lambda o: (o["total"], o["id"]),
        reverse=True,
    )
    return [o["id"] for o in ranked[:n]]
