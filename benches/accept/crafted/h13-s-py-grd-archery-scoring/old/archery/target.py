"""Scoring arrows on a World Archery 10-zone target face.

Arrow positions come from the electronic target as (x, y) offsets of the shaft
centre from the face centre, in millimetres.  A face of diameter D has ten
rings, each D/20 wide; the inner half of the 10 ring is the X ring used to
break ties.

Line cutters: if the shaft touches the dividing line between two zones the
arrow scores the higher zone.  The shaft touches the line when its *edge*
(centre distance minus the shaft radius) reaches the line.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

FACE_SIZES_MM = {"122cm": 1220.0, "80cm": 800.0, "40cm": 400.0}
DEFAULT_SHAFT_MM = 5.5


@dataclass(frozen=True)
class Arrow:
    x: float
    y: float
    shaft_mm: float = DEFAULT_SHAFT_MM

    @property
    def distance(self) -> float:
        return math.hypot(self.x, self.y)


@dataclass(frozen=True)
class Score:
    points: int
    is_x: bool = False

    def label(self) -> str:
        if self.is_x:
            return "X"
        return "M" if self.points == 0 else str(self.points)


def ring_width(face: str) -> float:
    try:
        return FACE_SIZES_MM[face] / 20.0
    except KeyError:
        raise ValueError(f"unknown face size {face!r}") from None


def score_arrow(arrow: Arrow, face: str = "122cm") -> Score:
    """Score one arrow, giving line cutters the higher value."""
    width = ring_width(face)
    dist = arrow.distance
    edge = max(0.0, dist - arrow.shaft_mm / 2)
    is_x = edge <= width / 2
    # zone index counted outward from the centre: 0 is the 10 ring
    zone = int(dist // width)
    if zone >= 10:
        return Score(0)
    return Score(10 - zone, is_x=is_x and zone == 0)


def score_end(arrows: list[Arrow], face: str = "122cm") -> dict:
    """Total an end of arrows, sorted high to low as on the score sheet."""
    scores = sorted((score_arrow(a, face) for a in arrows),
                    key=lambda s: (s.points, s.is_x), reverse=True)
    return {
        "sheet": [s.label() for s in scores],
        "total": sum(s.points for s in scores),
        "tens": sum(1 for s in scores if s.points == 10),
        "xs": sum(1 for s in scores if s.is_x),
    }


def running_totals(ends: list[dict]) -> list[int]:
    out, total = [], 0
    for end in ends:
        total += end["total"]
        out.append(total)
    return out
