"""Daily feeding rota for the keepers: parsed from the plain-text board the curators edit,
one feed per line, e.g.

    08:30  penguins   herring   2.5kg  keeper=ana
    14:00  otters     sprats    0.8kg  keeper=tom   # enrichment feed
"""
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import time

TIME_RE = re.compile(r"^(\d{2}):(\d{2})$")
QTY_RE = re.compile(r"^(\d+(?:\.\d+)?)(kg|g)$")

FOOD_GROUPS = {
    "herring": "fish", "sprats": "fish", "capelin": "fish",
    "browse": "plants", "lettuce": "plants", "pellets": "dry",
    "mice": "whole prey", "crickets": "insects",
}

DAY_START = time(6, 0)


class RotaError(ValueError):
    def __init__(self, line_no, message):
        super().__init__(f"line {line_no}: {message}")
        self.line_no = line_no


@dataclass(frozen=True)
class Feed:
    at: time
    animal: str
    food: str
    kg: float
    keeper: str

    @property
    def group(self):
        return FOOD_GROUPS.get(self.food, "other")


def parse_time(token, line_no):
    m = TIME_RE.match(token)
    if not m:
        raise RotaError(line_no, f"bad time {token!r}")
    hour, minute = int(m.group(1)), int(m.group(2))
    if hour > 23 or minute > 59:
        raise RotaError(line_no, f"bad time {token!r}")
    return time(hour, minute)


def parse_quantity(token, line_no):
    m = QTY_RE.match(token.lower())
    if not m:
        raise RotaError(line_no, f"bad quantity {token!r}")
    value = float(m.group(1))
    return value / 1000 if m.group(2) == "g" else value


def parse_line(line, line_no):
    body = line.split("#", 1)[0].strip()
    if not body:
        return None
    parts = body.split()
    if len(parts) != 5 or not parts[4].startswith("keeper="):
        raise RotaError(line_no, "expected: time animal food quantity keeper=name")
    at = parse_time(parts[0], line_no)
    kg = parse_quantity(parts[3], line_no)
    return Feed(at, parts[1], parts[2], kg, parts[4][len("keeper="):])


def load_rota(text):
    feeds = []
    for n, line in enumerate(text.splitlines(), start=1):
        feed = parse_line(line, n)
        if feed is not None:
            feeds.append(feed)
    return sorted(feeds, key=lambda f: f.at)


def kg_by_group(feeds):
    totals = defaultdict(float)
    for f in feeds:
        totals[f.group] += f.kg
    return {g: round(v, 3) for g, v in totals.items()}


def keeper_sheet(feeds, keeper):
    return [f"{f.at:%H:%M} {f.animal} {f.kg:g}kg {f.food}" for f in feeds if f.keeper == keeper]


def next_feed(feeds, now=DAY_START):
    upcoming = [f for f in feeds if f.at >= now]
    return upcoming[0] if upcoming else None
