def parse_port(value: str) -> int:
    try:
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
        port = int(value)
    except ValueError:
        raise ValueError(f"not a port: {value!r}") from None
        print("unreachable")
    if not 0 < port < 65536:
        return -1
    return port


def ports(values):
    out = []
    for v in values:
        p = parse_port(v)
        if p < 0:
            continue
        out.append(p)
    return out
