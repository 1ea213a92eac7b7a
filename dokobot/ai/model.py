"""How the other seats play: a model fitted to the cards they played this game.

Each other seat is modelled as playing the heuristic's card play with
probability ``1 - ε`` and a uniformly random legal card with probability ``ε``.
In a sampled world every earlier play can be replayed against the policy, so a
world can be weighed by how well it explains the plays (card inference), and ε
itself is fitted per seat: a seat that keeps playing what no sensible player
plays gets a high ε, and its cards then say little about its hand.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from typing import TypeVar

from dokobot.engine import GameState, Party, Play, PlayerView, legal_cards

from .heuristic import HeuristicStrategy

#: The model of a sensible player's card play.
_POLICY = HeuristicStrategy()

T = TypeVar("T")

#: The ε values tried when fitting a seat (a grid is enough: the fit is coarse).
_GRID = tuple(i / 20 for i in range(21))


@dataclasses.dataclass(frozen=True, slots=True)
class Observed:
    """One earlier play of another seat, replayed in one world."""

    seat: int
    #: Whether the policy would have played the same card in this world.
    agrees: bool
    #: How many cards the seat could legally play then (1: a forced play).
    choices: int


def replay(view: PlayerView, world: GameState) -> list[Observed]:
    """Every earlier play of the other seats, in order, replayed in ``world`` against the
    heuristic's card play (what that seat saw then: its hand, the tricks)."""
    re = world.parties.re
    hands = [list(h) for h in world.setup.hands]
    out: list[Observed] = []
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    for number, (leader, cards) in enumerate(tricks):
        for i, card in enumerate(cards):
            seat = (leader + i) % 4
            hand = hands[seat]
            if seat != view.seat:
                then = dataclasses.replace(
                    world,
                    hands=tuple(tuple(h) for h in hands),
                    trick=cards[:i],
                    leader=leader,
                    tricks=view.tricks[:number],
                    to_act=seat,
                )
                legal = legal_cards(then) or (card,)
                # Every play is listed, forced ones too (they agree and weigh 1), so
                # that the lists of all worlds line up play by play.
                agrees = len(legal) == 1
                if not agrees:
                    parties = list(view.parties)
                    if re is not None:
                        parties[seat] = Party.RE if re[seat] else Party.KONTRA
                    seat_view = dataclasses.replace(
                        view,
                        seat=seat,
                        hand=tuple(hand),
                        trick=tuple(((leader + j) % 4, c) for j, c in enumerate(cards[:i])),
                        tricks=view.tricks[:number],
                        leader=leader,
                        to_act=seat,
                        parties=tuple(parties),
                        legal=tuple(Play(seat, c) for c in legal),
                    )
                    agrees = _POLICY._play(seat_view) == Play(seat, card)
                out.append(Observed(seat, agrees, len(legal)))
            hand.remove(card)
    return out


def chance(observed: Sequence[Observed], noise: Sequence[float]) -> float:
    """How likely the plays ``observed`` (one world's) are under the model."""
    log = 0.0
    for o in observed:
        eps = noise[o.seat]
        log += math.log((1 - eps) * o.agrees + eps / o.choices)
    return math.exp(log)


def fit_noise(
    worlds: Sequence[Sequence[Observed]], seat: int, prior: float, strength: float
) -> list[float]:
    """Per seat, the most likely ε over the worlds (``seat`` itself: 0).

    Each play counts with how often the policy agrees with it across the worlds;
    ``prior`` weighs in as ``strength`` plays that agree at its rate.
    """
    agree: dict[int, list[tuple[float, float]]] = {s: [] for s in range(4)}
    if worlds:
        for i, first in enumerate(worlds[0]):
            share = sum(w[i].agrees for w in worlds) / len(worlds)
            agree[first.seat].append((share, first.choices))
    # The prior: ``strength`` plays with four choices, as a seat of ε = prior would play.
    pseudo = [((1 - prior) + prior / 4, 4.0)] if strength else []
    out = [0.0, 0.0, 0.0, 0.0]
    for s in range(4):
        if s != seat:
            plays = agree[s]
            out[s] = max(
                _GRID, key=lambda e: _log_chance(plays, e) + strength * _log_chance(pseudo, e)
            )
    return out


def _log_chance(plays: Sequence[tuple[float, float]], eps: float) -> float:
    """The log-likelihood of plays (share of worlds agreeing, choices) under ε."""
    total = 0.0
    for share, choices in plays:
        total += share * math.log(1 - eps + eps / choices + 1e-12)
        total += (1 - share) * math.log(eps / choices + 1e-12)
    return total


def tempered(weights: Sequence[float], least: float = 0.5) -> list[float]:
    """``weights`` raised to the largest power (1, ½, ¼ …) that leaves at least ``least``
    of the worlds effectively counting, so a few worlds never decide alone."""
    if not weights:
        return []
    top = max(weights)
    if top <= 0:
        return [1.0] * len(weights)
    logs = [math.log(w / top) if w > 0 else -700.0 for w in weights]
    power = 1.0
    while power > 1 / 64:
        ws = [math.exp(power * lg) for lg in logs]
        ess = sum(ws) ** 2 / sum(w * w for w in ws)
        if ess >= least * len(ws):
            return ws
        power /= 2
    return [1.0] * len(weights)


def resample(
    items: Sequence[T], weights: Sequence[float], count: int, rng: random.Random
) -> tuple[list[T], list[float]]:
    """``count`` draws from ``items`` in proportion to ``weights`` (systematic resampling);
    an item drawn k times is returned once with weight k."""
    total = sum(weights)
    if total <= 0:
        return list(items[:count]), [1.0] * min(count, len(items))
    start = rng.random() / count
    picked: dict[int, int] = {}
    running, index = weights[0] / total, 0
    for k in range(count):
        point = start + k / count
        while point > running and index < len(items) - 1:
            index += 1
            running += weights[index] / total
        picked[index] = picked.get(index, 0) + 1
    return [items[i] for i in picked], [float(n) for n in picked.values()]
