"""Scoring a standard (advantage) game and calling the score the way the umpire says it."""
from dataclasses import dataclass, field

CALLS = ["love", "15", "30", "40"]


@dataclass
class Game:
    server: str
    receiver: str
    points: dict = field(default_factory=dict)
    no_ad: bool = False

    def __post_init__(self):
        self.points = {self.server: 0, self.receiver: 0}

    def point_to(self, player):
        if self.winner():
            raise ValueError("game already decided")
        if player not in self.points:
            raise KeyError(player)
        self.points[player] += 1

    def winner(self):
        s, r = self.points[self.server], self.points[self.receiver]
        if self.no_ad and s + r >= 7 and s != r:
            return self.server if s > r else self.receiver
        for me, them, name in ((s, r, self.server), (r, s, self.receiver)):
            if me >= 4 and me - them >= 2:
                return name
        return None

    def call(self):
        """Score as called by the umpire, server first."""
        s, r = self.points[self.server], self.points[self.receiver]
        won = self.winner()
        if won:
            return f"game {won}"
        if s >= 3 and r >= 3:
            if s == r:
                return "deuce"
            if self.no_ad:
                return "deciding point"
            ahead = self.server if s > r else self.receiver
            return f"advantage {ahead}"
        if s == r:
            return f"{CALLS[s]}-all"
        return f"{CALLS[s]}-{CALLS[r]}"


def play(server, receiver, sequence, no_ad=False):
    """Play a string of points, 'S' for the server and 'R' for the receiver."""
    g = Game(server, receiver, no_ad=no_ad)
    for ch in sequence:
        g.point_to(server if ch == "S" else receiver)
    return g
