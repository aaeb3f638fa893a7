import pytest

from gradebook.curve import category_average, curve_to_mean, letter, weighted_score


@pytest.mark.parametrize(
    "score, expected",
    [
        (95.0, "A"),
        (90.0, "A"),
        (89.99, "B"),
        (80.0, "B"),
        (70.0, "C"),
        (60.0, "D"),
        (59.5, "F"),
    ],
)
def test_letter_cutoffs(score, expected):
    assert letter(score) == expected


def test_drop_lowest_homework():
    assert category_average([50, 100, 90], drop_lowest=1) == 95


def test_weighted_score():
    student = {"homework": [80, 90, 100], "midterm": [70], "final": [85]}
    assert weighted_score(student) == 83.5


def test_curve_never_lowers():
    assert curve_to_mean([90, 60], target_mean=70) == [90, 60]
    assert curve_to_mean([70, 60], target_mean=70, cap=100) == [75, 65]
