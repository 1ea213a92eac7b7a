"""benchmarks/solo_regret.py: the soloist's choices priced against a judge of many worlds."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dokobot.ai.strong import StrongStrategy
from dokobot.engine import Card, Play, Reservation, player_view

from .benchmarks import load
from .test_strong import clubs_solo

solo_regret = load("solo_regret")


def test_the_judges_pick_costs_nothing_and_each_other_card_its_price_on_other_worlds() -> None:
    """The soloist's lead, judged on 20 worlds against three chance players: the card
    the judge picks costs 0, the ♣A 1.2 points; priced on other worlds than the pick
    was made on, two cards even come out above the pick (−0.15): a judge's luck in
    its pick is not the version's loss."""
    view = player_view(clubs_solo(), 0)
    plays = [a for a in view.legal if isinstance(a, Play)]
    regrets = dict(
        zip((p.card for p in plays), solo_regret.regret(view, plays, 20, 1.0, "0"), strict=True)
    )
    assert 0.0 in regrets.values()
    assert regrets[Card.CA] == pytest.approx(1.2)
    assert sorted(round(r, 2) for r in regrets.values() if r < 0) == [-0.15, -0.15]


def test_a_version_is_priced_on_each_of_its_choices_with_its_own_seeds() -> None:
    """A soloist of 4 worlds leads ♥10 with one seed and ♠Q with the other: priced at
    −0.15 and +0.30 against the judge's pick; the same choices, priced alone, cost the
    same. With ten times the worlds (``chance_factor``) the second seed leads ♦10,
    which costs nothing."""
    view = player_view(clubs_solo(), 0)
    small = {"samples": 4, "chance_factor": 1}
    strategy = StrongStrategy(table_noise=(1.0,) * 4, **small)
    choices = [solo_regret.choose(strategy, view, random.Random(f"choice:0:{r}")) for r in (0, 1)]
    assert [c.card for c in choices] == [Card.H10, Card.SQ]
    priced = solo_regret.judge_one((0, view, small, 2, 20, 1.0))
    assert [round(r, 2) for r in priced] == [-0.15, 0.3]
    assert priced == solo_regret.regret(view, choices, 20, 1.0, "0")
    wide = solo_regret.judge_one((0, view, {"samples": 4}, 2, 20, 1.0))
    assert [round(r, 2) for r in wide] == [-0.15, 0.0]


def test_the_judge_searches_its_own_number_of_worlds_in_a_normal_game_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At a chance table every card decision searches ten times ``samples`` worlds
    (``chance_factor``), but a judge of 20 worlds picks and prices on 20 each, in a
    normal game as in a solo."""
    counts: list[int] = []
    evaluate = StrongStrategy._evaluate

    def counted(self: StrongStrategy, *args: Any, **kwargs: Any) -> Any:
        out = evaluate(self, *args, **kwargs)
        counts.append(len(next(iter(out[0].values()))))
        return out

    monkeypatch.setattr(StrongStrategy, "_evaluate", counted)
    for state in (clubs_solo(Reservation.HEALTHY), clubs_solo()):
        view = player_view(state, 0)
        plays = [a for a in view.legal if isinstance(a, Play)]
        solo_regret.regret(view, plays[:1], 20, 1.0, "0")
    assert counts == [20, 20, 20, 20]
