from apiary.scoring import Action, ColonyScorer, Inspection


def insp(hive="H1", brood=6, queen=True, eggs=True, mites=3, stores=10.0):
    return Inspection(hive, brood, queen, eggs, mites, stores)


def test_healthy_colony_needs_nothing():
    assert ColonyScorer().actions(insp()) == [Action.NONE]


def test_heavy_mites_get_treated():
    assert ColonyScorer().actions(insp(mites=12)) == [Action.TREAT_VARROA]


def test_eggs_without_queen_sighting_is_queenright():
    # fresh eggs prove a laying queen even when she was not spotted
    assert ColonyScorer().actions(insp(hive="H4", queen=False, eggs=True)) == [Action.NONE]


def test_weak_queenless_colony_is_merged():
    got = ColonyScorer().actions(insp(brood=2, queen=False, eggs=False))
    assert got == [Action.MERGE]


def test_autumn_feeding():
    plan = ColonyScorer("autumn").plan([insp("H1", stores=12.0), insp("H2", stores=20.0)])
    assert plan == {"H1": [Action.FEED], "H2": [Action.NONE]}
