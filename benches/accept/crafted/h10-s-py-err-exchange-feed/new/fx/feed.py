"""Daily exchange-rate feed: parse the central bank's XML and convert amounts."""
import xml.etree.ElementTree as ET
from decimal import Decimal, InvalidOperation

NS = {"e": "http://www.ecb.int/vocabulary/2002-08-01/eurofxref"}


class FeedError(Exception):
    pass


def parse_rates(xml_text):
    try:
        root = ET.fromstring(xml_text)
    except ET.ParseError as exc:
        raise FeedError(f"malformed feed: {exc}") from exc
    day = root.find(".//e:Cube[@time]", NS)
    if day is None:
        raise FeedError("no dated cube")
    rates = {"EUR": Decimal(1)}
    for cube in day.findall("e:Cube", NS):
        try:
            rates[cube.attrib["currency"]] = Decimal(cube.attrib["rate"])
        except (KeyError, InvalidOperation) as exc:
            raise FeedError(f"bad cube {cube.attrib}") from exc
    return day.attrib["time"], rates


class RateBook:
    def __init__(self, fetch):
        self._fetch = fetch
        self._rates = None
        self.as_of = None

    def refresh(self):
        try:
            self.as_of, self._rates = parse_rates(self._fetch())
        except FeedError:
            self.as_of, self._rates = None, {"EUR": Decimal(1)}

    def rate(self, src, dst):
        if self._rates is None:
            self.refresh()
        try:
            return self._rates[dst] / self._rates[src]
        except KeyError as exc:
            raise FeedError(f"unknown currency {exc.args[0]}") from None

    def convert(self, amount, src, dst):
        return (Decimal(amount) * self.rate(src, dst)).quantize(Decimal("0.01"))
