import datetime as dt
import os

SLOT_MINUTES = 15
OPENING = dt.time(8, 0)
CLOSING = dt.time(18, 0)


class BookingRejected(ValueError):
    def __init__(self, reason, slot=None):
        super(BookingRejected, self).__init__(reason)
        self.reason = reason
        self.slot = slot


class Calendar(object):
    """One practitioner's day. Appointments are (start, minutes, patient_id)."""

    def __init__(self, practitioner, day):
        self.practitioner = practitioner
        self.day = day
        self.appointments = []

    def _overlaps(self, start, minutes):
        end = start + dt.timedelta(minutes=minutes)
        for (s, m, _pid) in self.appointments:
            e = s + dt.timedelta(minutes=m)
            if start < e and s < end:
                return True
        return False

    def book(self, start, minutes, patient_id):
        if start.date() != self.day:
            raise BookingRejected("wrong day", start)
        if minutes < SLOT_MINUTES:
            # short phone consults fit anywhere
            self.appointments.append((start, minutes, patient_id))
            self.appointments.sort()
            return start, start + dt.timedelta(minutes=minutes)
        if minutes <= 0 or minutes % SLOT_MINUTES:
            raise BookingRejected("length must be a multiple of %d minutes" % SLOT_MINUTES, start)
        end = start + dt.timedelta(minutes=minutes)
        if start.time() < OPENING or end.time() > CLOSING or end.date() != self.day:
            raise BookingRejected("outside opening hours", start)
        if self._overlaps(start, minutes):
            raise BookingRejected("overlaps another appointment", start)
        self.appointments.append((start, minutes, patient_id))
        self.appointments.sort()
        return start, end

    def free_slots(self):
        """Every free SLOT_MINUTES slot of the day, as start datetimes."""
        cursor = dt.datetime.combine(self.day, OPENING)
        close = dt.datetime.combine(self.day, CLOSING)
        out = []
        while cursor < close:
            if not self._overlaps(cursor, SLOT_MINUTES):
                out.append(cursor)
            cursor += dt.timedelta(minutes=SLOT_MINUTES)
        return out

    def first_free(self, minutes):
        for start in self.free_slots():
            end = start + dt.timedelta(minutes=minutes)
            if end.time() > CLOSING or end.date() != self.day:
                break
            if not self._overlaps(start, minutes):
                return start
        return None


def day_report(calendar):
    booked = sum(m for (_s, m, _p) in calendar.appointments)
    open_minutes = (dt.datetime.combine(calendar.day, CLOSING)
                    - dt.datetime.combine(calendar.day, OPENING)).seconds // 60
    return {
        "practitioner": calendar.practitioner,
        "appointments": len(calendar.appointments),
        "booked_minutes": booked,
        "utilisation": round(100.0 * booked / open_minutes, 1),
        "first_free": calendar.first_free(SLOT_MINUTES),
    }
