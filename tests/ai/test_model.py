"""The model of the other seats' card play: replayed plays, the fitted ε, the weights."""

from __future__ import annotations

import random

from dokobot.ai import make_strategy
from dokobot.ai.model import Observed, chance, fit_noise, replay, resample, tempered
from dokobot.ai.strong import StrongStrategy, playout
from dokobot.ai.worlds import deal_unseen, world
from dokobot.engine import DDV, GameSetup, GameState, Phase, apply, deal, player_view

LEVELS = ["heuristic", "heuristic", "random", "heuristic"]


def midgame(seed: int, tricks: int) -> GameState:
    """Seat 0 at its lead after ``tricks`` tricks; seats 1 and 3 heuristic, seat 2 random."""
    rng = random.Random(seed)
    state = GameState.new(GameSetup(rules=DDV, dealer=seed % 4, hands=deal(rng)))
    players = [make_strategy(level) for level in LEVELS]
    while not state.is_finished:
        seat = state.to_act
        assert seat is not None
        if state.phase is Phase.PLAY and len(state.tricks) >= tricks and seat == 0:
            return state
        state = apply(state, players[seat].choose(player_view(state, seat), rng))
    raise AssertionError("the game ended first")


def test_in_the_true_deal_the_heuristic_seats_agree_with_the_model_and_random_does_not() -> None:
    agree = {1: [0, 0], 2: [0, 0], 3: [0, 0]}
    for seed in range(12):
        state = midgame(seed, 7)
        view = player_view(state, 0)
        # The real hands: what the others really held, as one of the worlds.
        truth = world(view, [list(h) for h in state.hands])
        seen = replay(view, truth)
        # One entry per card the others played, forced ones included.
        assert len(seen) == 3 * len(state.tricks) + len(state.trick)
        for play in seen:
            assert play.seat != 0
            if play.choices == 1:
                assert play.agrees
                continue
            agree[play.seat][0] += play.agrees
            agree[play.seat][1] += 1
    share = {s: a / n for s, (a, n) in agree.items()}
    assert share[1] > 0.9 and share[3] > 0.9, share
    assert share[2] < 0.6, share


def test_a_seat_that_plays_at_random_is_fitted_as_random() -> None:
    sensible = [Observed(1, True, 4)] * 12 + [Observed(1, False, 4)]
    scattered = [Observed(2, i % 4 == 0, 4) for i in range(12)]
    noise = fit_noise([sensible + scattered], seat=0, prior=0.5, strength=4)
    assert noise[0] == 0.0
    assert noise[1] <= 0.2
    assert noise[2] >= 0.8
    # With nothing seen yet, a seat is fitted at about the prior.
    assert 0.3 <= fit_noise([[]], seat=0, prior=0.5, strength=4)[3] <= 0.7


def test_a_world_that_explains_the_plays_weighs_more() -> None:
    noise = [0.0, 0.2, 0.2, 0.2]
    explained = [Observed(1, True, 3), Observed(2, True, 2)]
    surprising = [Observed(1, False, 3), Observed(2, True, 2)]
    assert chance(explained, noise) > 5 * chance(surprising, noise)


def test_the_weights_are_flattened_until_half_the_worlds_count() -> None:
    weights = tempered([1.0, 1e-9, 1e-9, 1e-9, 1e-9, 1e-9])
    ess = sum(weights) ** 2 / sum(w * w for w in weights)
    assert ess >= 3
    assert weights[0] == max(weights) and weights[1] < weights[0]
    assert tempered([2.0, 2.0]) == [1.0, 1.0]


def test_sampled_worlds_of_a_game_are_weighed_by_the_cards_played() -> None:
    state = midgame(5, 6)
    view = player_view(state, 0)
    rng = random.Random(3)
    worlds = [world(view, deal_unseen(view, rng) or []) for _ in range(30)]
    seen = [replay(view, w) for w in worlds]
    noise = fit_noise(seen, 0, 0.5, 4)
    weights = [chance(s, noise) for s in seen]
    truth = replay(view, world(view, [list(h) for h in state.hands]))
    # The real deal explains the plays better than the typical sampled world.
    assert chance(truth, noise) > sorted(weights)[len(weights) // 2]


def test_resampling_keeps_the_heavy_worlds_and_counts_repeats() -> None:
    items, counts = resample(["a", "b", "c", "d"], [0.0, 6.0, 2.0, 0.0], 4, random.Random(1))
    assert dict(zip(items, counts, strict=True)) == {"b": 3.0, "c": 1.0}


def test_the_playouts_simulate_a_seat_that_plays_like_chance_as_one() -> None:
    strong = StrongStrategy()
    fitted = []
    for seed in range(6):
        state = midgame(seed, 7)
        view = player_view(state, 0)
        rng = random.Random(seed)
        worlds = []
        for _ in range(12):
            hands = deal_unseen(view, rng)
            assert hands is not None
            worlds.append(world(view, hands))
        noise = strong._noise(view, [replay(view, w) for w in worlds])
        assert noise is not None and noise[0] == 0.0
        fitted.append(noise)
    mean = [sum(n[s] for n in fitted) / len(fitted) for s in range(4)]
    # The heuristic seats are fitted some noise too: in a world with the wrong hands the
    # heuristic would often have played another card.
    assert mean[2] >= 0.6 and mean[2] >= max(mean[1], mean[3]) + 0.25, mean
    assert StrongStrategy(playout_noise=False)._noise(view, [replay(view, worlds[0])]) is None

    # In the playouts the random seat plays other cards almost every time; a sensible
    # seat's cards change only where the tricks around it do.
    state = midgame(3, 2)
    cards: dict[int, set[tuple[int, ...]]] = {1: set(), 2: set()}
    for seed in range(20):
        final = playout(state, random.Random(seed), noise=[0.0, 0.0, 1.0, 0.0])
        for seat in cards:  # the tricks before the solver takes over
            cards[seat].add(tuple(t.card_of(seat) for t in final.tricks[2:-3]))
    assert len(cards[2]) >= 10, cards[2]
    assert len(cards[1]) < len(cards[2])
