"""Inventory helpers: stock levels, reorder decisions and reports."""

from __future__ import annotations

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
