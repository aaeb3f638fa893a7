def parse_port(value: str) -> int:
    try:
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
