"""benchmarks/solo_ab.py: version B plays only the strong seat's solos, because every
other game is the same game for both versions."""

from __future__ import annotations

import random

from dokobot.ai import make_strategy
from dokobot.ai.arena import play_deal
from dokobot.ai.strong import StrongStrategy
from dokobot.engine import DDV, GameSetup, deal, outcome

from .benchmarks import LOGGED_BID, load

solo_ab = load("solo_ab")

#: 8 worlds a decision and at the bid, each announcement made as soon as it pays (the
#: deal below was found so).
A = {
    **LOGGED_BID,
    "samples": 8,
    "bid_factor": 1,
    "chance_solo_raise_margin": 0.6,
    "announce_wait": False,
}
B = {**A, "chance_solo_raise_margin": -3.0}


def test_only_the_solo_is_played_twice_and_a_normal_game_would_have_been_the_same() -> None:
    """Deal 6 (seed 7) against random, the table judged random, 8 worlds: seat 1 plays
    a solo; A says up to no 60 and makes it (+24), B, readier to raise, says no 30 and
    makes that too (+30). Seat 0's normal game, played by B as well, scores what A's did."""
    rows = solo_ab.one_deal(6, 7, A, B, "random", 1.0)
    assert [r["solo"] for r in rows] == [False, True, False, False]
    solo = rows[1]
    assert (solo["a"], solo["a_level"], solo["b"], solo["b_level"]) == (24, 2, 30, 3)
    assert all("b" not in r for r in rows if not r["solo"])

    hands = deal(random.Random("7:6:deal"))
    players = [
        StrongStrategy(table_noise=(1.0,) * 4, **B) if s == 0 else make_strategy("random")
        for s in range(4)
    ]
    state, _ = play_deal(
        GameSetup(rules=DDV, dealer=6 % 4, hands=hands), players, random.Random("7:6:0")
    )
    assert outcome(state)["scores"][0] == rows[0]["a"] == -6
