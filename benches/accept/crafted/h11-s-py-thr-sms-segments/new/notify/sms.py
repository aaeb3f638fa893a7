"""Outbound SMS: encoding detection, segment counting and per-message limits."""
import math
import re
from dataclasses import dataclass

GSM7_BASIC = set(
    "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?"
    "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
)
GSM7_EXTENDED = set("^{}\\[~]|€")

SINGLE_GSM7 = 160
SINGLE_UCS2 = 70
MULTI_GSM7 = 153
MULTI_UCS2 = 67
MAX_SEGMENTS = 255  # UDH concatenation reference allows up to 255 parts

E164 = re.compile(r"^\+[1-9]\d{7,14}$")


class SmsRejected(ValueError):
    pass


@dataclass(frozen=True)
class Plan:
    encoding: str
    units: int
    segments: int


def encoding_for(text: str) -> str:
    if all(ch in GSM7_BASIC or ch in GSM7_EXTENDED for ch in text):
        return "gsm7"
    return "ucs2"


def units(text: str, encoding: str) -> int:
    if encoding == "gsm7":
        return sum(2 if ch in GSM7_EXTENDED else 1 for ch in text)
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in text)


def plan(text: str) -> Plan:
    enc = encoding_for(text)
    n = units(text, enc)
    single, multi = (SINGLE_GSM7, MULTI_GSM7) if enc == "gsm7" else (SINGLE_UCS2, MULTI_UCS2)
    if n <= single:
        return Plan(enc, n, 1 if n else 0)
    per_segment = multi - 13 if enc == "gsm7" else multi
    return Plan(enc, n, math.ceil(n / per_segment))


def prepare(to: str, text: str, sender: str = "ACME") -> dict:
    if not E164.match(to):
        raise SmsRejected(f"not an E.164 number: {to!r}")
    if not text.strip():
        raise SmsRejected("empty message")
    p = plan(text)
    if p.segments > MAX_SEGMENTS:
        raise SmsRejected(f"message needs {p.segments} segments (max {MAX_SEGMENTS})")
    return {"to": to, "from": sender, "body": text, "encoding": p.encoding, "segments": p.segments}


def estimated_cost(text: str, price_per_segment: float = 0.0075) -> float:
    return round(plan(text).segments * price_per_segment, 4)
