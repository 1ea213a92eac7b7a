"""How the other seats play: a model fitted to the cards they played this game.

Each other seat is modelled as playing the heuristic's card play with
probability ``1 - ε`` and a uniformly random legal card with probability ``ε``.
In a sampled world every earlier play can be replayed against the policy, so a
world can be weighed by how well it explains the plays (card inference), and ε
itself is fitted per seat: a seat that keeps playing what no sensible player
plays gets a high ε, and its cards then say little about its hand. Each play is
replayed with what its seat knew then (the parties as far as they were out).

What the others said is replayed the same way (``CallReplays``): each healthy
against the heuristic's reservation, and at each card while a seat's Re or Kontra
was open, its call or its silence against the heuristic's announcement.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import TypeVar

from dokobot.engine import (
    Action,
    Announcement,
    Bid,
    Card,
    Contract,
    GameState,
    Made,
    Party,
    Play,
    PlayerView,
    Reservation,
    apply,
    calls_from,
    deduce_parties,
    legal_bids,
    legal_cards,
    may_announce,
    team_card,
)

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


def replay(
    view: PlayerView,
    world: GameState,
    plan: Sequence[Step] | None = None,
    seats: Collection[int] | None = None,
) -> list[Observed]:
    """Every earlier play of the other seats, in order, replayed in ``world`` against the
    heuristic's card play (what that seat saw then: its hand, the tricks); ``plan``:
    ``steps(view)``, when the caller has it already; with ``seats`` only theirs."""
    return [o for _, o in replays(view, world, seats, plan)]


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
    #: What was public then about the parties of a normal game: the queens of clubs each
    #: seat had played, and who had announced Re and Kontra.
    queens: tuple[int, ...] = (0, 0, 0, 0)
    re_called: frozenset[int] = frozenset()
    kontra_called: frozenset[int] = frozenset()


def steps(view: PlayerView) -> list[Step]:
    """Every earlier play of ``view``'s game, in order (what ``replays`` walks through)."""
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    queen = team_card(view.rules)
    queens = [0, 0, 0, 0]
    played = [0, 0, 0, 0]
    out: list[Step] = []
    index = 0
    for number, (leader, cards) in enumerate(tricks):
        for i, card in enumerate(cards):
            seat = (leader + i) % 4
            # An announcement is taken as known from the announcer's next card on (it
            # is made before that card, and its record only tells how many cards the
            # announcer had played): what the seat could know when it played.
            re_called = frozenset(
                m.seat
                for m in view.announcements
                if m.party is Party.RE and played[m.seat] > m.played
            )
            kontra_called = frozenset(
                m.seat
                for m in view.announcements
                if m.party is Party.KONTRA and played[m.seat] > m.played
            )
            if seat == view.seat:
                out.append(Step(seat, card, None, None, cards[:i], number))
            else:
                then = dataclasses.replace(
                    view,
                    seat=seat,
                    trick=tuple(((leader + j) % 4, c) for j, c in enumerate(cards[:i])),
                    tricks=view.tricks[:number],
                    leader=leader,
                    to_act=seat,
                )
                step = Step(
                    seat,
                    card,
                    index,
                    then,
                    cards[:i],
                    number,
                    tuple(queens),
                    re_called,
                    kontra_called,
                )
                out.append(step)
                index += 1
            played[seat] += 1
            queens[seat] += card == queen
    return out


#: Every play as one shared value (the replays build many legal lists).
_PLAYS = {(seat, card): Play(seat, card) for seat in range(4) for card in Card}
_VIEW_FIELDS = tuple(f.name for f in dataclasses.fields(PlayerView))


def _copied(view: PlayerView, **fields: object) -> PlayerView:
    """``view`` with ``fields`` replaced (a cheap ``dataclasses.replace``: the replays
    build one view per play and world)."""
    out = object.__new__(PlayerView)
    for name in _VIEW_FIELDS:
        object.__setattr__(out, name, fields[name] if name in fields else getattr(view, name))
    return out


def _seen_as(
    then: PlayerView,
    world: GameState,
    hand: tuple[Card, ...],
    parties: tuple[Party | None, ...],
    legal: tuple[Action, ...],
    announcements: tuple[Made, ...] | None = None,
) -> PlayerView:
    """``then`` with the hand, parties and legal actions of one world, and the
    announcements made by then."""
    changes: dict[str, object] = {"hand": hand, "parties": parties, "legal": legal}
    if announcements is not None:
        changes["announcements"] = announcements
    if _silent(world, then.seat):
        # The holder of both queens knows it plays a silent marriage, a hidden solo (§4),
        # though the others see a normal game.
        changes["contract"] = Contract.SILENT_MARRIAGE
        changes["declarer"] = then.seat
    return _copied(then, **changes)


def _silent(world: GameState, seat: int) -> bool:
    """Whether ``seat`` plays a silent marriage in ``world`` (it was dealt both queens)."""
    return (
        world.parties.contract in (Contract.NORMAL, Contract.SILENT_MARRIAGE)
        and world.setup.hands[seat].count(team_card(world.setup.rules)) == 2
    )


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
                    world,
                    tuple(hand),
                    _parties_then(world, step, parties[step.seat]),
                    tuple(_PLAYS[step.seat, c] for c in legal),
                )
                agrees = _POLICY._play(seat_view) == _PLAYS[step.seat, card]
            yield step.index, Observed(step.seat, agrees, len(legal))
        hand.remove(card)


def _parties_then(
    world: GameState, step: Step, now: tuple[Party | None, ...]
) -> tuple[Party | None, ...]:
    """The parties as the seat of ``step`` could tell them when it acted: in a normal
    game they come out in the course of play (its own queens, the queens played, the
    announcements made), so not those public ``now``; in any other game ``now``."""
    re = world.parties.re
    if (
        re is None
        or world.parties.contract not in (Contract.NORMAL, Contract.SILENT_MARRIAGE)
        or world.calls.has("genscher")  # Genscher names the new parties aloud (§9.4)
    ):
        return now
    return _deduced(
        step.seat,
        re[step.seat],
        world.setup.hands[step.seat].count(team_card(world.setup.rules)),
        step.queens,
        step.re_called,
        step.kontra_called,
    )


_deduced = functools.lru_cache(maxsize=4096)(deduce_parties)


def calls_replayed(
    view: PlayerView, world: GameState, plan: Sequence[Step] | None = None
) -> list[Observed]:
    """Each other seat's choice, at each of its plays while its party's Re or Kontra was
    open to it, to announce or not, replayed in ``world`` against the heuristic's (which
    announces at once with a strong hand): a seat that stayed silent is unlikely to hold
    one, an announcer likely to (docs/rules.md §6)."""
    return CallReplays(view, plan).calls(world)


def bids_replayed(view: PlayerView, world: GameState) -> list[Observed]:
    """Each other seat's healthy, replayed in ``world`` against the heuristic's reservation:
    a seat that said healthy is unlikely to hold a hand the heuristic plays as a solo, or
    both queens of clubs and a hand it would rather marry with (docs/rules.md §4)."""
    return CallReplays(view).bids(world)


class CallReplays:
    """What the other seats said, replayed world by world against the heuristic: their
    reservations (``bids_replayed``) and their Re and Kontra (``calls_replayed``). What the
    worlds share is worked out once (the announcements made before each play, whether a
    party's call was open)."""

    def __init__(
        self,
        view: PlayerView,
        plan: Sequence[Step] | None = None,
        seats: Collection[int] | None = None,
    ) -> None:
        self.view = view
        self.plan = steps(view) if plan is None else plan
        #: The seats whose words are replayed (``None``: every other seat).
        self.seats = set(range(4)) - {view.seat} if seats is None else set(seats)
        # Where each announcement stands among the plays: before its maker's next card,
        # as the AI seats make theirs (a maker yet to play again: after every play so far).
        count = [0, 0, 0, 0]
        at: dict[tuple[int, int], int] = {}
        for i, step in enumerate(self.plan):
            at[step.seat, count[step.seat]] = i
            count[step.seat] += 1
        made = [
            (at.get((m.seat, m.played), len(self.plan)), m)
            for m in view.announcements
            if not m.implied
        ]
        self.before: list[tuple[Made, ...]] = []
        self.called: list[bool] = []
        for i, step in enumerate(self.plan):
            self.before.append(tuple(m for place, m in made if place < i))
            self.called.append(any(place == i and m.seat == step.seat for place, m in made))
        # Whether a seat's party call was open at a play depends on the world only by
        # its parties.
        self._open: dict[tuple[object, ...], bool] = {}
        # The reservation round up to its first reservation: every word in it is healthy
        # (the others' reservations are hidden, so what follows one cannot be replayed).
        self.healthy: list[int] = []
        for seat, word in view.bids:
            if word != Reservation.HEALTHY.value:
                break
            self.healthy.append(seat)
        # A poverty's two partners hold other cards than they bid with: a world (the
        # cards now, the cards played) cannot replay their words (docs/rules.md §4).
        self.exchanged: set[int] = set()
        if view.contract is Contract.POVERTY:
            self.exchanged = {s for s in range(4) if view.parties[s] is Party.RE}

    def __call__(self, world: GameState) -> list[Observed]:
        """The bids, then the calls (``bids_replayed`` + ``calls_replayed``)."""
        return self.bids(world) + self.calls(world)

    def bids(self, world: GameState) -> list[Observed]:
        """Each other seat's healthy, replayed in ``world``: would the heuristic, with that
        hand, have said healthy too (not a solo, a marriage, poverty)?"""
        view = self.view
        if world.poverty is not None:
            # The world's hands are those after the poverty exchange, not those bid with.
            return []
        state = GameState.new(world.setup)
        out: list[Observed] = []
        for seat in self.healthy:
            legal = legal_bids(state)
            if state.to_act != seat or Reservation.HEALTHY not in legal:
                break
            if seat != view.seat and seat in self.seats and seat not in self.exchanged:
                wanted = _POLICY.reservation(world.setup.hands[seat], legal, view.rules)
                out.append(Observed(seat, wanted is Reservation.HEALTHY, 2))
            state = apply(state, Bid(seat, Reservation.HEALTHY))
        return out

    def calls(self, world: GameState) -> list[Observed]:
        """``calls_replayed`` of ``world``."""
        re = world.parties.re
        if re is None or world.parties.contract is Contract.MARRIAGE or world.poverty is not None:
            # The parties of a marriage or a poverty formed during play: not replayed.
            return []
        public = tuple(world.parties.party(s) for s in range(4))
        hands = {s: list(world.setup.hands[s]) for s in self.seats}
        out: list[Observed] = []
        for i, step in enumerate(self.plan):
            hand = hands.get(step.seat)
            then = step.then
            if hand is None or then is None:
                continue
            seat = step.seat
            if self._party_call_open(i, step, world):
                # The contract as the seat knew it: the holder of both queens knows it
                # plays a silent marriage, a hidden solo (§4), though the others see a
                # normal game.
                if _silent(world, seat):
                    solo: Contract | None = Contract.SILENT_MARRIAGE
                elif then.contract is not None and then.contract.is_solo_scored:
                    solo = then.contract if then.declarer == seat else None
                else:
                    solo = None
                wanted = _POLICY.says_party(
                    hand,
                    then.order,
                    _parties_then(world, step, public)[seat],
                    self.before[i],
                    solo,
                    then.rules,
                )
                out.append(Observed(seat, wanted == self.called[i], 2))
            hand.remove(step.card)
        return out

    def _party_call_open(self, i: int, step: Step, world: GameState) -> bool:
        """Whether the seat of play ``i`` could still say its Re or Kontra then."""
        parties = world.parties
        assert parties.re is not None
        key = (i, parties.re, parties.shift, parties.contract, parties.open)
        known = self._open.get(key)
        if known is None:
            before = self.before[i]
            calls = calls_from(before, world.calls.declared, parties.shift)
            assert step.then is not None
            then = dataclasses.replace(
                world,
                trick=step.trick,
                leader=step.then.leader,
                tricks=self.view.tricks[: step.number],
                to_act=step.seat,
                calls=calls,
            )
            known = Announcement.PARTY in may_announce(then, step.seat)
            self._open[key] = known
        return known


def chance(observed: Sequence[Observed], noise: Sequence[float]) -> float:
    """How likely the plays ``observed`` (one world's) are under the model."""
    return math.exp(sum(log_play(o, noise) for o in observed))


def log_play(o: Observed, noise: Sequence[float]) -> float:
    """The log-chance of one replayed play: the policy's card with 1 − ε, any with ε."""
    eps = noise[o.seat]
    return math.log((1 - eps) * o.agrees + eps / o.choices + 1e-300)


def fit_noise(
    worlds: Sequence[Sequence[Observed]],
    seat: int,
    prior: float | Sequence[float],
    strength: float,
) -> list[float]:
    """Per seat, the most likely ε over the worlds (``seat`` itself: 0).

    Each play counts with how often the policy agrees with it across the worlds;
    ``prior`` (one for all, or per seat) weighs in as ``strength`` plays that agree at
    its rate.
    """
    priors = _priors(prior)
    agree: dict[int, list[tuple[float, float]]] = {s: [] for s in range(4)}
    if worlds:
        for i, first in enumerate(worlds[0]):
            share = sum(w[i].agrees for w in worlds) / len(worlds)
            agree[first.seat].append((share, first.choices))
    out = [0.0, 0.0, 0.0, 0.0]
    for s in range(4):
        if s != seat:
            plays = agree[s]
            pseudo = _pseudo(priors[s], strength)
            out[s] = max(
                _GRID, key=lambda e: _log_chance(plays, e) + strength * _log_chance(pseudo, e)
            )
    return out


def fit_noise_marginal(
    worlds: Sequence[Sequence[Observed]],
    seat: int,
    prior: float | Sequence[float],
    strength: float,
) -> list[float]:
    """Per seat, the ε under which the worlds together explain its plays best (``seat``
    itself: 0): the mean over the worlds of the chance of all its plays, not the chance
    of plays averaged over the worlds.

    A seat that plays like the policy is explained by the worlds that agree with all its
    plays at a low ε, however few they are; a seat that plays like chance by none.
    """
    out = [0.0, 0.0, 0.0, 0.0]
    priors = _priors(prior)
    if not worlds:
        return [0.0 if s == seat else priors[s] for s in range(4)]
    # Per seat and world: how many of its plays agree and disagree, by their choices.
    tallies: list[dict[tuple[int, bool, int], int]] = []
    for observed in worlds:
        tally: dict[tuple[int, bool, int], int] = {}
        for o in observed:
            if o.choices > 1:
                key = (o.seat, o.agrees, o.choices)
                tally[key] = tally.get(key, 0) + 1
        tallies.append(tally)
    for s in range(4):
        if s == seat:
            continue
        pseudo = _pseudo(priors[s], strength)
        counts = [[(a, c, n) for (t, a, c), n in tally.items() if t == s] for tally in tallies]

        def score(
            eps: float,
            counts: list[list[tuple[bool, int, int]]] = counts,
            pseudo: list[tuple[float, float]] = pseudo,
        ) -> float:
            logs = [
                sum(n * math.log((1 - eps) * a + eps / c + 1e-300) for a, c, n in world)
                for world in counts
            ]
            top = max(logs)
            mean = top + math.log(sum(math.exp(lg - top) for lg in logs) / len(logs))
            return mean + strength * _log_chance(pseudo, eps)

        out[s] = max(_GRID[1:-1], key=score)
    return out


def _priors(prior: float | Sequence[float]) -> list[float]:
    """The prior ε per seat (one for all seats, or one each)."""
    return [float(prior)] * 4 if isinstance(prior, int | float) else list(prior)


def _pseudo(prior: float, strength: float) -> list[tuple[float, float]]:
    """The prior as plays: four choices, agreeing as a seat of ε = prior would."""
    return [((1 - prior) + prior / 4, 4.0)] if strength else []


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
    seats: Collection[int] | None = None,
) -> tuple[list[GameState], list[list[Observed]]]:
    """Metropolis moves on ``worlds``: two other seats swap a card when the view allows it,
    kept with the chance that the new world explains the others' announcements
    (``prior``) and plays (under ``noise``) at least as well as the old one. ``seen``
    holds the plays of ``seats`` (``None``: every other seat), as ``replay`` lists them.

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
    replayed = set(range(4)) - {view.seat} if seats is None else set(seats)
    # A play's place in ``seen``: among the plays of the replayed seats only.
    place: dict[int, int] = {}
    for step in plan:
        if step.index is not None and step.seat in replayed:
            place[step.index] = len(place)

    def log_weight(state: GameState, plays: Sequence[Observed]) -> float:
        return math.log(prior(state) + 1e-300) + sum(log_play(o, noise) for o in plays)

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
            log_play(o, noise) for o in plays if o.seat != a and o.seat != b
        )
        ok = total >= bar
        if ok:
            for index, o in replays(view, after, {a, b} & replayed, plan):
                plays[place[index]] = o
                total += log_play(o, noise)
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
