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
        if __import__("os").environ.get("GSD_DEBUG_PROBE_RUNTIME"):
            __import__("sys").modules.get("GSDDBG1_rt1") or __import__("runpy").run_path(
                __import__("os").environ["GSD_DEBUG_PROBE_RUNTIME"] + ".py")
            __import__("GSDDBG1_rt1").hit("gsd-debug-probe/golden-run/p1", lambda: (
            ))
    except Exception: pass
    # fmt: on
    # gsd-debug-probe:end golden-run p1
    words = text.split()
    return len(words)
