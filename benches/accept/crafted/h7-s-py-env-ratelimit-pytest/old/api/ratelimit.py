"""Token-bucket rate limiting for the public API, one bucket per API key."""
from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass


class RateLimited(Exception):
    def __init__(self, key: str, retry_after: float):
        super().__init__(f"rate limit exceeded for {key}")
        self.key = key
        self.retry_after = retry_after


@dataclass
class Bucket:
    capacity: float
    refill_per_second: float
    tokens: float
    updated: float

    def refill(self, now: float) -> None:
        elapsed = max(0.0, now - self.updated)
        self.tokens = min(self.capacity, self.tokens + elapsed * self.refill_per_second)
        self.updated = now


class RateLimiter:
    def __init__(self, capacity: int = 60, per_minute: int = 60, clock=time.monotonic):
        self.capacity = float(capacity)
        self.rate = per_minute / 60.0
        self.clock = clock
        self._buckets: dict[str, Bucket] = {}
        self._lock = threading.Lock()
        self.debug = os.environ.get("RATELIMIT_DEBUG") == "1"

    def _bucket(self, key: str, now: float) -> Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = Bucket(self.capacity, self.rate, self.capacity, now)
            self._buckets[key] = bucket
        return bucket

    def acquire(self, key: str, cost: float = 1.0) -> float:
        """Take `cost` tokens from the key's bucket; returns the tokens left."""
        if cost > self.capacity:
            raise ValueError("cost larger than the bucket")
        with self._lock:
            now = self.clock()
            bucket = self._bucket(key, now)
            bucket.refill(now)
            if bucket.tokens < cost:
                retry_after = (cost - bucket.tokens) / self.rate
                raise RateLimited(key, retry_after)
            bucket.tokens -= cost
            if self.debug:
                print(f"ratelimit {key}: {bucket.tokens:.1f} left")
            return bucket.tokens

    def reset(self, key: str) -> None:
        with self._lock:
            self._buckets.pop(key, None)

    def headers(self, key: str) -> dict[str, str]:
        with self._lock:
            now = self.clock()
            bucket = self._bucket(key, now)
            bucket.refill(now)
            return {
                "X-RateLimit-Limit": str(int(self.capacity)),
                "X-RateLimit-Remaining": str(int(bucket.tokens)),
            }
