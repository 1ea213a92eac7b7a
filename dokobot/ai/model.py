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
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import TypeVar

from dokobot.engine import Card, GameState, Party, Play, PlayerView, legal_cards, team_card

from .heuristic import HeuristicStrategy
from .worlds import played_by, queen_needs, voids
from .worlds import world as _world

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
    return [o for _, o in replays(view, world)]


@dataclasses.dataclass(frozen=True, slots=True)
class Step:
    """One earlier play of a game as a view shows it."""

    seat: int
    card: Card
    #: Its place among the other seats' plays (``None``: a play of the view's own seat).
    index: int | None
    #: What the seat saw then; its hand, party and legal cards come from each world.
    then: PlayerView | None
    #: The cards of the trick before this one and the number of tricks before it.
    trick: tuple[Card, ...]
    number: int


def steps(view: PlayerView) -> list[Step]:
    """Every earlier play of ``view``'s game, in order (what ``replays`` walks through)."""
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    out: list[Step] = []
    index = 0
    for number, (leader, cards) in enumerate(tricks):
        for i, card in enumerate(cards):
            seat = (leader + i) % 4
            if seat == view.seat:
                out.append(Step(seat, card, None, None, cards[:i], number))
                continue
            then = dataclasses.replace(
                view,
                seat=seat,
                trick=tuple(((leader + j) % 4, c) for j, c in enumerate(cards[:i])),
                tricks=view.tricks[:number],
                leader=leader,
                to_act=seat,
            )
            out.append(Step(seat, card, index, then, cards[:i], number))
            index += 1
    return out


#: Every play as one shared value (the replays build many legal lists).
_PLAYS = {(seat, card): Play(seat, card) for seat in range(4) for card in Card}
_VIEW_FIELDS = tuple(f.name for f in dataclasses.fields(PlayerView))


def _seen_as(
    then: PlayerView,
    hand: tuple[Card, ...],
    parties: tuple[Party | None, ...],
    legal: tuple[Play, ...],
) -> PlayerView:
    """``then`` with the hand, parties and legal plays of one world (a cheap replace)."""
    out = object.__new__(PlayerView)
    for name in _VIEW_FIELDS:
        object.__setattr__(out, name, getattr(then, name))
    object.__setattr__(out, "hand", hand)
    object.__setattr__(out, "parties", parties)
    object.__setattr__(out, "legal", legal)
    return out


def replays(
    view: PlayerView,
    world: GameState,
    seats: Collection[int] | None = None,
    plan: Sequence[Step] | None = None,
) -> Iterator[tuple[int, Observed]]:
    """The plays of ``replay`` one at a time, each with its place in that list; with
    ``seats`` only theirs. ``plan``: ``steps(view)``, when the caller has it already."""
    re = world.parties.re
    wanted = set(range(4)) - {view.seat} if seats is None else set(seats)
    # Without declarations or compulsory announcements the legal cards are those that
    # follow the led card's class (docs/rules.md §3); otherwise the engine decides, and
    # it is given every hand as it was then.
    simple = not world.calls.declared and world.setup.rules.compulsory_announcement.value == "off"
    cls = world.parties.order.suit_class
    hands = {s: list(world.setup.hands[s]) for s in (wanted if simple else range(4))}
    parties: dict[int, tuple[Party | None, ...]] = {}
    for s in wanted:
        seen = list(view.parties)
        if re is not None:
            seen[s] = Party.RE if re[s] else Party.KONTRA
        parties[s] = tuple(seen)
    for step in steps(view) if plan is None else plan:
        hand = hands.get(step.seat)
        if hand is None:
            continue
        card = step.card
        if step.index is not None and step.then is not None and step.seat in wanted:
            legal: Sequence[Card]
            if simple:
                following = [c for c in hand if cls[c] == cls[step.trick[0]]] if step.trick else []
                legal = tuple(dict.fromkeys(following or hand))
            else:
                state = dataclasses.replace(
                    world,
                    hands=tuple(tuple(hands[s]) for s in range(4)),
                    trick=step.trick,
                    leader=step.then.leader,
                    tricks=view.tricks[: step.number],
                    to_act=step.seat,
                )
                legal = legal_cards(state) or (card,)
            # Every play is listed, forced ones too (they agree and weigh 1), so that the
            # lists of all worlds line up play by play.
            agrees = len(legal) == 1
            if not agrees:
                seat_view = _seen_as(
                    step.then,
                    tuple(hand),
                    parties[step.seat],
                    tuple(_PLAYS[step.seat, c] for c in legal),
                )
                agrees = _POLICY._play(seat_view) == _PLAYS[step.seat, card]
            yield step.index, Observed(step.seat, agrees, len(legal))
        hand.remove(card)


def chance(observed: Sequence[Observed], noise: Sequence[float]) -> float:
    """How likely the plays ``observed`` (one world's) are under the model."""
    return math.exp(sum(_log_play(o, noise) for o in observed))


def _log_play(o: Observed, noise: Sequence[float]) -> float:
    """The log-chance of one replayed play: the policy's card with 1 − ε, any with ε."""
    eps = noise[o.seat]
    return math.log((1 - eps) * o.agrees + eps / o.choices + 1e-300)


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


def refine(
    view: PlayerView,
    worlds: Sequence[GameState],
    seen: Sequence[Sequence[Observed]],
    noise: Sequence[float],
    prior: Callable[[GameState], float],
    rng: random.Random,
    moves: int,
    deadline: float | None = None,
) -> tuple[list[GameState], list[list[Observed]]]:
    """Metropolis moves on ``worlds``: two other seats swap a card when the view allows it,
    kept with the chance that the new world explains the others' announcements
    (``prior``) and plays (under ``noise``) at least as well as the old one.

    The swap is symmetric (each card of each hand equally likely), so the worlds drift
    towards the deals the model finds likely, not only towards those first dealt.
    """
    states = list(worlds)
    observed = [list(o) for o in seen]
    if len(states) == 0 or moves <= 0:
        return states, observed
    hidden = [s for s in range(4) if s != view.seat and states[0].hands[s]]
    if len(hidden) < 2:
        return states, observed
    cls = view.order.suit_class
    void = voids(view)
    need, barred = queen_needs(view, played_by(view))
    queen = team_card(view.rules)
    plan = steps(view)

    def log_weight(state: GameState, plays: Sequence[Observed]) -> float:
        return math.log(prior(state) + 1e-300) + sum(_log_play(o, noise) for o in plays)

    logs = [log_weight(s, o) for s, o in zip(states, observed, strict=True)]
    for move in range(moves):
        if deadline is not None and move % 8 == 0 and time.perf_counter() > deadline:
            break
        k = move % len(states)
        state = states[k]
        a, b = rng.sample(hidden, 2)
        i = rng.randrange(len(state.hands[a]))
        j = rng.randrange(len(state.hands[b]))
        ca, cb = state.hands[a][i], state.hands[b][j]
        if ca == cb or cls[ca] in void[b] or cls[cb] in void[a]:
            continue
        if (ca == queen or cb == queen) and not _queens_allow(
            state, a, b, ca, cb, queen, need, barred
        ):
            continue
        hands = [list(h) for h in state.hands]
        hands[a][i], hands[b][j] = cb, ca
        after = _world(view, hands)
        # Early rejection: the plays only lower the weight, so stop once it is below
        # the bar this move must clear.
        bar = logs[k] + math.log(1 - rng.random())
        plays = observed[k][:]
        total = math.log(prior(after) + 1e-300) + sum(
            _log_play(o, noise) for o in plays if o.seat != a and o.seat != b
        )
        ok = total >= bar
        if ok:
            for index, o in replays(view, after, (a, b), plan):
                plays[index] = o
                total += _log_play(o, noise)
                if total < bar:
                    ok = False
                    break
        if ok:
            states[k], observed[k], logs[k] = after, plays, total
    return states, observed


def _queens_allow(
    state: GameState,
    a: int,
    b: int,
    ca: Card,
    cb: Card,
    queen: Card,
    need: Sequence[int],
    barred: Collection[int],
) -> bool:
    """Whether swapping ``ca`` (from ``a``) and ``cb`` (from ``b``) keeps the queens of
    clubs where announcements and play put them (docs/rules.md §4)."""
    for giver, taker, card in ((a, b, ca), (b, a, cb)):
        if card == queen:
            if taker in barred:
                return False
            if state.hands[giver].count(queen) - 1 < need[giver]:
                return False
    return True
