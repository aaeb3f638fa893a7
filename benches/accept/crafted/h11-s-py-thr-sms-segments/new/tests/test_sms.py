import pytest

from notify.sms import SmsRejected, estimated_cost, plan, prepare


def test_short_gsm_message_is_one_segment():
    assert plan("Your code is 123456").segments == 1


def test_unicode_switches_encoding():
    p = plan("Привет, ваш код 1234")
    assert p.encoding == "ucs2"
    assert p.segments == 1


def test_long_reminder_fits_three_segments():
    body = "Reminder: your appointment is tomorrow at 9am. " * 9 + "Reply C to cancel."
    assert len(body) == 441
    msg = prepare("+14155550123", body)
    assert msg["segments"] == 3


def test_bad_number_rejected():
    with pytest.raises(SmsRejected):
        prepare("555-0123", "hello")


def test_cost_of_single_segment():
    assert estimated_cost("hi") == 0.0075
