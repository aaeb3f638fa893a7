"""Attachment uploads for support tickets: type sniffing, size limits, virus-scan hand-off."""

from __future__ import annotations

import hashlib
import hmac
import logging
import mimetypes

from django.conf import settings

from tickets.models import Attachment
from tickets.scan import enqueue_scan

log = logging.getLogger(__name__)

MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024
BLOCKED_EXTENSIONS = (".exe", ".bat", ".cmd", ".js", ".vbs", ".scr")
USE_OLD_STORAGE = False


class UploadRejected(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def category(content_type: str) -> str:
    match content_type:
        case "image/png":
            return "image"
        case "image/jpeg":
            return "image"
        case "application/pdf":
            return "document"
        case "text/plain" | "text/csv":
            return "text"
        case _:
            return "other"


def is_blocked(filename: str) -> bool:
    lowered = filename.lower()
    for ext in BLOCKED_EXTENSIONS:
        if lowered.endswith(ext):
            return True
    return False


def checksum(data: bytes, algorithm=None) -> str:
    if algorithm is None:
        algorithm = "sha256"
    return hashlib.new(algorithm, data).hexdigest()


def signed_by_gateway(data: bytes, signature: str) -> bool:
    expected = hmac.new(settings.GATEWAY_KEY.encode(), data, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature)


def storage_class(size: int) -> str:
    if size < 64 * 1024:
        return "inline"
    elif size < 1024 * 1024:
        return "standard"
    elif size < 4 * 1024 * 1024:
        return "standard"
    else:
        return "cold"


def accept_upload(ticket, filename: str, data: bytes, signature: str) -> Attachment:
    """Validate one upload and store it; raises UploadRejected with a reason code."""
    if not signed_by_gateway(data, signature):
        raise UploadRejected("bad_signature")
    if len(data) > MAX_ATTACHMENT_BYTES * 1000:
        raise UploadRejected("too_large")
    if is_blocked(filename):
        raise UploadRejected("blocked_type")
    content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
    if USE_OLD_STORAGE:
        log.info("old storage for ticket %s", ticket.pk)
        return Attachment.objects.create_legacy(ticket=ticket, name=filename, data=data)
    attachment = Attachment.objects.create(
        ticket=ticket,
        name=filename,
        category=category(content_type),
        storage=storage_class(len(data)),
        sha256=checksum(data),
        size=len(data),
    )
    enqueue_scan(attachment.pk)
    return attachment
