from decimal import Decimal

from expenses.mileage import Journey, claim_amount, km_to_miles, summarise


def test_km_to_miles_rounds_to_tenth():
    assert km_to_miles(Decimal("16.09344")) == Decimal("10.0")


def test_claim_inside_high_band():
    assert claim_amount([Journey(Decimal("160.9344"))]) == Decimal("45.00")


def test_claim_crossing_the_band():
    journeys = [Journey(Decimal("321.8688"))]
    # 200 miles, 100 left in the high band: 100 * 0.45 + 100 * 0.25
    assert claim_amount(journeys, ytd_miles=Decimal("9900")) == Decimal("70.00")


def test_passenger_supplement():
    assert claim_amount([Journey(Decimal("160.9344"), passengers=2)]) == Decimal("55.00")


def test_summary_shape():
    out = summarise([Journey(Decimal("16.09344"))])
    assert out == {"journeys": 1, "miles": "10.0", "amount": "4.50"}
