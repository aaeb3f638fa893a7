import pytest

from ingest import importer


class FakeStore:
    def __init__(self):
        self.rows = []

    def upsert(self, **row):
        self.rows.append(row)


@pytest.fixture
def store(monkeypatch):
    fake = FakeStore()
    monkeypatch.setattr(importer, "store", fake)
    monkeypatch.setattr(importer, "verify_signature", lambda payload, sig, key: sig == "ok")
    return fake


PAYLOAD = b"sku,price,currency\nA-1,12.50,EUR\nB-2,\"3,99\",gbp\n"


def test_parse_price_accepts_comma():
    assert importer.parse_price("3,99") == 399


def test_import_partner(store):
    assert importer.import_partner({"name": "acme", "key": "k"}, PAYLOAD, "ok") == 2
    assert store.rows[1] == {"sku": "B-2", "price": 399, "currency": "GBP"}


def test_bad_signature_is_refused(store):
    with pytest.raises(importer.ImportError_):
        importer.import_partner({"name": "acme", "key": "k"}, PAYLOAD, "forged")


def test_unknown_currency(store):
    with pytest.raises(importer.ImportError_):
        importer.import_partner({"name": "acme", "key": "k"}, b"sku,price,currency\nC,1,JPY\n", "ok")


@pytest.mark.timeout(10)
def test_large_price_list(store):
    body = b"sku,price,currency\n" + b"".join(b"S%d,1.00,EUR\n" % i for i in range(80))
    assert importer.import_partner({"name": "acme", "key": "k"}, body, "ok") == 80
