"""Sampled deals: the unseen cards dealt in ways consistent with what one seat knows.

A world is a full ``GameState`` the engine can play on: the seat's own hand and
everything public stay as they are; the other seats get the unseen cards so that
every seat holds as many cards as it does, no seat holds a card of a class it
failed to follow, and the queens of clubs sit where announcements and play put
them (docs/rules.md §4, §6).
"""

from __future__ import annotations

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
    unseen = unseen_cards(view)
    played = played_by(view)
    seats = [s for s in range(4) if s != view.seat]
    sizes = {s: view.hand_sizes[s] for s in seats}
    void = voids(view)
    cls = view.order.suit_class
    need, barred = queen_needs(view, played)
    queen = team_card(view.rules)
    for _ in range(tries):
        hands: dict[int, list[Card]] = {s: [] for s in seats}
        cards = unseen[:]
        rng.shuffle(cards)
        # Queens first where a seat needs one, then the most constrained cards first.
        queens = [c for c in cards if c == queen]
        rest = [c for c in cards if c != queen]
        order = queens + sorted(rest, key=lambda c: -sum(cls[c] in void[s] for s in seats))
        ok = True
        ratio = 0.0
        for card in order:
            eligible = [
                s
                for s in seats
                if len(hands[s]) < sizes[s]
                and cls[card] not in void[s]
                and not (card == queen and s in barred)
            ]
            if card == queen:
                wanting = [s for s in eligible if hands[s].count(queen) < need[s]]
                eligible = wanting or eligible
            if not eligible:
                ok = False
                break
            # Weight by room left, so that deals are not biased to the first seats.
            room = [sizes[s] - len(hands[s]) for s in eligible]
            if lean is None or len(eligible) == 1:
                hands[rng.choices(eligible, weights=room)[0]].append(card)
                continue
            leaned = [r * lean[s].get(card, 1.0) for r, s in zip(room, eligible, strict=True)]
            k = rng.choices(range(len(eligible)), weights=leaned)[0]
            hands[eligible[k]].append(card)
            ratio += math.log(room[k] / sum(room)) - math.log(leaned[k] / sum(leaned))
        if ok and all(hands[s].count(queen) >= need[s] for s in seats):
            out: list[list[Card]] = [[], [], [], []]
            out[view.seat] = list(view.hand)
            for s in seats:
                out[s] = hands[s]
            return out, ratio
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
