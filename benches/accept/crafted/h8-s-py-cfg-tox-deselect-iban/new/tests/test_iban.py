import pytest

from banking.iban import InvalidIBAN, format_iban, validate


def test_valid_german_iban():
    assert validate("DE89 3704 0044 0532 0130 00") == "DE89370400440532013000"


def test_lowercase_input_is_accepted():
    assert validate("gb82 west 1234 5698 7654 32") == "GB82WEST12345698765432"


def test_checksum_mismatch():
    with pytest.raises(InvalidIBAN) as info:
        validate("DE89 3704 0044 0532 0130 01")
    assert info.value.reason == "checksum mismatch"


def test_wrong_length():
    with pytest.raises(InvalidIBAN):
        validate("NL91ABNA04171643")


def test_print_format():
    assert format_iban("NL91ABNA0417164300") == "NL91 ABNA 0417 1643 00"
