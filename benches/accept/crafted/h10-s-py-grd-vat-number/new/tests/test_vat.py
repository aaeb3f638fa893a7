import pytest

from checkout.vat import VatError, validate


def test_valid_german_number():
    assert validate("DE 136 695 976") == "DE136695976"


def test_valid_belgian_number():
    assert validate("BE0403.019.261") == "BE0403019261"


def test_dutch_number_with_spaces():
    assert validate("NL 8195 20 691 B01") == "NL819520691B01"


def test_bad_italian_check_digit():
    with pytest.raises(VatError):
        validate("IT00743110158")
