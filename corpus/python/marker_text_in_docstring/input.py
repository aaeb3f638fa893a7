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
    words = text.split()
    return len(words)
