"""A heuristic player with the habits of a decent club player, in microseconds."""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Collection, Sequence

from dokobot.engine import (
    TRUMP,
    Action,
    Announce,
    Announcement,
    Bid,
    Card,
    CardOrder,
    Contract,
    Declare,
    Genscher,
    Made,
    Party,
    PassCards,
    Phase,
    Play,
    PlayerView,
    PovertyReply,
    Rank,
    Reservation,
    ReturnCards,
    RuleSet,
    order_for,
    trick_winner,
)
from dokobot.engine.cards import CARD_POINTS, make_deck

HIGH_TRUMPS = (Card.H10, Card.CQ, Card.SQ, Card.HQ)
#: How many of each card a deck has, without and with nines.
_DECKS = {nines: dict(Counter(make_deck(nines=nines))) for nines in (False, True)}


def strength(hand: Sequence[Card], order: CardOrder) -> tuple[int, int, int]:
    """(trumps, high trumps among H10/CQ/SQ/HQ or the top four, plain aces) of a hand."""
    trump, high, ace = _features(order)
    return sum(trump[c] for c in hand), sum(high[c] for c in hand), sum(ace[c] for c in hand)


@functools.cache
def _features(order: CardOrder) -> tuple[tuple[bool, ...], tuple[bool, ...], tuple[bool, ...]]:
    """Per card under ``order``: whether it is a trump, a high trump, a plain ace (the
    hand counts run for every seat of every sampled world, so they look these up)."""
    cls = order.suit_class
    top = set(order.trumps[:4]) if order.trumps[:1] != (Card.H10,) else set(HIGH_TRUMPS)
    trump = tuple(cls[c] == TRUMP for c in Card)
    high = tuple(cls[c] == TRUMP and c in top for c in Card)
    ace = tuple(cls[c] != TRUMP and c % 6 == Rank.ACE for c in Card)
    return trump, high, ace


def is_soloist(view: PlayerView) -> bool:
    """Whether the seat plays a game scored as a solo alone against the other three."""
    contract = view.contract
    return contract is not None and contract.is_solo_scored and view.declarer == view.seat


def plain_losers(hand: Sequence[Card], order: CardOrder) -> int:
    """Plain cards that are unlikely to win: everything but aces and a ten behind two aces."""
    trump, _, ace = _features(order)
    cls = order.suit_class
    cards = [0, 0, 0, 0, 0]
    aces = [0, 0, 0, 0, 0]
    for c in hand:
        if not trump[c]:
            cards[cls[c]] += 1
            aces[cls[c]] += ace[c]
    return sum(max(0, n - a) for n, a in zip(cards, aces, strict=True))


def solo_value(hand: Sequence[Card], contract: Contract, rules: RuleSet | None = None) -> float:
    """How promising a solo is: positive means worth playing (a rough count of tricks)."""
    base, weight = _solo_weights(order_for(rules or _DEFAULT_RULES, contract), contract)
    return (base + sum(weight[c] for c in hand)) / 10


_DEFAULT_RULES = RuleSet()

#: Per kind of solo, in tenths: the weights of trumps, high trumps, plain aces and plain
#: losers, and the constant (whole tenths: equal counts tie exactly).
_SOLO_COUNT = {
    "meatless": (0, 0, 10, -8, -15),
    "picture": (10, 5, 9, -11, -65),
    "suit": (10, 12, 5, -10, -115),
}


@functools.cache
def _solo_weights(order: CardOrder, contract: Contract) -> tuple[int, tuple[int, ...]]:
    """``solo_value`` in tenths as a constant and a weight per card: the count is a sum
    over the cards (a plain suit's losers, ``plain_losers``, are its cards but its aces),
    and the reservation round asks it for every solo of every seat of every sampled
    world."""
    if contract is Contract.MEATLESS:
        kind = "meatless"
    elif contract in (Contract.QUEEN_SOLO, Contract.JACK_SOLO, Contract.KING_SOLO):
        kind = "picture"
    else:
        kind = "suit"
    trumps, high, aces, losers, base = _SOLO_COUNT[kind]
    trump, top, ace = _features(order)
    weight = tuple(
        trumps + high * top[c] if trump[c] else (aces if ace[c] else losers) for c in Card
    )
    return base, weight


class HeuristicStrategy:
    """Reservations by hand strength; partner-aware card play; announcements with strong hands."""

    name = "heuristic"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        if view.phase is Phase.BIDDING:
            return self._bid(view)
        if view.phase is Phase.POVERTY:
            return self._poverty(view)
        declare = self._declare(view)
        if declare is not None:
            return declare
        announce = self._announce(view)
        if announce is not None:
            return announce
        if not any(isinstance(a, Play) for a in view.legal):
            # Zwingen (docs/rules.md §9.4): the one owed announcement comes first.
            return min((a for a in view.legal if isinstance(a, Announce)), key=lambda a: a.level)
        return self._play(view)

    # ------------------------------------------------------------------ declarations

    def _declare(self, view: PlayerView) -> Action | None:
        """Schweinchen and half chicken whenever allowed; Genscher with the strongest player.

        A call that must come with its card (Schweinchen ``on_first_play``, Genscher)
        is made only when that card is the one the heuristic would play anyway.
        """
        planned = None
        if view.to_act == view.seat and any(isinstance(a, Play) for a in view.legal):
            play = self._play(view)
            planned = play.card if isinstance(play, Play) else None
        with_card = view.rules.schweinchen.value == "on_first_play"
        for action in view.legal:
            if not isinstance(action, Declare):
                continue
            card = {"schweinchen": Card.DA, "superschweinchen": Card.D9}.get(action.what)
            if card is None or not with_card or planned == card:
                return action
        gens = [a for a in view.legal if isinstance(a, Genscher)]
        if not gens or planned != Card.DK:
            return None
        won = Counter[int]()
        for trick in view.tricks:
            won[trick.winner] += trick.points
        best = max(gens, key=lambda a: (won[a.partner], -a.partner))
        if view.parties[best.partner] is view.own_party:
            return None  # already partners: nothing to change
        return best

    # ------------------------------------------------------------------ reservations

    def _bid(self, view: PlayerView) -> Action:
        seat = view.seat
        legal = {a.reservation: a for a in view.legal if isinstance(a, Bid)}
        wanted = self.reservation(view.hand, legal, view.rules)
        return legal.get(wanted) or Bid(seat, Reservation.HEALTHY)

    def reservation(
        self, hand: Sequence[Card], legal: Collection[Reservation], rules: RuleSet
    ) -> Reservation:
        """What a seat holding ``hand`` says, of the ``legal`` reservations: a solo with a
        hand that counts as one, poverty, a marriage unless the hand is strong enough for
        a silent one, else healthy."""
        if Reservation.THROW in legal:
            return Reservation.THROW
        values = {r: solo_value(hand, Contract(r.value), rules) for r in legal if r.is_solo}
        best = max(values, key=values.__getitem__, default=None)
        if best is not None and (values[best] > 0 or Reservation.HEALTHY not in legal):
            return best
        if Reservation.POVERTY in legal:
            return Reservation.POVERTY
        if Reservation.MARRIAGE in legal:
            trumps, high, _ = strength(hand, order_for(rules, Contract.NORMAL))
            # A strong hand with both queens plays a silent marriage (a hidden solo).
            if trumps >= 9 and high >= 3:
                return Reservation.HEALTHY
            return Reservation.MARRIAGE
        return Reservation.HEALTHY

    def _poverty(self, view: PlayerView) -> Action:
        seat = view.seat
        turn = [a for a in view.legal if not isinstance(a, Announce)]
        passes = [a for a in turn if isinstance(a, PassCards)]
        if passes:
            return PassCards(seat, poverty_pass(view.hand, view.rules))
        if turn and isinstance(turn[0], PovertyReply):
            return PovertyReply(seat, accepts_poverty(view.hand, view.rules))
        wanted = ReturnCards(seat, poverty_return(view.hand, view.rules))
        returns = [a for a in turn if isinstance(a, ReturnCards)]
        if wanted in returns or not returns:
            return wanted
        ranked = _return_ranking(view.hand, view.rules)
        place = {c: i for i, c in enumerate(ranked)}
        return min(returns, key=lambda a: sum(place[c] for c in a.cards))

    # ------------------------------------------------------------------ announcements

    def _announce(self, view: PlayerView) -> Action | None:
        calls = [a for a in view.legal if isinstance(a, Announce)]
        if not calls or not any(a.level is Announcement.PARTY for a in calls):
            return None
        solo = view.contract if view.contract is not None and is_soloist(view) else None
        if self.says_party(
            view.hand, view.order, view.own_party, view.announcements, solo, view.rules
        ):
            return next(a for a in calls if a.level is Announcement.PARTY)
        return None

    def says_party(
        self,
        hand: Sequence[Card],
        order: CardOrder,
        me: Party | None,
        announcements: Sequence[Made],
        solo: Contract | None,
        rules: RuleSet,
    ) -> bool:
        """Whether a seat holding ``hand`` says its Re or Kontra when it may: a soloist
        (``solo``: its contract) with a hand that counts well above a solo, anyone else
        with a strong hand, a little more readily once the opponents have called."""
        if solo is not None:
            return solo_value(hand, solo, rules) > 2.5
        trumps, high, _ = strength(hand, order)
        need = 5 if any(m.party is not me for m in announcements) else 6
        return trumps >= need and high >= 2

    # ------------------------------------------------------------------ card play

    def _play(self, view: PlayerView) -> Action:
        plays = [a for a in view.legal if isinstance(a, Play)]
        if len(plays) == 1:
            return plays[0]
        cards = [a.card for a in plays]
        order = view.order
        card = (
            self._lead(view, cards, order) if not view.trick else self._follow(view, cards, order)
        )
        return next(a for a in plays if a.card == card)

    def _unseen(self, view: PlayerView) -> list[Card]:
        """Cards neither in this hand nor played yet: what the others may still hold
        (each once)."""
        left = dict(_DECKS[view.rules.nines])
        for c in view.hand:
            left[c] -= 1
        for trick in view.tricks:
            for c in trick.cards:
                left[c] -= 1
        for _, c in view.trick:
            left[c] -= 1
        return [c for c, n in left.items() if n > 0]

    def _partner(self, view: PlayerView, seat: int) -> bool:
        me = view.parties[view.seat]
        return seat != view.seat and me is not None and view.parties[seat] is me

    def _lead(self, view: PlayerView, cards: list[Card], order: CardOrder) -> Card:
        cls, power = order.suit_class, order.power
        led_classes = {cls[t.cards[0]] for t in view.tricks}
        soloist = is_soloist(view)
        trumps = [c for c in cards if cls[c] == TRUMP]
        unseen = self._unseen(view)
        if soloist and trumps and any(cls[c] == TRUMP for c in unseen):
            return max(trumps, key=lambda c: power[c])  # pull the opponents' trumps
        # Plain aces early, in a suit nobody has led yet.
        aces = [
            c for c in cards if cls[c] != TRUMP and c % 6 == Rank.ACE and cls[c] not in led_classes
        ]
        if aces:
            counts = Counter(cls[c] for c in view.hand)
            return min(aces, key=lambda c: counts[cls[c]])
        # A plain card that is the highest left in its suit wins too.
        for c in sorted(cards, key=lambda c: -CARD_POINTS[c]):
            if (
                cls[c] != TRUMP
                and not any(cls[u] == cls[c] and power[u] > power[c] for u in unseen)
                and cls[c] not in led_classes
            ):
                return c
        if soloist and trumps:
            return max(trumps, key=lambda c: power[c])
        plain = [c for c in cards if cls[c] != TRUMP]
        if plain:
            counts = Counter(cls[c] for c in view.hand)
            return min(plain, key=lambda c: (CARD_POINTS[c], -counts[cls[c]], power[c]))
        safe = [c for c in trumps if c != Card.DA] or trumps
        return min(safe, key=lambda c: (CARD_POINTS[c] >= 10, power[c]))

    def _follow(self, view: PlayerView, cards: list[Card], order: CardOrder) -> Card:
        cls, power = order.suit_class, order.power
        trick = view.trick
        played = tuple(c for _, c in trick)
        leader = trick[0][0]
        second = view.rules.dullen.second_wins(len(view.tricks) + 1 == view.rules.tricks)
        best_seat = trick_winner(played, leader, order, second)
        best_card = dict(trick)[best_seat]
        position = len(trick)  # 1, 2 or 3 cards before me
        last = position == 3
        points = sum(CARD_POINTS[c] for c in played)
        unseen = self._unseen(view)

        def beats(card: Card) -> bool:
            return trick_winner(played + (card,), leader, order, second) == view.seat

        def holds(card: Card) -> bool:
            """No card the players after me may hold can beat ``card``."""
            if last:
                return True
            c_cls = cls[card]
            for u in unseen:
                if cls[u] == TRUMP and c_cls != TRUMP:
                    return False
                if cls[u] == c_cls and power[u] > power[card]:
                    return False
            return True

        partner_wins = self._partner(view, best_seat)
        if partner_wins and holds(best_card):
            # Schmieren: the partner's trick is safe, give it points (the fox too).
            return max(cards, key=lambda c: (CARD_POINTS[c], -(cls[c] == TRUMP), -power[c]))
        winners = [c for c in cards if beats(c)]
        fox_in_trick = any(c == Card.DA and not self._partner(view, s) for s, c in trick)
        if winners and not partner_wins:
            sure = [c for c in winners if holds(c)]
            if sure:
                return min(sure, key=lambda c: (power[c], CARD_POINTS[c]))
            if last or points >= 14 or fox_in_trick:
                return min(winners, key=lambda c: (CARD_POINTS[c] == 11 and c == Card.DA, power[c]))
        # Cannot (or need not) win: give as little as possible and keep the fox.
        return min(
            cards,
            key=lambda c: (c == Card.DA, CARD_POINTS[c], cls[c] == TRUMP, power[c]),
        )


@functools.cache
def counts_as_trump(rules: RuleSet) -> frozenset[Card]:
    """The cards a poor player must put down: its trumps, the ♦A only if it counts
    (``poverty_fox_counts``, docs/rules.md §4)."""
    cls = order_for(rules, Contract.POVERTY).suit_class
    fox = rules.poverty_fox_counts
    return frozenset(c for c in Card if cls[c] == TRUMP and (fox or c != Card.DA))


def poverty_pass(hand: Sequence[Card], rules: RuleSet) -> tuple[Card, ...]:
    """Poverty: the cards the poor player puts down: every trump it must (docs/rules.md
    §4), then the plain cards of most points, which go to its partner."""
    counted = counts_as_trump(rules)
    must = [c for c in hand if c in counted]
    rest = sorted((c for c in hand if c not in counted), key=lambda c: -CARD_POINTS[c])
    return tuple(sorted(must + rest[: rules.poverty_cards - len(must)]))


def accepts_poverty(hand: Sequence[Card], rules: RuleSet) -> bool:
    """Poverty: take the poor player's cards with seven trumps, two of them high."""
    trumps, high, _ = strength(hand, order_for(rules, Contract.POVERTY))
    return trumps >= 7 and high >= 2


def poverty_return(hand: Sequence[Card], rules: RuleSet) -> tuple[Card, ...]:
    """Poverty: the cards the acceptor gives back: the lowest plain cards, shortest
    suits first (making voids), then the lowest trumps."""
    return tuple(_return_ranking(hand, rules)[: rules.poverty_cards])


def _return_ranking(hand: Sequence[Card], rules: RuleSet) -> list[Card]:
    order = order_for(rules, Contract.POVERTY)
    cls, power = order.suit_class, order.power
    counts = Counter(cls[c] for c in hand)
    return sorted(hand, key=lambda c: (cls[c] == TRUMP, counts[cls[c]], CARD_POINTS[c], power[c]))
