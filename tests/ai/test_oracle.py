"""benchmarks/oracle.py: the oracle's worlds are the true deal, from its trick on."""

from __future__ import annotations

import random

from dokobot.ai import make_strategy
from dokobot.engine import DDV, GameSetup, GameState, Phase, apply, deal, player_view

from .benchmarks import load

oracle = load("oracle")


def test_from_its_trick_on_every_world_of_the_oracle_is_the_true_deal() -> None:
    rng = random.Random(8)
    hands = deal(rng)
    state = GameState.new(GameSetup(rules=DDV, dealer=0, hands=hands))
    players = [make_strategy("heuristic") for _ in range(4)]
    checked = 0
    while not state.is_finished:
        seat = state.to_act
        assert seat is not None
        view = player_view(state, seat)
        if state.phase is Phase.PLAY and len(state.trick) == 2:
            worlds, weights, _ = oracle.Oracle(hands, 3, samples=5)._worlds(view, random.Random(1))
            true = [w.hands == state.hands for w in worlds]
            if len(state.tricks) >= 3:
                assert all(true) and len(worlds) == 5 and weights == [1.0] * 5
                checked += 1
            else:
                # Before its trick, uniform worlds (which seldom hit the true deal).
                assert not all(true)
        state = apply(state, players[seat].choose(view, rng))
    assert checked == 9


def test_the_parties_oracle_deals_uniform_worlds_with_the_true_parties() -> None:
    rng = random.Random(11)
    hands = deal(rng)
    state = GameState.new(GameSetup(rules=DDV, dealer=0, hands=hands))
    players = [make_strategy("heuristic") for _ in range(4)]
    while not (state.phase is Phase.PLAY and len(state.tricks) == 1):
        seat = state.to_act
        assert seat is not None
        state = apply(state, players[seat].choose(player_view(state, seat), rng))
    view = player_view(state, state.to_act or 0)
    assert None in view.parties  # the seat cannot tell them yet
    strategy = oracle.Oracle(hands, 0, parties=True, samples=8)
    worlds, _, _ = strategy._worlds(view, random.Random(1))
    assert len(worlds) == 8
    assert all(w.parties.re == state.parties.re for w in worlds)
    # Only the parties: the cards are dealt anew.
    assert sum(w.hands == state.hands for w in worlds) < 8
