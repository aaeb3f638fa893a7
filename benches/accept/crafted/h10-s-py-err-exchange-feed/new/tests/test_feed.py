from decimal import Decimal

import pytest

from fx.feed import FeedError, RateBook

FEED = """<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01"
  xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <Cube><Cube time="2027-03-09">
    <Cube currency="USD" rate="1.0850"/><Cube currency="GBP" rate="0.8540"/>
  </Cube></Cube></gesmes:Envelope>"""


def test_convert_usd_to_gbp():
    book = RateBook(lambda: FEED)
    assert str(book.convert("100", "USD", "GBP")) == "78.71"


def test_feed_with_decimal_commas():
    book = RateBook(lambda: FEED.replace('rate="1.0850"', 'rate="1,0850"'))
    assert book.convert("100", "EUR", "EUR") == Decimal("100.00")


def test_truncated_feed_is_an_error():
    book = RateBook(lambda: FEED[:120])
    with pytest.raises(FeedError):
        book.convert("1", "EUR", "USD")
