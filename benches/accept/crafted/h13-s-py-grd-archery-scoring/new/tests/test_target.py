import pytest

from archery.target import Arrow, score_arrow, score_end, running_totals

# 122 cm face: rings are 61 mm wide, X ring radius 30.5 mm


def points(x, y=0.0, face="122cm"):
    return score_arrow(Arrow(x, y), face).points


def test_dead_centre_is_an_x():
    assert score_arrow(Arrow(0, 0)).label() == "X"


def test_clear_nine():
    assert points(90) == 9


def test_miss():
    assert score_arrow(Arrow(700, 0)).label() == "M"


def test_ten_line_cutter_scores_ten():
    # shaft centre 62 mm out, but its edge (62 - 2.75) is inside the 10 ring
    assert points(62) == 10


def test_diagonal_line_cutter():
    assert points(43.9, 43.9) == 10


def test_unknown_face_rejected():
    with pytest.raises(ValueError):
        points(0, face="60cm")


def test_end_sheet_and_totals():
    end = score_end([Arrow(1, 1), Arrow(62, 0), Arrow(150, 0)])
    assert end == {"sheet": ["X", "10", "8"], "total": 28, "tens": 2, "xs": 1}
    assert running_totals([end, end]) == [28, 56]
