"""Business-day arithmetic over a regional holiday calendar."""
from datetime import date, timedelta

FIXED = {(1, 1), (5, 1), (12, 25), (12, 26)}


def easter(year):
    a = year % 19
    b, c = divmod(year, 100)
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 19 * l) // 433
    month = (h + l - 7 * m + 90) // 25
    day = (h + l - 7 * m + 33 * month + 19) % 32
    return date(year, month, day)


def holidays(year):
    days = {date(year, m, d) for m, d in FIXED}
    e = easter(year)
    days |= {e - timedelta(days=2), e + timedelta(days=1)}
    for d in list(days):
        if d.month in (1, 5) and d.weekday() >= 5:
            days.add(d + timedelta(days=7 - d.weekday()))
    return days


def is_business_day(d):
    return d.weekday() < 5 and d not in holidays(d.year)


def add_business_days(start, n):
    d = start
    step = 1 if n >= 0 else -1
    left = abs(n)
    while left:
        d += timedelta(days=step)
        if is_business_day(d):
            left -= 1
    return d


def business_days_between(start, end):
    """Business days in (start, end]; negative when end is before start."""
    if end < start:
        return -business_days_between(end, start)
    count = 0
    d = start
    while d < end:
        d += timedelta(days=1)
        if is_business_day(d):
            count += 1
    return count


def next_business_day(d):
    return add_business_days(d, 1)
