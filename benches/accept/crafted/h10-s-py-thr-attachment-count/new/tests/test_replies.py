import pytest

from desk.replies import ReplyRejected, validate_reply


def _reply(n):
    return {
        "to": ["ana@example.com"],
        "body": "See attached.",
        "attachments": [{"name": f"scan{i}.pdf", "size": 1000} for i in range(n)],
    }


def test_accepts_a_normal_reply():
    assert validate_reply(_reply(2))["bytes"] == 2000


def test_bulk_export_of_twelve_scans_is_accepted():
    out = validate_reply(_reply(12))
    assert out["types"] == ["application/pdf"]


def test_rejects_executables():
    r = _reply(0)
    r["attachments"] = [{"name": "setup.exe", "size": 10}]
    with pytest.raises(ReplyRejected):
        validate_reply(r)
