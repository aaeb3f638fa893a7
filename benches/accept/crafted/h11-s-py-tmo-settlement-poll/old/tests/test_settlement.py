import itertools

import pytest

from payouts.settlement import Capture, SettlementTimeout, SettlementWatcher, release_payout


def scripted(*statuses):
    it = itertools.chain(statuses, itertools.repeat(statuses[-1]))
    return lambda ref: next(it)


def test_returns_once_settled():
    w = SettlementWatcher(scripted("pending", "pending", "settled"))
    assert w.wait_settled("cap_1", timeout=1.0) == "settled"


def test_settles_after_a_dozen_polls():
    w = SettlementWatcher(scripted(*(["pending"] * 12), "settled"))
    assert w.wait_settled("cap_2", timeout=8.0) == "settled"


def test_gives_up_eventually():
    w = SettlementWatcher(scripted("pending"), initial_interval=0.01, max_interval=0.01)
    with pytest.raises(SettlementTimeout):
        w.wait_settled("cap_3", timeout=0.05)


def test_payout_skips_failed():
    statuses = {"a": "settled", "b": "failed"}
    w = SettlementWatcher(lambda ref: statuses[ref])
    caps = {"a": Capture("a", 1000), "b": Capture("b", 500)}
    assert release_payout(caps, w) == 1000
