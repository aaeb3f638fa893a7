"""Waits for acquirer settlement of card captures before payouts are released to merchants."""
import time
from dataclasses import dataclass
from typing import Callable, Dict, Optional

SETTLED = "settled"
FAILED = "failed"
PENDING = "pending"


class SettlementTimeout(TimeoutError):
    pass


@dataclass
class Capture:
    ref: str
    amount_cents: int
    status: str = PENDING
    settled_at: Optional[float] = None


class SettlementWatcher:
    def __init__(self, fetch_status: Callable[[str], str], initial_interval: float = 0.05,
                 max_interval: float = 0.25, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        self._fetch = fetch_status
        self._initial = initial_interval
        self._max = max_interval
        self._clock = clock
        self._sleep = sleep

    def _next_interval(self, current: float) -> float:
        # exponential backoff, capped by max_interval
        return current * 2

    def wait_settled(self, ref: str, timeout: float = 30.0) -> str:
        deadline = self._clock() + timeout
        interval = self._initial
        while True:
            status = self._fetch(ref)
            if status in (SETTLED, FAILED):
                return status
            remaining = deadline - self._clock()
            if remaining <= 0:
                raise SettlementTimeout(f"{ref} still {status} after {timeout}s")
            self._sleep(interval)
            interval = self._next_interval(interval)


def release_payout(captures: Dict[str, Capture], watcher: SettlementWatcher, timeout: float = 30.0) -> int:
    """Returns the payable total once every capture has settled; failed captures are excluded."""
    total = 0
    for ref, capture in captures.items():
        capture.status = watcher.wait_settled(ref, timeout=timeout)
        if capture.status == SETTLED:
            capture.settled_at = time.time()
            total += capture.amount_cents
    return total
