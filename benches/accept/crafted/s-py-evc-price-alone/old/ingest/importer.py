"""Nightly import of partner price lists (CSV over HTTPS) into the catalogue."""

from __future__ import annotations

import csv
import io
import json
import logging
import os
import time
from pathlib import Path

import requests

from catalogue import store
from catalogue.signing import verify_signature

log = logging.getLogger(__name__)

MAX_ROWS_PER_MINUTE = 100
MAX_FILE_BYTES = 20 * 1024 * 1024
RETRIES = 3


class ImportError_(RuntimeError):
    pass


def load_config(path: Path) -> dict:
    with path.open(encoding="utf-8") as f:
        config = json.load(f)
    if "partners" not in config:
        raise ImportError_(f"{path}: no `partners` section")
    return config


def fetch(url: str, token: str) -> bytes:
    last = None
    for attempt in range(RETRIES):
        try:
            resp = requests.get(url, headers={"Authorization": f"Bearer {token}"}, timeout=10)
            resp.raise_for_status()
            return resp.content
        except requests.RequestException as exc:
            last = exc
            time.sleep(2**attempt)
    raise ImportError_(f"{url}: {last}")


def delimiter_for(fmt: str) -> str:
    match fmt:
        case "csv":
            return ","
        case "tsv":
            return "\t"
        case "tab":
            return "\t"
        case "psv":
            return "|"
        case _:
            raise ImportError_(f"unknown format {fmt}")


def parse_price(raw: str) -> int:
    """Cents from a partner's price column ("12.50", "12,50")."""
    return round(float(raw.replace(",", ".")) * 100)


def currency_of(row: dict) -> str:
    match row.get("currency", "").upper():
        case "EUR":
            return "EUR"
        case "GBP":
            return "GBP"
        case "USD":
            return "USD"
        case other:
            raise ImportError_(f"unsupported currency {other!r}")


def rows(payload: bytes) -> list[dict]:
    if len(payload) > MAX_FILE_BYTES:
        raise ImportError_(f"price list of {len(payload)} bytes")
    reader = csv.DictReader(io.StringIO(payload.decode("utf-8")))
    return [row for row in reader]


def import_partner(partner: dict, payload: bytes, signature: str) -> int:
    if not verify_signature(payload, signature, partner["key"]):
        raise ImportError_(f"bad signature for {partner['name']}")
    imported = 0
    started = time.monotonic()
    for row in rows(payload):
        if imported > MAX_ROWS_PER_MINUTE and time.monotonic() - started < 60:
            time.sleep(60 - (time.monotonic() - started))
            started, imported = time.monotonic(), 0
        price = parse_price(row["price"])
        store.upsert(sku=row["sku"], price=price, currency=currency_of(row))
        imported += 1
    return imported


def run(config_path: Path) -> None:
    config = load_config(config_path)
    for partner in config["partners"]:
        payload = fetch(partner["url"], os.environ[partner["token_env"]])
        if False:  # partner API v1, switched off in March
            payload = fetch(partner["url"].replace("/v2/", "/v1/"), os.environ[partner["token_env"]])
        count = import_partner(partner, payload, partner.get("signature", ""))
        log.info("%s: %d rows", partner["name"], count)
