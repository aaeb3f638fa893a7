"""Brute-force protection for the login form.

Failures are counted per (username, client address) in a sliding window;
past the limit the account is locked for LOCKOUT_SECONDS and every attempt,
right or wrong, is refused until the lock expires.
"""
from __future__ import annotations

import sys
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field

MAX_FAILED_ATTEMPTS = 5
WINDOW_SECONDS = 15 * 60
LOCKOUT_SECONDS = 30 * 60


class AccountLocked(Exception):
    def __init__(self, username: str, retry_after: float):
        super().__init__(f"account {username!r} locked, retry in {retry_after:.0f}s")
        self.username = username
        self.retry_after = retry_after


@dataclass
class LoginThrottle:
    clock: callable = time.monotonic
    _failures: dict = field(default_factory=lambda: defaultdict(deque))
    _locked_until: dict = field(default_factory=dict)

    def _key(self, username: str, address: str) -> tuple[str, str]:
        return (username.strip().lower(), address)

    def _prune(self, attempts: deque, now: float) -> None:
        while attempts and now - attempts[0] > WINDOW_SECONDS:
            attempts.popleft()

    def check(self, username: str, address: str) -> None:
        """Raise AccountLocked if this user may not try to log in now."""
        key = self._key(username, address)
        until = self._locked_until.get(key)
        now = self.clock()
        if until is not None:
            if now < until:
                raise AccountLocked(username, until - now)
            del self._locked_until[key]
            self._failures.pop(key, None)

    def record_failure(self, username: str, address: str) -> None:
        key = self._key(username, address)
        now = self.clock()
        attempts = self._failures[key]
        attempts.append(now)
        self._prune(attempts, now)
        if len(attempts) >= MAX_FAILED_ATTEMPTS:
            self._locked_until[key] = now + LOCKOUT_SECONDS
            print(f"lockout: {key[0]} from {address}", file=sys.stderr)

    def record_success(self, username: str, address: str) -> None:
        key = self._key(username, address)
        self._failures.pop(key, None)
        self._locked_until.pop(key, None)

    def remaining(self, username: str, address: str) -> int:
        key = self._key(username, address)
        attempts = self._failures.get(key, deque())
        self._prune(attempts, self.clock())
        return max(0, MAX_FAILED_ATTEMPTS - len(attempts))
