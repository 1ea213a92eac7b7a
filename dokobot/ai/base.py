"""The one protocol every AI player implements."""

from __future__ import annotations

import random
from typing import Protocol

from dokobot.engine import Action, Announce, Bid, Play, PlayerView, PovertyReply, Reservation


class Strategy(Protocol):
    """An AI player: sees only its ``PlayerView`` and picks one of ``view.legal``."""

    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The action to take now; it is the view's seat's turn."""
        ...


class EasyStrategy:
    """The heuristic with a beginner's habits: no solos, no announcements, and about one
    card in four played without thought (level ``easy``)."""

    name = "easy"

    def __init__(self, mistakes: float = 0.25) -> None:
        from .heuristic import HeuristicStrategy

        self.mistakes = mistakes
        self._normal = HeuristicStrategy()

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        turn = [a for a in view.legal if not isinstance(a, Announce)]
        bids = [a for a in turn if isinstance(a, Bid)]
        if bids:
            plain = [a for a in bids if not a.reservation.is_solo]
            if not plain:  # a compulsory solo must be played
                return self._normal.choose(view, rng)
            return next((a for a in plain if a.reservation is Reservation.HEALTHY), plain[0])
        plays = [a for a in turn if isinstance(a, Play)]
        if plays and rng.random() < self.mistakes:
            return rng.choice(plays)
        choice = self._normal.choose(view, rng)
        if isinstance(choice, Announce) and plays:
            return self._normal._play(view)
        return choice


class RandomStrategy:
    """The yardstick: a uniformly random legal action, always healthy, never announces."""

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        turn = [a for a in view.legal if not isinstance(a, Announce)]
        healthy = [a for a in turn if isinstance(a, Bid) and a.reservation is Reservation.HEALTHY]
        if healthy:
            return healthy[0]
        if turn and isinstance(turn[0], PovertyReply):
            return rng.choice(turn)
        if not turn:
            # Zwingen (docs/rules.md §9.4): an owed announcement is all it may do.
            return min((a for a in view.legal if isinstance(a, Announce)), key=lambda a: a.level)
        return rng.choice(turn)
