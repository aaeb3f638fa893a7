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
    return sum(shape.area() for shape in shapes)
