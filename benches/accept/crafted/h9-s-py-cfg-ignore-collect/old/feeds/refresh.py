"""Refresh the podcast feeds a user follows.

fetch(url) is injected (an aiohttp call in production, a fake in tests) and
returns the raw JSON feed text.
"""
import asyncio
import json
import logging
from dataclasses import dataclass
from datetime import datetime, timezone

log = logging.getLogger(__name__)


class FeedError(Exception):
    """A feed could not be fetched or understood."""


@dataclass(frozen=True)
class Episode:
    guid: str
    title: str
    published: datetime
    duration_s: int


def parse_feed(raw):
    try:
        doc = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise FeedError(f"not JSON: {exc}") from exc
    episodes = []
    for item in doc.get("items", []):
        try:
            published = datetime.fromisoformat(item["date_published"])
        except (KeyError, ValueError) as exc:
            raise FeedError(f"bad date in {item.get('id')!r}") from exc
        if published.tzinfo is None:
            published = published.replace(tzinfo=timezone.utc)
        episodes.append(Episode(
            guid=item["id"],
            title=item.get("title", "").strip(),
            published=published,
            duration_s=int(item.get("_duration", 0)),
        ))
    return episodes


class Refresher:
    fetch_timeout = 8.0
    max_episodes = 200
    concurrency = 4

    def __init__(self, fetch):
        self._fetch = fetch
        self._sem = asyncio.Semaphore(self.concurrency)

    async def refresh_one(self, url):
        async with self._sem:
            try:
                raw = await asyncio.wait_for(self._fetch(url), timeout=self.fetch_timeout)
            except asyncio.TimeoutError as exc:
                raise FeedError(f"timed out fetching {url}") from exc
        episodes = parse_feed(raw)
        if len(episodes) > self.max_episodes:
            raise FeedError(f"{url}: {len(episodes)} episodes, more than {self.max_episodes}")
        return sorted(episodes, key=lambda e: e.published, reverse=True)

    async def refresh_all(self, urls):
        results = await asyncio.gather(*(self.refresh_one(u) for u in urls),
                                       return_exceptions=True)
        ok, failed = {}, {}
        for url, res in zip(urls, results):
            if isinstance(res, FeedError):
                log.warning("feed %s failed: %s", url, res)
                failed[url] = str(res)
            elif isinstance(res, BaseException):
                raise res
            else:
                ok[url] = res
        return ok, failed
