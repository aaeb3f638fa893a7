import pytest

from scoring.game import play


def test_love_game():
    assert play("Ruud", "Paul", "SSSS").call() == "game Ruud"


def test_calls_server_first():
    assert play("Ruud", "Paul", "SRR").call() == "15-30"
    assert play("Ruud", "Paul", "SR").call() == "15-all"


def test_deuce_and_advantage():
    g = play("Ruud", "Paul", "SSSRRR")
    assert g.call() == "deuce"
    g.point_to("Paul")
    assert g.call() == "advantage Paul"


def test_no_ad_deciding_point():
    g = play("Ruud", "Paul", "SSSRRR", no_ad=True)
    g.point_to("Ruud")
    assert g.call() == "game Ruud"


def test_point_after_game_rejected():
    with pytest.raises(ValueError):
        play("Ruud", "Paul", "SSSSR")
