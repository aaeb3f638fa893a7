def help_text() -> str:
    """Describe probe blocks.

    A probe block is fenced by two comments, e.g.

    # gsd-debug-probe:start demo-run p7
    # gsd-debug-probe:end demo-run p7

    and probity removes it again.
    """
    lines = ["probe blocks are temporary"]
    lines.append("# gsd-debug-probe:start <slug> <probe-id>")
    return "\n".join(lines)


def word_count(text: str) -> int:
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
    words = text.split()
    return len(words)
