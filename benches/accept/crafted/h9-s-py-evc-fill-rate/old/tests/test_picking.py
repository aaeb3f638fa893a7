from datetime import date

import pytest

from warehouse.picking import AllocationError, Bin, allocate_line, build_pick_list, summarize


def make_bins():
    return [
        Bin("A-01", "MILK", 6, date(2026, 3, 2)),
        Bin("A-02", "MILK", 10, date(2026, 2, 27)),
        Bin("B-07", "MILK", 20, None),
        Bin("C-11", "TEA", 3),
        Bin("C-12", "TEA", 8, on_hold=True),
    ]


def test_oldest_lot_first():
    picks, missing = allocate_line(make_bins(), "MILK", 12)
    assert [(p.bin_code, p.qty) for p in picks] == [("A-02", 10), ("A-01", 2)]
    assert missing == 0


def test_held_bin_is_never_used():
    picks, missing = allocate_line(make_bins(), "TEA", 5)
    assert [(p.bin_code, p.qty) for p in picks] == [("C-11", 3)]
    assert missing == 2


def test_zero_quantity_is_rejected():
    with pytest.raises(AllocationError):
        allocate_line(make_bins(), "TEA", 0)


def test_summary_of_a_short_order():
    pl = build_pick_list("SO-1182", {"MILK": 40, "TEA": 5}, make_bins())
    assert summarize(pl) == {
        "order": "SO-1182",
        "units": 39,
        "bins": 4,
        "short": {"MILK": 4, "TEA": 2},
        "fill_rate": 0.87,
    }
