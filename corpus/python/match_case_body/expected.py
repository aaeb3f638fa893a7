def describe(event: dict) -> str:
    match event:
        case {"type": "click", "x": x, "y": y}:
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
            where = (x, y)
            return f"click at {where}"
        case {"type": "key", "key": key}:
            return f"key {key}"
        case _:
            return "unknown"


def dispatch(events, handlers):
    for event in events:
        kind = event.get("type", "unknown")
        handler = handlers.get(kind)
        if handler is None:
            continue
        with open("/dev/null", "w") as sink:
            sink.write(describe(event))
            handler(event)
