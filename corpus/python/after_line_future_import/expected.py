"""Inventory helpers: stock levels, reorder decisions and reports."""

from __future__ import annotations
# gsd-debug-probe:start golden-run p1
# fmt: off
try:
    try: __GSDDBG1_rt1__
    except NameError: (lambda p: __import__("runpy").run_path(p + ".py", {"g": globals()}))(
        __import__("os").environ["GSD_DEBUG_PROBE_RUNTIME"])
    if "gsd-debug-probe/golden-run/p1" in __GSDDBG1_rt1__: __GSDDBG1_rt1__[""](lambda: (
    ), "gsd-debug-probe/golden-run/p1")
except Exception: globals().setdefault("__GSDDBG1_rt1__", {})
# fmt: on
# gsd-debug-probe:end golden-run p1

import dataclasses
from typing import Iterable


@dataclasses.dataclass
class Item:
    sku: str
    qty: int
    reorder_at: int = 5


class Inventory:
    """A stock ledger keyed by SKU."""

    def __init__(self, items: Iterable[Item] = ()):
        self._items = {i.sku: i for i in items}

    def take(self, sku: str, n: int) -> int:
        """Remove n units and return what is left."""
        item = self._items[sku]
        if n > item.qty:
            raise ValueError(f"only {item.qty} of {sku} left")
        item.qty -= n
        return item.qty

    def snapshot(self) -> None:
        """Reserved: will persist the stock levels."""

    def needs_reorder(self) -> list[str]:
        low = [
            sku
            for sku, item in self._items.items()
            if item.qty <= item.reorder_at
        ]
        return sorted(low)
