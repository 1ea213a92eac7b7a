"""Poverty for the strong AI (docs/rules.md §4): deals consistent with what a seat
knows while the exchange is under way, the exchange played to its end as the
heuristic plays it, and the sensible sets of cards a poor player may put down and
an acceptor may give back.

A poverty's poor player puts down all its trumps (at most ``poverty_cards`` of
them) and fills up with plain cards; from its left each seat takes them or not;
the acceptor gives as many back. The strong AI decides its reservation, the cards
it puts down, its answer and what it gives back by playing each choice out on
such deals (``StrongStrategy.poverty_bids``).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

from dokobot.engine import (
    TRUMP,
    Bid,
    Card,
    Contract,
    GameSetup,
    GameState,
    IllegalActionError,
    PassCards,
    Phase,
    PlayerView,
    PovertyReply,
    Rank,
    Reservation,
    ReturnCards,
    RuleSet,
    apply,
    order_for,
)
from dokobot.engine.cards import CARD_POINTS, make_deck

from .heuristic import accepts_poverty, counts_as_trump, poverty_pass, poverty_return


def bid_poverty(setup: GameSetup, poor: int) -> GameState:
    """The reservation round of ``setup`` with ``poor`` announcing poverty, everyone else
    healthy: the state where the poor player puts its cards down."""
    state = GameState.new(setup)
    while state.phase is Phase.BIDDING:
        seat = state.to_act
        assert seat is not None
        word = Reservation.POVERTY if seat == poor else Reservation.HEALTHY
        state = apply(state, Bid(seat, word))
    return state


def exchange(state: GameState, rng: random.Random, chance: Sequence[bool]) -> GameState:
    """The rest of the poverty exchange of ``state`` as the heuristic plays it, a seat of
    ``chance`` answering and giving back at random: the state where play starts, or
    the finished game of a poverty nobody took under the redeal rule."""
    rules = state.rules
    while state.phase is Phase.POVERTY:
        seat = state.to_act
        pov = state.poverty
        assert seat is not None and pov is not None
        hand = state.hands[seat]
        if not pov.passed:
            state = apply(state, PassCards(seat, poverty_pass(hand, rules)))
        elif pov.acceptor is None:
            take = rng.random() < 0.5 if chance[seat] else accepts_poverty(hand, rules)
            state = apply(state, PovertyReply(seat, take))
        elif chance[seat]:
            # A chance player gives back any cards it may; under "no trumps back" a
            # draw with a trump is drawn again (a chance the heuristic's cards stand in
            # for, should that go on too long).
            for _ in range(20):
                try:
                    state = apply(
                        state, ReturnCards(seat, tuple(rng.sample(hand, len(pov.passed))))
                    )
                    break
                except IllegalActionError:
                    continue
            else:
                state = apply(state, ReturnCards(seat, poverty_return(hand, rules)))
        else:
            state = apply(state, ReturnCards(seat, poverty_return(hand, rules)))
    return state


def redealt(state: GameState) -> bool:
    """Nobody took the poverty and the cards are dealt again: the game counts nothing."""
    return state.phase is Phase.FINISHED and not state.tricks


def world(view: PlayerView, rng: random.Random) -> GameState | None:
    """One deal consistent with ``view`` during a poverty exchange, at the view's
    decision: the poor player's, which cards to put down (the others' hands as dealt);
    or one asked's or the acceptor's: the poor player held no more trumps than it may
    put down, all of them among its cards put down (which the acceptor knows), and
    every seat between the poor player and this one declined. ``None``: the view is
    not at such a decision."""
    rules = view.rules
    poor = view.declarer
    n = rules.poverty_cards
    if view.phase is not Phase.POVERTY or poor is None:
        return None
    counted = counts_as_trump(rules)
    pool = Counter(make_deck(nines=rules.nines))
    pool.subtract(view.hand)
    cards = sorted(pool.elements())
    rng.shuffle(cards)
    passed: tuple[Card, ...] = view.poverty_cards[:n]
    size = len(view.hand) - len(passed)  # every seat's hand as dealt
    hands: list[list[Card]] = [[], [], [], []]
    if poor == view.seat:
        # The poor player before it puts its cards down: the others' hands are open.
        if passed:
            return None
        hands[poor] = list(view.hand)
    elif passed:
        # The acceptor: the poor player kept none of the trumps it had to put down.
        own = Counter(view.hand)
        own.subtract(passed)
        hands[view.seat] = sorted(own.elements())
        rest = [c for c in cards if c not in counted]
        if len(rest) < size - n:
            return None
        hands[poor] = rest[: size - n] + list(passed)
        for card in hands[poor][: size - n]:
            cards.remove(card)
    else:
        hands[view.seat] = list(view.hand)
        trumps = [c for c in cards if c in counted]
        plain = [c for c in cards if c not in counted]
        counts = range(min(n, len(trumps)) + 1)
        ways = [math.comb(len(trumps), k) * math.comb(len(plain), size - k) for k in counts]
        if not any(ways):
            return None
        k = rng.choices(counts, weights=ways)[0]
        hands[poor] = trumps[:k] + plain[: size - k]
        for card in hands[poor]:
            cards.remove(card)
    it = iter(cards)
    for seat in range(4):
        if not hands[seat]:
            hands[seat] = [next(it) for _ in range(size)]
    setup = GameSetup(
        rules=rules,
        dealer=view.dealer,
        hands=tuple(tuple(sorted(h)) for h in hands),
        solo_owed=view.solo_owed,
    )
    state = bid_poverty(setup, poor)
    if poor == view.seat:
        return state
    state = apply(state, PassCards(poor, passed or poverty_pass(hands[poor], rules)))
    seat = (poor + 1) % 4
    while seat != view.seat and seat != poor:
        state = apply(state, PovertyReply(seat, False))
        seat = (seat + 1) % 4
    if passed:
        state = apply(state, PovertyReply(view.seat, True))
    return state


def return_options(hand: Sequence[Card], rules: RuleSet) -> list[tuple[Card, ...]]:
    """Sets of cards an acceptor may sensibly give back, the heuristic's first: the
    lowest plain cards, the plain cards of most points, each short suit whole, the
    lowest trumps, and one low trump with the lowest plain cards."""
    n = rules.poverty_cards
    order = order_for(rules, Contract.POVERTY)
    cls, power = order.suit_class, order.power
    plain = sorted((c for c in hand if cls[c] != TRUMP), key=lambda c: (CARD_POINTS[c], power[c]))
    trumps = sorted((c for c in hand if cls[c] == TRUMP), key=lambda c: power[c])
    options = [poverty_return(hand, rules), tuple((plain + trumps)[:n])]
    options.append(tuple((sorted(plain, key=lambda c: -CARD_POINTS[c]) + trumps)[:n]))
    for suit in sorted({cls[c] for c in plain}):
        cards = [c for c in plain if cls[c] == suit]
        if len(cards) <= n:
            options.append(tuple((cards + [c for c in plain if cls[c] != suit] + trumps)[:n]))
    options.append(tuple((trumps + plain)[:n]))
    options.append(tuple((trumps[:1] + plain + trumps[1:])[:n]))
    return list(dict.fromkeys(tuple(sorted(o)) for o in options if len(o) == n))


def pass_options(hand: Sequence[Card], rules: RuleSet) -> list[tuple[Card, ...]]:
    """Sets of cards a poor player may sensibly put down, the heuristic's first: every
    trump it must, filled up with the plain cards of most points (which go to its
    partner), the lowest plain cards, the highest but its aces (which may take a
    trick of their own), or a short suit whole (so that it can trump that suit)."""
    n = rules.poverty_cards
    counted = counts_as_trump(rules)
    must = [c for c in hand if c in counted]
    order = order_for(rules, Contract.POVERTY)
    cls, power = order.suit_class, order.power
    rest = sorted((c for c in hand if c not in counted), key=lambda c: (CARD_POINTS[c], power[c]))
    room = n - len(must)
    fills = [list(reversed(rest)), rest]
    fills.append(sorted(rest, key=lambda c: (c.rank is not Rank.ACE, CARD_POINTS[c]), reverse=True))
    for suit in sorted({cls[c] for c in rest if cls[c] != TRUMP}):
        cards = [c for c in rest if cls[c] == suit]
        if len(cards) <= room:
            fills.append(cards + [c for c in rest if cls[c] != suit])
    options = [poverty_pass(hand, rules)] + [tuple(must + fill[:room]) for fill in fills]
    return list(dict.fromkeys(tuple(sorted(o)) for o in options if len(o) == n))
