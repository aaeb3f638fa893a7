"""probity end-to-end program: show a list of words. buggy: the words run together; fixed: comma-separated."""
import os


def display_list(words):
    joined = "".join(words)
    return joined


def main():
    shown = display_list(["alpha", "beta", "gamma"])
    sink = "set" if os.environ.get("GSD_DEBUG_PROBE_SINK") else "unset"
    print("E2E-OUTPUT list=[%s] sink=%s" % (shown, sink))


if __name__ == "__main__":
    main()
