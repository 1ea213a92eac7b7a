"""benchmarks/chance_judge.py: the table's judgement as a session builds it, and only the
games where two thresholds take some seat otherwise are played."""

from __future__ import annotations

import random

from dokobot.ai import make_strategy
from dokobot.ai.arena import deal_results, play_deal
from dokobot.ai.skill import Skill, table_noise
from dokobot.ai.strong import StrongStrategy
from dokobot.engine import DDV, GameSetup, deal, outcome

from .benchmarks import load

chance_judge = load("chance_judge")


def test_each_deal_sees_what_the_deals_before_it_showed_of_each_player() -> None:
    """Seed 2, three deals: the first deal's four games see no judgement; each later
    game sees, seat by seat, the players the rotation seats there, player 0 (the strong
    seat) in the rotating seat."""
    judged = chance_judge.judgements(range(3), 2)
    assert [(index, seat) for index, seat, _ in judged] == [
        (d, s) for d in range(3) for s in range(4)
    ]
    assert {known for index, _, known in judged if index == 0} == {(None,) * 4}
    skills = [Skill() for _ in range(4)]
    deal_results(0, 2, ["random"] * 4, DDV, True, skills=skills)
    players = table_noise(skills, StrongStrategy.model_noise)
    for index, seat, known in judged:
        if index == 1:
            assert known == tuple(players[(s - seat) % 4] for s in range(4))


def test_a_seat_is_taken_for_a_chance_player_from_the_threshold_on_never_the_own() -> None:
    known = (1.0, 0.8, None, 0.7)
    assert chance_judge.taken_for_chance(known, 0, 0.7) == {1, 3}
    assert chance_judge.taken_for_chance(known, 0, 0.9) == set()
    assert chance_judge.taken_for_chance(known, 1, 0.7) == {0, 3}


def test_each_version_plays_the_game_the_strong_ai_plays_in_that_seat() -> None:
    """Deal 4 (seed 2), the strong seat 1 and the others judged 0.8: at 0.7 it plays
    against three chance players and scores 9, at 0.9 against three it replays and
    scores 6; each score is the score of that game played on its own."""
    known = (0.8, None, 0.8, 0.8)
    assert chance_judge.taken_for_chance(known, 1, 0.7) == {0, 2, 3}
    assert chance_judge.taken_for_chance(known, 1, 0.9) == set()
    versions = [{"samples": 4, "chance_noise": 0.9}, {"samples": 4, "chance_noise": 0.7}]
    index, seat, scores = chance_judge.play((4, 1, known), 2, versions, None)
    assert (index, seat, scores) == (4, 1, [6, 9])
    for option, played in zip(versions, scores, strict=True):
        strong = StrongStrategy(**option, table_noise=known)
        players = [strong if s == 1 else make_strategy("random") for s in range(4)]
        setup = GameSetup(rules=DDV, dealer=0, hands=deal(random.Random("2:4:deal")))
        state, _ = play_deal(setup, players, random.Random("2:4:1"))
        assert outcome(state)["scores"][1] == played
