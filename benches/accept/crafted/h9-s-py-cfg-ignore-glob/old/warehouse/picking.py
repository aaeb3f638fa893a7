"""Pick-list allocation: turn order lines into bin-level picks.

Stock lives in bins; a line is filled from the bins holding its SKU, oldest
lot first (FEFO for perishables), never taking from a bin on hold.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Iterable

MAX_BINS_PER_LINE = 4


class AllocationError(Exception):
    pass


@dataclass
class Bin:
    code: str
    sku: str
    qty: int
    lot_expiry: date | None = None
    on_hold: bool = False


@dataclass
class Pick:
    bin_code: str
    sku: str
    qty: int


@dataclass
class PickList:
    order_id: str
    picks: list[Pick] = field(default_factory=list)
    short: dict[str, int] = field(default_factory=dict)

    def total_units(self) -> int:
        return sum(p.qty for p in self.picks)


def _candidate_bins(bins: Iterable[Bin], sku: str) -> list[Bin]:
    usable = [b for b in bins if b.sku == sku and b.qty > 0 and not b.on_hold]
    # bins without an expiry sort last: they never go off
    return sorted(usable, key=lambda b: (b.lot_expiry is None, b.lot_expiry or date.max, b.code))


def allocate_line(bins: list[Bin], sku: str, wanted: int) -> tuple[list[Pick], int]:
    if wanted <= 0:
        raise AllocationError(f"quantity must be positive for {sku}: {wanted}")
    picks: list[Pick] = []
    remaining = wanted
    for b in _candidate_bins(bins, sku):
        if len(picks) >= MAX_BINS_PER_LINE:
            break
        take = min(b.qty, remaining)
        picks.append(Pick(b.code, sku, take))
        b.qty -= take
        remaining -= take
        if remaining == 0:
            break
    return picks, remaining


def build_pick_list(order_id: str, lines: dict[str, int], bins: list[Bin]) -> PickList:
    pl = PickList(order_id)
    for sku, wanted in sorted(lines.items()):
        picks, missing = allocate_line(bins, sku, wanted)
        pl.picks.extend(picks)
        if missing:
            pl.short[sku] = missing
    return pl


def summarize(pl: PickList) -> dict:
    by_bin: dict[str, int] = {}
    for p in pl.picks:
        by_bin[p.bin_code] = by_bin.get(p.bin_code, 0) + p.qty
    units = pl.total_units()
    wanted = units + sum(pl.short.values())
    return {
        "order": pl.order_id,
        "units": units,
        "bins": len(by_bin),
        "short": dict(pl.short),
        "fill_rate": int(100 * units / wanted) / 100 if wanted else 1.0,
    }
