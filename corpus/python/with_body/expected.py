def describe(event: dict) -> str:
    match event:
        case {"type": "click", "x": x, "y": y}:
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
            # gsd-debug-probe:start golden-run p1
            # fmt: off
            try:
                if __import__("os").environ.get("GSD_DEBUG_PROBE_RUNTIME"):
                    __import__("sys").modules.get("GSDDBG1_rt1") or __import__("runpy").run_path(
                        __import__("os").environ["GSD_DEBUG_PROBE_RUNTIME"] + ".py")
                    __import__("GSDDBG1_rt1").hit("gsd-debug-probe/golden-run/p1", lambda: (
                        ("kind", kind),
                    ))
            except Exception: pass
            # fmt: on
            # gsd-debug-probe:end golden-run p1
            handler(event)
