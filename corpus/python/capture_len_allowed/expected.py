import math


class Circle:
    def __init__(self, r: float):
        self.r = r

    def area(self) -> float:
        return math.pi * self.r ** 2


class Square:
    def __init__(self, side: float):
        self.side = side

    def area(self) -> float:
        s = self.side
        return s * s


def total_area(shapes) -> float:
    # gsd-debug-probe:start golden-run p1
    # fmt: off
    try:
        try: __GSDDBG1_rt1__
        except NameError: (lambda p: __import__("runpy").run_path(p + ".py", {"g": globals()}))(
            __import__("os").environ["GSD_DEBUG_PROBE_RUNTIME"])
        if "gsd-debug-probe/golden-run/p1" in __GSDDBG1_rt1__: __GSDDBG1_rt1__[""](lambda: (
            ("n", len(shapes)),
        ), "gsd-debug-probe/golden-run/p1")
    except Exception: globals().setdefault("__GSDDBG1_rt1__", {})
    # fmt: on
    # gsd-debug-probe:end golden-run p1
    return sum(shape.area() for shape in shapes)
