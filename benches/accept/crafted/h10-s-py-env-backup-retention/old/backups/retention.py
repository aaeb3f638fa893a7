"""Pruning of nightly database snapshots according to a retention policy."""
import os
from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True)
class Policy:
    daily: int = 7
    weekly: int = 4
    monthly: int = 12


@dataclass(frozen=True)
class Snapshot:
    name: str
    taken: datetime


def _bucket_keys(snap):
    t = snap.taken
    iso = t.isocalendar()
    return {
        "daily": t.date(),
        "weekly": (t.year, iso[1]),
        "monthly": (t.year, t.month),
    }


def select_kept(snapshots, policy=Policy()):
    """Names of snapshots to keep: newest per day/week/month, up to each limit."""
    keep = set()
    ordered = sorted(snapshots, key=lambda s: s.taken, reverse=True)
    for kind in ("daily", "weekly", "monthly"):
        limit = getattr(policy, kind)
        seen = []
        for snap in ordered:
            key = _bucket_keys(snap)[kind]
            if key in seen:
                continue
            seen.append(key)
            if len(seen) > limit:
                break
            keep.add(snap.name)
    return keep


def prune(store, policy=Policy(), now=None):
    now = now or datetime.utcnow()
    snaps = [s for s in store.list() if s.taken <= now]
    kept = select_kept(snaps, policy)
    removed = []
    for s in snaps:
        if s.name in kept:
            continue
        if now - s.taken < timedelta(hours=24):
            continue
        store.delete(s.name)
        removed.append(s.name)
    return removed
