"""Sampled deals: the unseen cards dealt in ways consistent with what one seat knows.

A world is a full ``GameState`` the engine can play on: the seat's own hand and
everything public stay as they are; the other seats get the unseen cards so that
every seat holds as many cards as it does, no seat holds a card of a class it
failed to follow, the queens of clubs sit where announcements, play and a
marriage put them, and a poverty's cards where its exchange put them: the two
partners know what passed between them, and everyone how many trumps came back,
which are all the poor player holds (docs/rules.md §4, §6).
"""

from __future__ import annotations

import bisect
import dataclasses
import math
import random
from collections import Counter
from collections.abc import Sequence

from dokobot.engine import (
    TRUMP,
    Card,
    Contract,
    GameSetup,
    GameState,
    Parties,
    Party,
    Phase,
    PlayerView,
    calls_from,
    parties_after,
    team_card,
)
from dokobot.engine.cards import make_deck

from .heuristic import counts_as_trump

#: Deals tried the plain way before each card is dealt only where the rest still fit.
_PLAIN_TRIES = 4


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


def placed(view: PlayerView, played: Sequence[Sequence[Card]]) -> list[list[Card]]:
    """Per seat, unseen cards the view knows it holds: a marriage player's queens of
    clubs, and what passed between the two partners of a poverty (docs/rules.md §4)."""
    out: list[list[Card]] = [[], [], [], []]
    declarer = view.declarer
    if declarer is None:
        return out
    if view.contract in (Contract.MARRIAGE, Contract.MARRIAGE_ALONE):
        if declarer != view.seat:
            # Only a seat holding both queens of clubs may announce a marriage.
            queen = team_card(view.rules)
            out[declarer] = [queen] * max(0, 2 - played[declarer].count(queen))
    elif view.contract is Contract.POVERTY and view.poverty_cards:
        n = view.rules.poverty_cards
        passed, back = Counter(view.poverty_cards[:n]), Counter(view.poverty_cards[n:])
        if view.seat == declarer:
            # The acceptor took the passed cards up: those it did not give back are
            # still in its hand unless it has played them.
            (acceptor,) = (
                s for s in range(4) if s != declarer and view.parties[s] is view.parties[declarer]
            )
            out[acceptor] = list((passed - back - Counter(played[acceptor])).elements())
        else:
            # The acceptor's view: what it gave back lies with the poor player.
            out[declarer] = list((back - Counter(played[declarer])).elements())
    return out


def poverty_trumps(
    view: PlayerView, played: Sequence[Sequence[Card]]
) -> tuple[int, int, int] | None:
    """A poverty's poor player (not the seat itself) and how many trumps it holds now,
    at least and at most. Its own trumps all went to the acceptor, so it holds the
    trumps that came back (public, docs/rules.md §4); with ``poverty_fox_counts`` off
    it may have kept a ♦A, which is not counted here (``counts_as_trump``)."""
    poor = view.declarer
    back = view.poverty_trumps_returned
    if view.contract is not Contract.POVERTY or poor is None or poor == view.seat or back is None:
        return None
    fox = view.rules.poverty_fox_counts
    counted = counts_as_trump(view.rules)
    gone = sum(1 for c in played[poor] if c in counted)
    if view.poverty_cards:
        # The acceptor knows which cards came back.
        exact = sum(1 for c in view.poverty_cards[view.rules.poverty_cards :] if c in counted)
        low = high = exact
    elif fox:
        low = high = back
    else:
        # Up to two of the trumps that came back may be a ♦A, which are not counted.
        low, high = max(0, back - 2), back
    return poor, max(0, low - gone), max(0, high - gone)


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
        played = played_by(view)
        # Cards the view places are dealt before anything else, and leave less room.
        self.fixed = placed(view, played)
        pool = Counter(unseen_cards(view))
        pool.subtract(c for cards in self.fixed for c in cards)
        self.consistent = all(n >= 0 for n in pool.values())
        self.unseen = sorted(pool.elements())
        self.seats = [s for s in range(4) if s != view.seat]
        self.sizes = [view.hand_sizes[s] - len(self.fixed[s]) for s in range(4)]
        void = voids(view)
        cls = view.order.suit_class
        self.cls = cls
        self.poor = poverty_trumps(view, played)
        # The non-empty sets of other seats, as bits (``_fits``).
        bits = [1 << s for s in self.seats]
        self._subsets = [
            sum(b for i, b in enumerate(bits) if pick >> i & 1) for pick in range(1, 8)
        ]
        # The cards that count as the poor player's trumps (``poverty_trumps``).
        self.counted = counts_as_trump(view.rules) if self.poor else frozenset()
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
        if not self.consistent or any(sizes[s] < 0 for s in seats):
            return None
        poor = -1 if self.poor is None else self.poor[0]
        for attempt in range(tries):
            # Where voids and a poverty leave little room, plain tries rarely come
            # through: after a few, each card only goes where the rest still fit.
            careful = attempt >= _PLAIN_TRIES
            hands: list[list[Card]] = [[], [], [], []]
            queens_held = [0, 0, 0, 0]
            cards = self.unseen[:]
            rng.shuffle(cards)
            spare = 0
            if poor >= 0:
                # A poverty: the poor player gets the trumps it must hold first, and then
                # only as many more as it may hold (``poverty_trumps``).
                spare = self._deal_poor(cards, hands[poor])
                if spare < 0:
                    return None
            # Queens first where a seat needs one, then the most constrained cards first
            # (trumps a poor player may take only so many of count as shut to it).
            queens = [c for c in cards if c == queen]
            rest = [c for c in cards if c != queen]
            barred = self.counted if poor >= 0 else frozenset()
            order = queens + sorted(rest, key=lambda c: -shut[c] - (c in barred))
            ok = True
            ratio = 0.0
            left = Counter(self._seats_of(c, spare > 0) for c in order) if careful else None
            for i, card in enumerate(order):
                if card == queen:
                    eligible = [s for s in self.queen_open_to if len(hands[s]) < sizes[s]]
                    wanting = [s for s in eligible if queens_held[s] < need[s]]
                    eligible = wanting or eligible
                else:
                    eligible = [s for s in self.open_to[cls[card]] if len(hands[s]) < sizes[s]]
                if poor >= 0 and spare <= 0 and card in self.counted:
                    eligible = [s for s in eligible if s != poor]
                if left is not None:
                    left[self._seats_of(card, spare > 0)] -= 1
                    later = order[i + 1 :]
                    eligible = [
                        s for s in eligible if self._fits(left, hands, s, card, spare, later)
                    ]
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
                if seat == poor and card in self.counted:
                    spare -= 1
                    if left is not None and spare == 0:
                        left = Counter(self._seats_of(c, False) for c in order[i + 1 :])
            if ok and all(queens_held[s] >= need[s] for s in seats):
                for s in seats:
                    hands[s].extend(self.fixed[s])
                hands[self.view.seat] = list(self.view.hand)
                return hands, ratio
        return None

    def _seats_of(self, card: Card, poor_open: bool) -> int:
        """The seats that may hold ``card``, as bits (the poor player's only while it
        may take more trumps, ``poor_open``)."""
        seats = self.queen_open_to if card == self.queen else self.open_to[self.cls[card]]
        shut = -1 if poor_open or card not in self.counted or self.poor is None else self.poor[0]
        return sum(1 << s for s in seats if s != shut)

    def _fits(
        self,
        left: Counter[int],
        hands: Sequence[Sequence[Card]],
        seat: int,
        card: Card,
        spare: int,
        later: Sequence[Card],
    ) -> bool:
        """Whether, with ``card`` given to ``seat``, the cards ``left`` (counted by the
        seats that may hold them; ``later`` the cards themselves) can all still be dealt:
        no set of seats is left with more cards that only they may hold than they have
        room for (Hall's condition)."""
        room = [self.sizes[s] - len(hands[s]) - (s == seat) for s in range(4)]
        if self.poor is not None and seat == self.poor[0] and spare == 1 and card in self.counted:
            # The poor player's last trump: the trumps still to come are shut to it.
            left = Counter(self._seats_of(c, False) for c in later)
        for subset in self._subsets:
            only = sum(n for mask, n in left.items() if n and mask & ~subset == 0)
            if only > sum(room[s] for s in self.seats if subset >> s & 1):
                return False
        return True

    def _deal_poor(self, cards: list[Card], hand: list[Card]) -> int:
        """A poverty: the trumps the poor player must still hold, from the shuffled
        ``cards`` into its ``hand``; how many more it may take (``-1``: it cannot hold
        what it must)."""
        assert self.poor is not None
        poor, low, high = self.poor
        have = sum(1 for c in self.fixed[poor] if c in self.counted)
        take = max(0, low - have)
        trumps = [c for c in cards if c in self.counted] if poor in self.open_to[TRUMP] else []
        if take > min(len(trumps), self.sizes[poor]) or have > high:
            return -1
        for card in trumps[:take]:
            cards.remove(card)
            hand.append(card)
        return high - have - take


def world(view: PlayerView, hands: Sequence[Sequence[Card]]) -> GameState:
    """The full game state of a world in which the seats hold ``hands`` now."""
    played = played_by(view)
    original = tuple(tuple(sorted([*hands[s], *played[s]])) for s in range(4))
    setup = GameSetup(
        rules=view.rules, dealer=view.dealer, hands=original, solo_owed=view.solo_owed
    )
    parties = _parties(view, hands, played)
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
        calls_from(view.announcements, view.declared, parties.shift),
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
        if contract in _SETTLED_IN_PLAY:
            # Settled by a trick: which one shifts the announcement deadlines (§4, §6).
            kind = Contract.MARRIAGE if contract is Contract.MARRIAGE_ALONE else contract
            declarer = None if kind is Contract.SCHWARZE_SAU else view.declarer
            start = Parties(kind, declarer, order=order)
            return dataclasses.replace(parties_after(start, view.rules, view.tricks), order=order)
        re = tuple(p is Party.RE for p in view.parties)
        if contract is Contract.NORMAL and sum(re) == 1:
            # A silent marriage its queens of clubs have shown (§4): a solo in disguise.
            return Parties(Contract.SILENT_MARRIAGE, re.index(True), None, re, False, order, True)
        partner = None
        if contract is Contract.POVERTY:
            partner = next(s for s in range(4) if re[s] and s != view.declarer)
        return Parties(contract, view.declarer, partner, re, False, order, True)
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


#: Contracts whose parties a trick settles (a marriage's partner, a Schwarze Sau's soloist).
_SETTLED_IN_PLAY = (Contract.MARRIAGE, Contract.MARRIAGE_ALONE, Contract.SCHWARZE_SAU)
