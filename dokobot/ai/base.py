"""The one protocol every AI player implements."""

from __future__ import annotations

import random
from typing import Protocol

from dokobot.engine import Action, Announce, Bid, PlayerView, PovertyReply, Reservation


class Strategy(Protocol):
    """An AI player: sees only its ``PlayerView`` and picks one of ``view.legal``."""

    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The action to take now; it is the view's seat's turn."""
        ...


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
