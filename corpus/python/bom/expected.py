import math


class Circle:
    def __init__(self, r: float):
        self.r = r

    def area(self) -> float:
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
        return math.pi * self.r ** 2


class Square:
    def __init__(self, side: float):
        self.side = side

    def area(self) -> float:
        s = self.side
        return s * s


def total_area(shapes) -> float:
    return sum(shape.area() for shape in shapes)
