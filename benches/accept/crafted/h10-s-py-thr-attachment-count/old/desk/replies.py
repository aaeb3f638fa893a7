"""Validation of outgoing support-desk replies before they are queued for mail."""
import mimetypes
import re
import sys

MAX_ATTACHMENTS = 10
MAX_TOTAL_BYTES = 20 * 1024 * 1024
BLOCKED_EXTENSIONS = {".exe", ".bat", ".cmd", ".scr", ".js", ".vbs"}
_ADDRESS = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", re.I)


class ReplyRejected(ValueError):
    pass


def _extension(name):
    dot = name.rfind(".")
    return name[dot:].lower() if dot >= 0 else ""


def check_recipients(to, cc=()):
    for addr in list(to) + list(cc):
        if not _ADDRESS.match(addr):
            raise ReplyRejected(f"bad address: {addr!r}")
    if not to:
        raise ReplyRejected("no recipient")


def check_attachments(attachments):
    if len(attachments) > MAX_ATTACHMENTS:
        raise ReplyRejected(
            f"{len(attachments)} attachments, at most {MAX_ATTACHMENTS} allowed"
        )
    total = 0
    for att in attachments:
        if _extension(att["name"]) in BLOCKED_EXTENSIONS:
            raise ReplyRejected(f"blocked file type: {att['name']}")
        total += att["size"]
    if total > MAX_TOTAL_BYTES:
        raise ReplyRejected("attachments too large")
    return total


def content_type(att):
    guess, _ = mimetypes.guess_type(att["name"])
    return guess or "application/octet-stream"


def validate_reply(reply):
    check_recipients(reply["to"], reply.get("cc", ()))
    if not reply.get("body", "").strip():
        raise ReplyRejected("empty body")
    size = check_attachments(reply.get("attachments", []))
    return {
        "recipients": len(reply["to"]) + len(reply.get("cc", ())),
        "bytes": size,
        "types": sorted({content_type(a) for a in reply.get("attachments", [])}),
    }
