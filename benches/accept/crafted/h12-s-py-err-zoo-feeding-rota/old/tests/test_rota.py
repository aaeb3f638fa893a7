from datetime import time

import pytest

from zoo.rota import RotaError, kg_by_group, keeper_sheet, load_rota, next_feed

BOARD = """\
# Tuesday
08:30  penguins   herring   2.5kg  keeper=ana
7:45   meerkats   crickets  300g   keeper=tom
14:00  otters     sprats    0.8kg  keeper=tom   # enrichment feed
16:15  tortoises  lettuce   1.2kg  keeper=ana
"""


def test_loads_every_feed_on_the_board():
    feeds = load_rota(BOARD)
    assert len(feeds) == 4
    assert {f.animal for f in feeds} == {"penguins", "meerkats", "otters", "tortoises"}


def test_totals_by_food_group():
    assert kg_by_group(load_rota(BOARD)) == {"fish": 3.3, "insects": 0.3, "plants": 1.2}


def test_keeper_sheet_in_time_order():
    sheet = keeper_sheet(load_rota(BOARD), "ana")
    assert sheet == ["08:30 penguins 2.5kg herring", "16:15 tortoises 1.2kg lettuce"]


def test_next_feed_after_lunch():
    feeds = load_rota("09:00 lemurs pellets 0.4kg keeper=ana\n13:30 otters capelin 1kg keeper=tom\n")
    assert next_feed(feeds, time(12, 0)).animal == "otters"
    assert next_feed(feeds).animal == "lemurs"
    assert next_feed(feeds, time(17, 0)) is None


def test_bad_quantity_reported_with_line():
    with pytest.raises(RotaError, match="line 2"):
        load_rota("# board\n10:00 lemurs browse lots keeper=ana\n")
