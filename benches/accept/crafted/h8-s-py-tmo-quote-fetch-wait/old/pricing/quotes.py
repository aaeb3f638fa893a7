"""Fetch a best quote from several pricing venues concurrently."""
import asyncio
import logging
from dataclasses import dataclass

log = logging.getLogger(__name__)

RETRIES = 3
INITIAL_BACKOFF = 2.0
VENUE_TIMEOUT = 0.5


@dataclass(frozen=True)
class Quote:
    venue: str
    symbol: str
    bid: float
    ask: float

    @property
    def spread(self):
        return self.ask - self.bid


class NoQuote(Exception):
    pass


async def _fetch_one(venue, symbol):
    delay = INITIAL_BACKOFF
    for attempt in range(1, RETRIES + 1):
        try:
            bid, ask = await asyncio.wait_for(venue.quote(symbol), VENUE_TIMEOUT)
            return Quote(venue.name, symbol, bid, ask)
        except (asyncio.TimeoutError, ConnectionError) as exc:
            log.info("venue %s attempt %d failed: %s", venue.name, attempt, exc)
            if attempt == RETRIES:
                return None
            await asyncio.sleep(delay)
            delay *= 2
    return None


async def fetch_best_quote(venues, symbol):
    """Query every venue concurrently and return the quote with the tightest spread."""
    if not venues:
        raise NoQuote("no venues configured")
    results = await asyncio.gather(*(_fetch_one(v, symbol) for v in venues))
    quotes = [q for q in results if q is not None and q.ask >= q.bid]
    if not quotes:
        raise NoQuote(symbol)
    return min(quotes, key=lambda q: (q.spread, q.venue))


def mid(quote):
    return (quote.bid + quote.ask) / 2
