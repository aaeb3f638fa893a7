"""Unlock a compartment of a parcel locker and wait for the door sensor.

The locker controller answers status queries over a serial bridge; after
an UNLOCK command the latch needs a moment before the reed switch reports
the door open. We poll with a growing back-off so we do not flood the bus.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Protocol


class LockerBus(Protocol):
    def send(self, command: str, slot: int) -> None: ...
    def door_state(self, slot: int) -> str: ...


class DoorTimeout(Exception):
    pass


@dataclass
class PollPolicy:
    first_delay: float = 0.05
    factor: float = 2.0
    max_delay: float = 0.4


@dataclass
class Compartment:
    bus: LockerBus
    slot: int
    policy: PollPolicy = field(default_factory=PollPolicy)
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep

    def _next_delay(self, delay: float) -> float:
        grown = delay * self.policy.factor
        return max(grown, self.policy.max_delay)

    def wait_open(self, timeout: float) -> float:
        """Block until the door reports OPEN; return seconds waited."""
        start = self.clock()
        delay = self.policy.first_delay
        while True:
            if self.bus.door_state(self.slot) == "OPEN":
                return self.clock() - start
            if self.clock() - start + delay > timeout:
                raise DoorTimeout(f"slot {self.slot} still closed after {timeout}s")
            self.sleep(delay)
            delay = self._next_delay(delay)

    def release(self, pickup_code: str, timeout: float = 3.0) -> float:
        if not pickup_code.isdigit() or len(pickup_code) != 6:
            raise ValueError("pickup code must be six digits")
        self.bus.send("UNLOCK", self.slot)
        return self.wait_open(timeout)
