"""Bean-temperature curve analysis for a drum roaster log.

The roaster's probe is sampled at a fixed interval (usually every 2 s).  From
the samples we derive the rate of rise (RoR, degrees C per minute) over a
sliding window, the turning point (lowest bean temperature after charge), and
the development time ratio once first crack has been marked by the operator.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class RoastLog:
    interval_s: float
    bean_temp: list[float]
    first_crack_s: float | None = None
    events: dict[str, float] = field(default_factory=dict)

    @property
    def duration_s(self) -> float:
        return self.interval_s * (len(self.bean_temp) - 1)


def rate_of_rise(log: RoastLog, window: int = 15) -> list[float | None]:
    """RoR at each sample, in degrees C per minute, over the last ``window`` samples.

    Entries are ``None`` until enough samples have been collected.
    """
    if window < 2:
        raise ValueError("window must cover at least two samples")
    out: list[float | None] = []
    temps = log.bean_temp
    for i in range(len(temps)):
        if i + 1 < window:
            out.append(None)
            continue
        first = temps[i + 1 - window]
        span_s = window * log.interval_s
        out.append((temps[i] - first) / span_s * 60.0)
    return out


def turning_point(log: RoastLog) -> tuple[float, float]:
    """(time in seconds, temperature) of the lowest reading after charge."""
    idx = min(range(len(log.bean_temp)), key=lambda i: log.bean_temp[i])
    return idx * log.interval_s, log.bean_temp[idx]


def development_ratio(log: RoastLog) -> float:
    """Share of the roast (0..1) spent after first crack."""
    if log.first_crack_s is None:
        raise ValueError("first crack was not marked")
    total = log.duration_s
    if not 0 <= log.first_crack_s <= total:
        raise ValueError("first crack outside the roast")
    return (total - log.first_crack_s) / total


def summary(log: RoastLog, window: int = 15) -> dict:
    ror = [r for r in rate_of_rise(log, window) if r is not None]
    tp_time, tp_temp = turning_point(log)
    return {
        "duration_s": log.duration_s,
        "turning_point": (tp_time, tp_temp),
        "peak_ror": max(ror) if ror else None,
        "final_ror": ror[-1] if ror else None,
    }
