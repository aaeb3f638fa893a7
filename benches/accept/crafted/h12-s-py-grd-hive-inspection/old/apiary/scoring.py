"""Colony health scoring from apiary inspection sheets.

Inspectors record, per hive, how many brood frames were seen, whether the
queen (or fresh eggs) was spotted, and a varroa mite count from a sugar
roll of ~300 bees. The scorer turns that into an action list for the
next visit.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Action(str, Enum):
    NONE = "none"
    TREAT_VARROA = "treat-varroa"
    REQUEEN = "requeen"
    FEED = "feed"
    MERGE = "merge"


SUGAR_ROLL_BEES = 300
VARROA_THRESHOLD_PCT = 3.0
MIN_BROOD_FRAMES = 3


@dataclass(frozen=True)
class Inspection:
    hive_id: str
    brood_frames: int
    queen_seen: bool
    eggs_seen: bool
    mites_in_roll: int
    stores_kg: float


class ColonyScorer:
    def __init__(self, season: str = "summer") -> None:
        self.season = season

    def infestation_pct(self, insp: Inspection) -> float:
        return insp.mites_in_roll / SUGAR_ROLL_BEES * 100

    def queenright(self, insp: Inspection) -> bool:
        return insp.queen_seen and insp.eggs_seen

    def actions(self, insp: Inspection) -> list[Action]:
        todo: list[Action] = []
        if self.infestation_pct(insp) >= VARROA_THRESHOLD_PCT:
            todo.append(Action.TREAT_VARROA)
        if not self.queenright(insp):
            if insp.brood_frames < MIN_BROOD_FRAMES:
                todo.append(Action.MERGE)
            else:
                todo.append(Action.REQUEEN)
        min_stores = 18.0 if self.season == "autumn" else 6.0
        if insp.stores_kg < min_stores:
            todo.append(Action.FEED)
        return todo or [Action.NONE]

    def plan(self, inspections: list[Inspection]) -> dict[str, list[Action]]:
        plan: dict[str, list[Action]] = {}
        for insp in inspections:
            plan[insp.hive_id] = self.actions(insp)
        return plan
