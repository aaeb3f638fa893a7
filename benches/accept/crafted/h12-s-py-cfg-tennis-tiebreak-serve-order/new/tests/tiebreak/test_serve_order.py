from scoring.tiebreak import Tiebreak, change_ends_after, serve_sequence


def test_first_point_then_pairs():
    assert serve_sequence(7, "Sinner", "Zverev") == [
        "Sinner", "Zverev", "Zverev", "Sinner", "Sinner", "Zverev", "Zverev",
    ]


def test_ends_change_every_six_points():
    assert [n for n in range(1, 19) if change_ends_after(n)] == [6, 12, 18]


def test_call_puts_next_server_first():
    tb = Tiebreak("Sinner", "Zverev")
    tb.point_to("Sinner")
    assert tb.next_server == "Zverev"
    assert tb.call() == "0-1"


def test_must_win_by_two():
    tb = Tiebreak("Sinner", "Zverev")
    for p in ["Sinner", "Zverev"] * 6 + ["Sinner"]:
        tb.point_to(p)
    assert tb.winner() is None
    tb.point_to("Sinner")
    assert tb.winner() == "Sinner"
    assert tb.next_set_server() == "Zverev"
