import asyncio
import json

import pytest

from feeds.refresh import FeedError, Refresher, parse_feed


def feed(*items):
    return json.dumps({"version": "https://jsonfeed.org/version/1.1", "items": list(items)})


EP1 = {"id": "e1", "title": " Pilot ", "date_published": "2026-01-05T06:00:00+00:00", "_duration": "1800"}
EP2 = {"id": "e2", "title": "Second", "date_published": "2026-01-12T06:00:00"}


def test_parse_naive_date_is_utc():
    eps = parse_feed(feed(EP1, EP2))
    assert eps[0].title == "Pilot"
    assert eps[1].published.tzinfo is not None


def test_parse_rejects_missing_date():
    with pytest.raises(FeedError):
        parse_feed(feed({"id": "e3", "title": "no date"}))


def test_slow_feed_is_reported_not_raised():
    async def fetch(url):
        if "slow" in url:
            await asyncio.sleep(5)
        return feed(EP1)

    r = Refresher(fetch)
    r.fetch_timeout = 0.05
    ok, failed = asyncio.run(r.refresh_all(["https://a.example/feed", "https://slow.example/feed"]))
    assert list(ok) == ["https://a.example/feed"]
    assert "timed out" in failed["https://slow.example/feed"]


def test_oversized_feed_is_refused():
    async def fetch(url):
        return feed(*[dict(EP1, id=f"e{i}") for i in range(250)])

    ok, failed = asyncio.run(Refresher(fetch).refresh_all(["https://big.example/feed"]))
    assert ok == {}
    assert "more than 200" in failed["https://big.example/feed"]


def test_many_feeds_refresh_concurrently():
    async def fetch(url):
        await asyncio.sleep(0.5)
        return feed(EP1, EP2)

    urls = [f"https://f{i}.example/feed" for i in range(20)]
    ok, failed = asyncio.run(asyncio.wait_for(Refresher(fetch).refresh_all(urls), timeout=2))
    assert len(ok) == 20 and not failed
    assert [e.guid for e in ok[urls[0]]] == ["e2", "e1"]
