"""Parse the dates users type into report filters ("2024-03-01", "yesterday", "3 days ago")."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

RELATIVE_RE = re.compile(r"^(\d+)\s+(minute|hour|day|week)s?\s+ago$")
UNITS = {
    "minute": timedelta(minutes=1),
    "hour": timedelta(hours=1),
    "day": timedelta(days=1),
    "week": timedelta(weeks=1),
}
FORMATS = ("%Y-%m-%d", "%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%d/%m/%Y")


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _parse_absolute(text: str) -> datetime:
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        for fmt in FORMATS:
            try:
                parsed = datetime.strptime(text, fmt)
                break
            except ValueError:
                continue
        else:
            raise ValueError(f"unrecognised date {text!r}") from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    return parsed


def parse_when(text: str, now: datetime | None = None) -> datetime:
    """Return an aware UTC datetime for a user-supplied date expression."""
    now = now or _now()
    cleaned = " ".join(text.strip().lower().split())
    if not cleaned:
        raise ValueError("empty date")
    if cleaned == "now":
        return now
    if cleaned == "today":
        return now.replace(hour=0, minute=0, second=0, microsecond=0)
    if cleaned == "yesterday":
        return (now - timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    match = RELATIVE_RE.match(cleaned)
    if match:
        amount, unit = int(match.group(1)), match.group(2)
        return now - amount * UNITS[unit]
    return _parse_absolute(text.strip()).astimezone(timezone.utc)


def parse_range(start: str, end: str | None = None, now: datetime | None = None):
    now = now or _now()
    lower = parse_when(start, now)
    upper = parse_when(end, now) if end else now
    if lower > upper:
        raise ValueError("the start of the range is after its end")
    return lower, upper
