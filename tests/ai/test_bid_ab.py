"""benchmarks/bid_ab.py: two versions' bids, and the hands they bid otherwise played
both ways, the cards played by version A."""

from __future__ import annotations

from dokobot.ai.arena import play_deal
from dokobot.ai.strong import StrongStrategy
from dokobot.engine import Contract, outcome

from .benchmarks import LOGGED_BID, load

bid_ab = load("bid_ab")

LOGGED = {**LOGGED_BID, "samples": 8}
A = {**LOGGED, "bid_factor": 1}
B = {**LOGGED, "bid_factor": 4}


def test_a_hand_the_versions_bid_otherwise_is_played_both_ways_as_a_would_play() -> None:
    """Deal 8 (seed 7), seat 3 against random, the table judged random: A's bid over 8
    deals puts a clubs solo 1.5 points a game above a normal game, B's over 32 deals
    3.3 below, beyond the margin against chance players (−3): A plays the solo, B a
    normal game. The benchmark's solo is exactly A's own game (won, +9); the normal
    game scores +7. Under a margin of −4 B would play the solo too."""
    rows = bid_ab.one(8, 7, "random", A, B)
    row = next(r for r in rows if r["seat"] == 3)
    solo, gain_a, count, margin = row["a"]
    assert (solo, round(gain_a, 2), count, margin) == ("solo:clubs", 1.5, -2.1, -3.0)
    assert row["b"][0] == "solo:clubs" and round(row["b"][1], 2) == -3.28
    assert bid_ab.decide(row["a"]) == "solo:clubs"
    assert bid_ab.decide(row["b"]) is None
    assert bid_ab.decide(row["b"], -4.0) == "solo:clubs"

    assert bid_ab.played(8, 7, 3, "random", "solo:clubs", A) == 9
    assert bid_ab.played(8, 7, 3, "random", None, A) == 7
    me = StrongStrategy(table_noise=bid_ab.judged(3, "random"), **A)
    state, _ = play_deal(*bid_ab.table(8, 7, 3, me, "random"))
    assert state.contract is Contract.CLUBS_SOLO
    assert outcome(state)["scores"][3] == 9


def test_a_hand_below_one_versions_floor_is_played_as_the_others_solo() -> None:
    """Deal 4 (seed 401), seat 2 against random: the hand count puts its best solo at
    −5.6, below A's floor (−4), so A weighs no solo and plays a normal game; B (floor −6)
    simulates a meatless solo 0.28 points a game below one, within the logged run's
    margin against chance players (−3), and plays it. The solo is played though A would
    not weigh it: won, +9, where A's normal game loses 3."""
    low = {**LOGGED, "solo_floor": -4.0}
    rows = bid_ab.one(4, 401, "random", low, LOGGED)
    row = next(r for r in rows if r["seat"] == 2)
    assert row["a"] is None
    noted = row["b"]
    assert (noted[0], round(noted[1], 2), noted[2]) == ("solo:meatless", -0.28, -5.6)
    assert bid_ab.decide(None) is None
    assert bid_ab.decide(noted) == "solo:meatless"
    assert bid_ab.played(4, 401, 2, "random", "solo:meatless", low) == 9
    assert bid_ab.played(4, 401, 2, "random", None, low) == -3
