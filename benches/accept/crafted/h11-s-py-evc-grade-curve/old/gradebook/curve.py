"""Course gradebook: weighted category scores, an optional curve and letter grades."""
from __future__ import annotations

import math
import statistics
from typing import Mapping, Sequence

LETTER_CUTOFFS: Sequence[tuple[float, str]] = (
    (90.0, "A"),
    (80.0, "B"),
    (70.0, "C"),
    (60.0, "D"),
)

DEFAULT_WEIGHTS = {"homework": 0.3, "midterm": 0.3, "final": 0.4}


def category_average(scores: Sequence[float], drop_lowest: int = 0) -> float:
    if not scores:
        return 0.0
    kept = sorted(scores)[drop_lowest:] if drop_lowest < len(scores) else list(scores)
    return sum(kept) / len(kept)


def weighted_score(student: Mapping[str, Sequence[float]], weights: Mapping[str, float] = DEFAULT_WEIGHTS) -> float:
    total_weight = sum(weights.values())
    if not math.isclose(total_weight, 1.0, abs_tol=1e-9):
        raise ValueError(f"weights sum to {total_weight}, expected 1.0")
    score = 0.0
    for category, weight in weights.items():
        drop = 1 if category == "homework" else 0
        score += weight * category_average(student.get(category, ()), drop_lowest=drop)
    return round(score, 2)


def curve_to_mean(scores: Sequence[float], target_mean: float = 78.0, cap: float = 100.0) -> list[float]:
    """Shift every score so the class mean lands on target_mean; never lowers a score."""
    if not scores:
        return []
    shift = max(0.0, target_mean - statistics.fmean(scores))
    return [min(cap, round(s + shift, 2)) for s in scores]


def letter(score: float) -> str:
    for cutoff, grade in LETTER_CUTOFFS:
        if score > cutoff:
            return grade
    return "F"


def grade_roster(roster: Mapping[str, Mapping[str, Sequence[float]]], curve: bool = False) -> dict[str, str]:
    names = list(roster)
    raw = [weighted_score(roster[n]) for n in names]
    final = curve_to_mean(raw) if curve else raw
    return {name: letter(score) for name, score in zip(names, final)}


def distribution(grades: Mapping[str, str]) -> dict[str, int]:
    counts = {g: 0 for _, g in LETTER_CUTOFFS}
    counts["F"] = 0
    for g in grades.values():
        counts[g] += 1
    return counts
