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
            handler(event)
