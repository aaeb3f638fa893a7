from datetime import datetime, timezone

from clinic.reminders import Appointment, render, reminder_times

UTC = timezone.utc


def appt(**kw):
    base = dict(patient="Ana", clinic_tz="America/Chicago", starts_at=datetime(2026, 3, 20, 15, 30, tzinfo=UTC), phone="+13125550100")
    base.update(kw)
    return Appointment(**base)


def test_message_uses_clinic_wall_clock():
    assert render(appt()) == "Hi Ana, reminder: your appointment is Fri 20 Mar at 10:30. Reply STOP to opt out."


def test_two_reminders_outside_quiet_hours():
    assert reminder_times(appt()) == [
        datetime(2026, 3, 18, 15, 30, tzinfo=UTC),
        datetime(2026, 3, 20, 13, 0, tzinfo=UTC),
    ]


def test_opted_out_patients_get_nothing():
    assert reminder_times(appt(opted_out=True)) == []
