"""Sampled deals: the unseen cards dealt in ways consistent with what one seat knows.

A world is a full ``GameState`` the engine can play on: the seat's own hand and
everything public stay as they are; the other seats get the unseen cards so that
every seat holds as many cards as it does, no seat holds a card of a class it
failed to follow, and the queens of clubs sit where announcements and play put
them (docs/rules.md §4, §6).
"""

from __future__ import annotations

import bisect
import math
import random
from collections import Counter
from collections.abc import Sequence

from dokobot.engine import (
    Calls,
    Card,
    Contract,
    GameSetup,
    GameState,
    Parties,
    Party,
    Phase,
    PlayerView,
    team_card,
)
from dokobot.engine.cards import make_deck


def unseen_cards(view: PlayerView) -> list[Card]:
    """Cards neither in the seat's hand nor played yet."""
    unseen = Counter(make_deck(nines=view.rules.nines))
    unseen.subtract(view.hand)
    for trick in view.tricks:
        unseen.subtract(trick.cards)
    unseen.subtract(c for _, c in view.trick)
    return sorted(unseen.elements())


def played_by(view: PlayerView) -> list[list[Card]]:
    """Per seat, the cards it has played."""
    out: list[list[Card]] = [[], [], [], []]
    for trick in view.tricks:
        for i, card in enumerate(trick.cards):
            out[trick.seat_of(i)].append(card)
    for seat, card in view.trick:
        out[seat].append(card)
    return out


def voids(view: PlayerView) -> list[set[int]]:
    """Per seat, the card classes it is known not to hold (it did not follow them)."""
    cls = view.order.suit_class
    out: list[set[int]] = [set(), set(), set(), set()]
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    for leader, cards in tricks:
        led = cls[cards[0]]
        for i in range(1, len(cards)):
            if cls[cards[i]] != led:
                out[(leader + i) % 4].add(led)
    return out


def queen_needs(view: PlayerView, played: Sequence[Sequence[Card]]) -> tuple[list[int], set[int]]:
    """Normal games: how many team queens each seat must still hold, and who holds none.

    A seat known to be Re holds a queen it has not played; a seat known to be
    Kontra holds none (docs/rules.md §4).
    """
    need = [0, 0, 0, 0]
    barred: set[int] = set()
    if view.contract is not Contract.NORMAL or any(d.what == "genscher" for d in view.declared):
        return need, barred
    queen = team_card(view.rules)
    for seat in range(4):
        if seat == view.seat:
            continue
        party = view.parties[seat]
        if party is Party.RE and queen not in played[seat]:
            need[seat] = 1
        elif party is Party.KONTRA:
            barred.add(seat)
    return need, barred


def deal_unseen(
    view: PlayerView, rng: random.Random, *, tries: int = 60
) -> list[list[Card]] | None:
    """The other seats' hands for one world, or ``None`` if no consistent deal was found."""
    dealt = deal_leaning(view, rng, None, tries=tries)
    return None if dealt is None else dealt[0]


def deal_leaning(
    view: PlayerView,
    rng: random.Random,
    lean: Sequence[dict[Card, float]] | None,
    *,
    tries: int = 60,
) -> tuple[list[list[Card]], float] | None:
    """Like ``deal_unseen``, but each card goes to a seat with its chance times
    ``lean[seat][card]`` (default 1); also the log of how much likelier ``deal_unseen``
    deals these hands than this deal does (the world's importance weight), or ``None``."""
    return Dealer(view).deal(rng, lean, tries=tries)


class Dealer:
    """``deal_leaning`` for one view, many times: what the view fixes (the unseen cards,
    who may hold which) is worked out once."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.unseen = unseen_cards(view)
        played = played_by(view)
        self.seats = [s for s in range(4) if s != view.seat]
        self.sizes = [view.hand_sizes[s] for s in range(4)]
        void = voids(view)
        cls = view.order.suit_class
        self.cls = cls
        self.need, barred = queen_needs(view, played)
        self.queen = team_card(view.rules)
        # Per card class: the seats that may hold it (a queen: not a barred seat).
        self.open_to = {k: [s for s in self.seats if k not in void[s]] for k in range(5)}
        self.queen_open_to = [s for s in self.open_to[cls[self.queen]] if s not in barred]
        # Per card: how many seats may not hold it (the most constrained are dealt first).
        self.shut = {c: sum(cls[c] in void[s] for s in self.seats) for c in set(self.unseen)}

    def deal(
        self,
        rng: random.Random,
        lean: Sequence[dict[Card, float]] | None,
        *,
        tries: int = 60,
    ) -> tuple[list[list[Card]], float] | None:
        """One deal (``deal_leaning``)."""
        seats, sizes, need, queen, cls = self.seats, self.sizes, self.need, self.queen, self.cls
        shut = self.shut
        for _ in range(tries):
            hands: list[list[Card]] = [[], [], [], []]
            queens_held = [0, 0, 0, 0]
            cards = self.unseen[:]
            rng.shuffle(cards)
            # Queens first where a seat needs one, then the most constrained cards first.
            queens = [c for c in cards if c == queen]
            rest = [c for c in cards if c != queen]
            order = queens + sorted(rest, key=lambda c: -shut[c])
            ok = True
            ratio = 0.0
            for card in order:
                if card == queen:
                    eligible = [s for s in self.queen_open_to if len(hands[s]) < sizes[s]]
                    wanting = [s for s in eligible if queens_held[s] < need[s]]
                    eligible = wanting or eligible
                else:
                    eligible = [s for s in self.open_to[cls[card]] if len(hands[s]) < sizes[s]]
                if not eligible:
                    ok = False
                    break
                # Weight by room left, so that deals are not biased to the first seats.
                room = [sizes[s] - len(hands[s]) for s in eligible]
                if lean is None or len(eligible) == 1:
                    # ``rng.choices(eligible, weights=room)``, the same draw, inline.
                    total = 0
                    cum = []
                    for r in room:
                        total += r
                        cum.append(total)
                    seat = eligible[bisect.bisect(cum, rng.random() * total, 0, len(cum) - 1)]
                else:
                    leaned = [
                        r * lean[s].get(card, 1.0) for r, s in zip(room, eligible, strict=True)
                    ]
                    k = rng.choices(range(len(eligible)), weights=leaned)[0]
                    seat = eligible[k]
                    ratio += math.log(room[k] / sum(room)) - math.log(leaned[k] / sum(leaned))
                hands[seat].append(card)
                if card == queen:
                    queens_held[seat] += 1
            if ok and all(queens_held[s] >= need[s] for s in seats):
                hands[self.view.seat] = list(self.view.hand)
                return hands, ratio
        return None


def world(view: PlayerView, hands: Sequence[Sequence[Card]]) -> GameState:
    """The full game state of a world in which the seats hold ``hands`` now."""
    played = played_by(view)
    original = tuple(tuple(sorted([*hands[s], *played[s]])) for s in range(4))
    setup = GameSetup(rules=view.rules, dealer=view.dealer, hands=original)
    parties = _parties(view, hands, played)
    re_level = max((m.level for m in view.announcements if m.party is Party.RE), default=-1)
    ko_level = max((m.level for m in view.announcements if m.party is Party.KONTRA), default=-1)
    calls = Calls(re_level, ko_level, view.announcements, declared=view.declared)
    return GameState(
        setup,
        Phase.PLAY,
        (),
        parties,
        None,
        tuple(tuple(sorted(h)) for h in hands),
        tuple(c for _, c in view.trick),
        view.leader,
        view.tricks,
        calls,
        view.to_act,
        (),
    )


def _parties(
    view: PlayerView, hands: Sequence[Sequence[Card]], played: Sequence[Sequence[Card]]
) -> Parties:
    contract = view.contract
    assert contract is not None
    order = view.order
    if all(p is not None for p in view.parties):
        re = tuple(p is Party.RE for p in view.parties)
        return Parties(contract, view.declarer, None, re, False, order, True)
    if contract is Contract.NORMAL:
        queen = team_card(view.rules)
        holders = {s for s in range(4) if queen in hands[s] or queen in played[s]}
        re = tuple(s in holders for s in range(4))
        if len(holders) == 1:
            # Both queens with one seat that said healthy: a silent marriage (§4).
            (alone,) = holders
            return Parties(Contract.SILENT_MARRIAGE, alone, None, re, False, order, True)
        return Parties(contract, None, None, re, False, order, True)
    # Parties still open (an unclarified marriage, a Schwarze Sau, a Ramsch).
    return Parties(contract, view.declarer, order=order)
