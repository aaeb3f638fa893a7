"""Seven-point tiebreak at 6-6: who serves each point, when the players change ends, and
who wins. The player due to serve the thirteenth game serves the first point; after that
each player serves two points in turn, starting with the opponent."""
from dataclasses import dataclass, field


def server_for_point(n, first, other):
    """Server of the n-th point (1-based) of the tiebreak."""
    if n < 1:
        raise ValueError("points are numbered from 1")
    block = (n - 1) // 2
    return other if block % 2 == 1 else first


def change_ends_after(n):
    """Players change ends after every six points."""
    return n > 0 and n % 6 == 0


@dataclass
class Tiebreak:
    first: str
    other: str
    target: int = 7
    won: dict = field(default_factory=dict)
    played: int = 0

    def __post_init__(self):
        self.won = {self.first: 0, self.other: 0}

    @property
    def next_server(self):
        return server_for_point(self.played + 1, self.first, self.other)

    def point_to(self, player):
        if self.winner():
            raise ValueError("tiebreak already decided")
        self.won[player] += 1
        self.played += 1
        return change_ends_after(self.played)

    def winner(self):
        a, b = self.won[self.first], self.won[self.other]
        if max(a, b) >= self.target and abs(a - b) >= 2:
            return self.first if a > b else self.other
        return None

    def call(self):
        """Tiebreak score, the next server's points first."""
        srv = self.next_server
        rcv = self.other if srv == self.first else self.first
        return f"{self.won[srv]}-{self.won[rcv]}"

    def next_set_server(self):
        """The player who received first in the tiebreak serves the next set's first game."""
        return self.other


def serve_sequence(points, first, other):
    return [server_for_point(n, first, other) for n in range(1, points + 1)]
