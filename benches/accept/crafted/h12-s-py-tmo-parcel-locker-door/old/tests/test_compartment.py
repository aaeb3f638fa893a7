import pytest

from locker.compartment import Compartment, DoorTimeout


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds


class FakeBus:
    def __init__(self, clock, opens_at):
        self.clock = clock
        self.opens_at = opens_at
        self.sent = []

    def send(self, command, slot):
        self.sent.append((command, slot))

    def door_state(self, slot):
        return "OPEN" if self.clock() >= self.opens_at else "CLOSED"


def make(opens_at):
    clock = FakeClock()
    bus = FakeBus(clock, opens_at)
    return Compartment(bus, 7, clock=clock, sleep=clock.sleep), bus


def test_release_sends_unlock_and_waits():
    comp, bus = make(opens_at=1.3)
    waited = comp.release("482913", timeout=2.0)
    assert bus.sent == [("UNLOCK", 7)]
    assert waited >= 1.3


def test_stuck_door_times_out():
    comp, _ = make(opens_at=99.0)
    with pytest.raises(DoorTimeout):
        comp.release("482913", timeout=2.0)


def test_rejects_bad_code():
    comp, _ = make(opens_at=0.0)
    with pytest.raises(ValueError):
        comp.release("12ab")
