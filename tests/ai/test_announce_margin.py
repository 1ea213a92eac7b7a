"""benchmarks/announce_margin.py: other announcement margins priced on the games played."""

from __future__ import annotations

import random

from dokobot.ai import make_strategy
from dokobot.ai.arena import play_deal
from dokobot.ai.strong import StrongStrategy
from dokobot.engine import DDV, GameSetup, GameState, Party, deal, outcome

from .benchmarks import load

announce_margin = load("announce_margin")

#: Four worlds a decision, no clock: the same game on every run; announcements with
#: the margin of a minded table.
SMALL = {"samples": 4, "chance_factor": 1, "chance_announce_margin": 0.6}


def random_game() -> tuple[list[int], GameState]:
    """A normal game four random players play: Re (seats 0 and 3) wins with 156 card
    points to 84, Kontra catches a fox: 1 point a Re seat, nobody announced."""
    hands = deal(random.Random("announce:3"))
    setup = GameSetup(rules=DDV, dealer=0, hands=hands)
    state, _ = play_deal(setup, [make_strategy("random")] * 4, random.Random(3))
    return outcome(state)["scores"], state


def test_each_margin_scores_the_highest_level_it_would_have_called_on_the_games_end() -> None:
    """Re's seat 0 would have said Re at one margin (156 to 84: 3 points, +2) and no 60
    at another (Kontra's 84 beat it: −7, −8); a margin that calls nothing scores what
    was played. Kontra's seat 1 saying Kontra loses 2 more."""
    scores, state = random_game()
    assert scores == [1, -1, -1, 1]
    chances = [(Party.RE, [0, 1, -1, -1]), (Party.RE, [0, 2, -1, -1])]
    assert announce_margin.price(state, 0, chances, 3) == {"deltas": [2, -8, 0], "check": True}
    assert announce_margin.price(state, 1, [(Party.KONTRA, [0, -1])], 1) == {
        "deltas": [-2],
        "check": True,
    }


def test_a_game_whose_calls_the_replay_does_not_explain_counts_nothing() -> None:
    """If the margins played, replayed, would have said Re but nobody did (a call made
    outside the noted chances), the game is flagged and prices every margin at 0."""
    _, state = random_game()
    assert announce_margin.price(state, 0, [(Party.RE, [1, 0])], 1) == {
        "deltas": [0],
        "check": False,
    }


def test_noting_the_margins_changes_no_card_and_the_replay_calls_what_was_called() -> None:
    """Deal 1 of seed 1301 in seats 0 and 2 at four worlds, margin 0.6: the pricing
    strong seat plays the very game the plain one does. Calling whenever any gain is
    promised would have won seat 0's normal game 2 points more; seat 2's solo without
    its Re 6 points less."""
    margins = [
        {"chance_announce_margin": -100.0},
        {"solo_call_margin": 100.0, "soloist_calls": False},
    ]
    rows = announce_margin.one_deal(1, 1301, SMALL, margins)
    assert [(r["seat"], r["solo"], r["deltas"]) for r in rows if r["seat"] in (0, 2)] == [
        (0, False, [2, 0]),
        (2, True, [0, -6]),
    ]
    assert all(r["check"] for r in rows)
    hands = deal(random.Random("1301:1:deal"))
    setup = GameSetup(rules=DDV, dealer=1, hands=hands)
    for seat in (0, 2):
        games = []
        for strong in (
            StrongStrategy(table_noise=announce_margin.RANDOM, **SMALL),
            announce_margin.Pricer(table_noise=announce_margin.RANDOM, margins=margins, **SMALL),
        ):
            players = [strong if s == seat else make_strategy("random") for s in range(4)]
            state, _ = play_deal(setup, players, random.Random(f"1301:1:{seat}"))
            games.append(state)
        assert games[0] == games[1]
