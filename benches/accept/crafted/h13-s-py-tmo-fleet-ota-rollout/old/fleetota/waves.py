"""Staged over-the-air firmware rollout for a vehicle fleet.

Devices are updated in waves.  After a wave is pushed, the coordinator polls
the device registry until every device in the wave has acknowledged the new
build, backing off between polls (exponentially, but never longer than
``max_poll_s``) so the registry is not hammered.  If the wave is not fully
acknowledged before the deadline, the rollout is halted.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterable, Protocol


class Clock(Protocol):
    def now(self) -> float: ...
    def sleep(self, seconds: float) -> None: ...


class SystemClock:
    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


class WaveTimeout(RuntimeError):
    def __init__(self, pending: set[str]):
        super().__init__(f"{len(pending)} device(s) did not acknowledge: {sorted(pending)}")
        self.pending = pending


@dataclass
class PollPolicy:
    first_poll_s: float = 1.0
    max_poll_s: float = 5.0
    factor: float = 2.0


def split_waves(devices: list[str], sizes: Iterable[int]) -> list[list[str]]:
    """Cut the fleet into waves of the given sizes; the rest form a last wave."""
    waves, start = [], 0
    for size in sizes:
        if start >= len(devices):
            break
        waves.append(devices[start:start + size])
        start += size
    if start < len(devices):
        waves.append(devices[start:])
    return waves


def wait_for_acks(
    wave: list[str],
    build: str,
    reported_build: Callable[[str], str | None],
    timeout_s: float,
    policy: PollPolicy | None = None,
    clock: Clock | None = None,
) -> float:
    """Block until every device in ``wave`` reports ``build``; return seconds waited."""
    policy = policy or PollPolicy()
    clock = clock or SystemClock()
    started = clock.now()
    pending = set(wave)
    delay = policy.first_poll_s
    while True:
        pending = {d for d in pending if reported_build(d) != build}
        if not pending:
            return clock.now() - started
        if clock.now() - started + delay > timeout_s:
            raise WaveTimeout(pending)
        clock.sleep(delay)
        # back off before the next poll
        delay = delay * policy.factor
