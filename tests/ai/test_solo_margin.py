"""benchmarks/solo_margin.py: the hands another margin would bid otherwise, played both
ways from the strong AI's own bid, and what each margin gains."""

from __future__ import annotations

import random

from dokobot.ai import make_strategy
from dokobot.ai.arena import play_deal
from dokobot.ai.strong import StrongStrategy
from dokobot.engine import DDV, GameSetup, deal, outcome

from .benchmarks import LOGGED_BID, load

solo_margin = load("solo_margin")


def test_a_hand_just_below_the_margin_is_played_as_the_solo_and_as_todays_normal_game() -> None:
    """Deal 3 (seed 3), seat 0 against random, the table judged random, 8 worlds (32
    deals at the bid): the bid simulates the best solo 4.06 points a deal below a
    normal game, and the count (−3.3) leaves it to the simulation, so the logged run's
    margin against three chance players (−3, ``LOGGED_BID``) plays it healthy. The
    benchmark's normal game is exactly the game the strong AI plays there (+3); its
    other game is the solo, on the same seeds (a meatless solo, won: +9)."""
    logged = {**LOGGED_BID, "samples": 8}
    solo, noted = solo_margin.play(3, 3, 0, "solo", "random", 1.0, **logged)
    normal, _ = solo_margin.play(3, 3, 0, "normal", "random", 1.0, **logged)
    assert noted == (-4.0625, -3.3, -3.0)
    assert solo is not None and normal is not None
    assert solo["contract"] == "solo:meatless" and solo["soloist"] == 0
    assert normal["contract"] == "normal" and 0 in normal["kontra"]
    assert (solo["scores"][0], normal["scores"][0]) == (9, 3)

    strong = StrongStrategy(table_noise=(None, 1.0, 1.0, 1.0), **logged)
    players = [strong if s == 0 else make_strategy("random") for s in range(4)]
    hands = deal(random.Random("3:3:deal"))
    state, _ = play_deal(
        GameSetup(rules=DDV, dealer=3, hands=hands), players, random.Random("3:3:0")
    )
    assert outcome(state) == normal

    # The deal's other seats: two hands the count puts at −5.1 and −5.6 are simulated
    # too (above ``solo_floor``), 7.4 and 4.1 points below a normal game; a margin of
    # −5 would play the second as a solo and lose 6 where the normal game gains 2.
    rows = solo_margin.one(3, 3, "random", 1.0, -10.0, **logged)
    assert rows == [(-4.0625, -3.3, 9, 3), (-7.40625, -5.1, -3, 4), (-4.125, -5.6, -6, 2)]


def test_each_margin_is_priced_by_the_hands_it_changes_over_the_whole_run() -> None:
    """Margin −3 changes only the hand simulated at −2.5 (solo 9, normal game 3: +6
    over 100 games); −4 also the one at −3.5 (solo −9, normal 2: −11); a hand the count
    makes a solo anyway (count 1) changes under no margin."""
    rows = [(-2.5, -1.0, 9, 3), (-3.5, -2.0, -9, 2), (-2.2, 1.0, -12, 4)]
    hands, gain, se = solo_margin.price(rows, -3, 100)
    assert (hands, gain) == (1, 0.06)
    assert round(se, 4) == 0.06
    hands, gain, _ = solo_margin.price(rows, -4, 100)
    assert (hands, gain) == (2, -0.05)
    assert solo_margin.price(rows, -1, 100) == (0, 0.0, 0.0)
