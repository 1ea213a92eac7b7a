"""Small builders for engine tests: deals from card codes, play by trick lines."""

from __future__ import annotations

import random

from dokobot.engine import (
    DDV,
    Announce,
    Announcement,
    Bid,
    Card,
    GameSetup,
    GameState,
    Play,
    Reservation,
    RuleSet,
    apply,
    parse_cards,
)
from dokobot.engine.actions import Party

# A normal deal: seats 0 and 2 hold one queen of clubs each (Re), 1 and 3 are Kontra.
DEAL_NORMAL = (
    "CQ H10 SQ DJ DA D9 CA C10 SA S9 HA HK",
    "H10 HQ CJ D10 DK CK C9 S10 SK HA H9 DQ",
    "CQ SQ HQ SJ HJ DA D10 CA C9 SA H9 HK",
    "DQ CJ SJ HJ DJ DK D9 C10 CK S10 SK S9",
)

# Seat 0 holds both queens of clubs (marriage or silent marriage).
DEAL_MARRIAGE = (
    "CQ CQ H10 SQ DJ DA D9 CA C10 SA S9 HA",
    "H10 HQ CJ D10 DK CK C9 S10 SK HA H9 DQ",
    "HK SQ HQ SJ HJ DA D10 CA C9 SA H9 HK",
    "DQ CJ SJ HJ DJ DK D9 C10 CK S10 SK S9",
)

# Seat 1 holds only three trumps (D9 DK DA): poverty, where the house rule allows it.
DEAL_POOR = (
    "CQ H10 SQ DJ DQ D10 C9 C10 S9 SJ SK H9",
    "D9 DK DA CA CA C10 CK SA S10 HA HK H9",
    "CQ H10 HQ HJ DJ DA CJ C9 S10 SA HK HA",
    "CJ CK S9 SJ SQ SK HJ HQ D9 D10 DQ DK",
)


def hands(*lines: str) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(sorted(parse_cards(line.split()))) for line in lines)


def new(
    lines: tuple[str, ...] = DEAL_NORMAL, *, dealer: int = 3, rules: RuleSet = DDV, **kw: object
) -> GameState:
    return GameState.new(GameSetup(rules=rules, dealer=dealer, hands=hands(*lines), **kw))  # type: ignore[arg-type]


def bid(state: GameState, *words: str) -> GameState:
    """Say ``words`` in the reservation round, in turn."""
    for word in words:
        state = apply(state, Bid(state.to_act, Reservation(word)))  # type: ignore[arg-type]
    return state


def healthy(state: GameState) -> GameState:
    return bid(state, *["healthy"] * 4)


def play(state: GameState, *tricks: str) -> GameState:
    """Play cards in turn; each argument is one or more card codes in play order."""
    for line in tricks:
        for code in line.split():
            state = apply(state, Play(state.to_act, Card.parse(code)))  # type: ignore[arg-type]
    return state


def announce(state: GameState, seat: int, word: str) -> GameState:
    level, _ = Announcement.parse(word)
    return apply(state, Announce(seat, level))


# --------------------------------------------------------------------------- meatless dial

_SUITS = "CSHD"
_ORDER = ("A", "10", "K", "Q", "J", "9")  # meatless: plain suits A 10 K Q J 9


def meatless_deal(
    re_points: int, *, re_tricks: int | None = None, seed: int = 0
) -> tuple[tuple[str, ...], list[str]]:
    """A meatless solo for seat 0 (dealer 3, so seat 0 leads) in which the soloist takes
    exactly ``re_points`` card points (and ``re_tricks`` tricks, if given).

    Every seat holds three cards of each suit and every trick is one suit, so every
    card is a legal follow. Returns the four hands and the tricks as play-order lines.
    """
    rng = random.Random(seed)
    for attempt in range(500_000):
        tricks = _random_tricks(rng, bias=(attempt % 21) / 20)
        won = [t for t in tricks if t[1] == 0]
        got = sum(_POINTS[c[1:]] for t in won for c in t[0])
        if got == re_points and (re_tricks is None or len(won) == re_tricks):
            return _order_tricks(tricks)
    raise AssertionError(f"no meatless deal with {re_points} points found")


_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}


def _random_tricks(rng: random.Random, bias: float) -> list[tuple[list[str], int]]:
    """Twelve one-suit tricks (cards by seat, winner); the soloist tops a trick with ``bias``."""
    tricks = []
    for suit in _SUITS:
        while True:
            cards = [suit + r for r in _ORDER for _ in range(2)]
            rng.shuffle(cards)
            groups = [
                sorted(cards[i : i + 4], key=lambda c: _ORDER.index(c[1:])) for i in (0, 4, 8)
            ]
            if all(g[0][1:] != g[1][1:] for g in groups):  # a unique top card wins
                break
        for four in groups:
            top = 0 if rng.random() < bias else rng.choice([1, 2, 3])
            others = [s for s in range(4) if s != top]
            rng.shuffle(others)
            by_seat = [""] * 4
            for card, seat in zip(four, [top, *others], strict=True):
                by_seat[seat] = card
            tricks.append((by_seat, top))
    return tricks


def _order_tricks(tricks: list[tuple[list[str], int]]) -> tuple[tuple[str, ...], list[str]]:
    """Play-order lines: each trick led by the previous winner (seat 0 leads the first).

    Any trick order is legal: every seat always holds as many cards of a suit as the others.
    """
    leader = 0
    lines = []
    for by_seat, winner in tricks:
        lines.append(" ".join(by_seat[(leader + i) % 4] for i in range(4)))
        leader = winner
    hands_ = tuple(" ".join(t[0][s] for t in tricks) for s in range(4))
    return hands_, lines


MEATLESS = "solo:meatless"


def party_seats(state: GameState, party: Party) -> tuple[int, ...]:
    return state.parties.seats(party)
