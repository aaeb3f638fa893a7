import asyncio

import pytest

from pricing.quotes import NoQuote, fetch_best_quote


class FakeVenue:
    def __init__(self, name, bid, ask, failures=0):
        self.name = name
        self.bid, self.ask = bid, ask
        self.failures = failures
        self.calls = 0

    async def quote(self, symbol):
        self.calls += 1
        if self.calls <= self.failures:
            raise ConnectionError("reset by peer")
        return self.bid, self.ask


def test_picks_tightest_spread():
    venues = [FakeVenue("a", 99.0, 101.0), FakeVenue("b", 99.5, 100.5)]
    best = asyncio.run(fetch_best_quote(venues, "XYZ"))
    assert best.venue == "b"


def test_flaky_venue_does_not_stall_the_quote():
    venues = [FakeVenue("steady", 99.0, 101.0), FakeVenue("flaky", 99.8, 100.2, failures=1)]

    async def run():
        return await asyncio.wait_for(fetch_best_quote(venues, "XYZ"), timeout=300)

    best = asyncio.run(run())
    assert best.venue == "flaky"


def test_no_venues():
    with pytest.raises(NoQuote):
        asyncio.run(fetch_best_quote([], "XYZ"))
