"""Mileage reimbursement for expense claims.

Rates are per mile; journeys are logged in kilometres by the mobile app and
converted here. The first 10,000 miles of a tax year use the higher band.
"""
from dataclasses import dataclass
from decimal import Decimal, ROUND_HALF_UP

KM_PER_MILE = Decimal("1.609344")
HIGH_BAND_MILES = Decimal("10000")
HIGH_RATE = Decimal("0.45")
LOW_RATE = Decimal("0.25")
PASSENGER_RATE = Decimal("0.05")


@dataclass(frozen=True)
class Journey:
    km: Decimal
    passengers: int = 0


def km_to_miles(km):
    return (Decimal(km) / KM_PER_MILE).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def _band_split(miles, ytd_miles):
    room = max(HIGH_BAND_MILES - ytd_miles, Decimal(0))
    high = min(miles, HIGH_BAND_MILES)
    return high, miles - high


def claim_amount(journeys, ytd_miles=Decimal(0)):
    """Pence-accurate amount for a list of journeys, given miles already claimed."""
    total = Decimal(0)
    used = Decimal(ytd_miles)
    for j in journeys:
        miles = km_to_miles(j.km)
        high, low = _band_split(miles, used)
        total += high * HIGH_RATE + low * LOW_RATE
        total += miles * PASSENGER_RATE * j.passengers
        used += high
    return total.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def summarise(journeys, ytd_miles=Decimal(0)):
    miles = sum((km_to_miles(j.km) for j in journeys), Decimal(0))
    return {
        "journeys": len(journeys),
        "miles": str(miles),
        "amount": str(claim_amount(journeys, ytd_miles)),
    }
