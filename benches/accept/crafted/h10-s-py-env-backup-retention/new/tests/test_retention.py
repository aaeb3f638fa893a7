from datetime import datetime, timedelta

from backups.retention import Policy, Snapshot, prune


class FakeStore:
    def __init__(self, snaps):
        self.snaps = {s.name: s for s in snaps}

    def list(self):
        return list(self.snaps.values())

    def delete(self, name):
        del self.snaps[name]


def test_prune_keeps_last_week_across_new_year():
    now = datetime(2027, 1, 3, 23)
    snaps = [Snapshot(f"s{i}", now - timedelta(days=i)) for i in range(30)]
    store = FakeStore(snaps)
    removed = prune(store, Policy(daily=1, weekly=2, monthly=0), now=now)
    assert "s7" not in removed
