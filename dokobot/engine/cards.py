"""Cards, decks and dealing (docs/rules.md §1).

A card is a small integer (suit * 6 + rank) wrapped in an ``IntEnum`` so that it
reads as ``Card.CQ`` and prints as ``CQ`` while indexing lookup tables at int
speed. Every card exists twice in a deck.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable

SUITS = "CSHD"
SUIT_SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
RANKS = ("9", "10", "J", "Q", "K", "A")
# Card points (Augen) by rank index, docs/rules.md §1: A 11, 10 10, K 4, Q 3, J 2, 9 0.
RANK_POINTS = (0, 10, 2, 3, 4, 11)
DECK_POINTS = 240


class Suit(enum.IntEnum):
    """The four suits, in the order clubs, spades, hearts, diamonds."""

    CLUBS = 0
    SPADES = 1
    HEARTS = 2
    DIAMONDS = 3

    @property
    def letter(self) -> str:
        return SUITS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[SUITS[self]]


class Rank(enum.IntEnum):
    """The six ranks, lowest index first: 9, 10, J, Q, K, A."""

    NINE = 0
    TEN = 1
    JACK = 2
    QUEEN = 3
    KING = 4
    ACE = 5

    @property
    def code(self) -> str:
        return RANKS[self]


class Card(enum.IntEnum):
    """One card face, named by its code: suit letter then rank (``CQ``, ``H10``)."""

    C9 = 0
    C10 = 1
    CJ = 2
    CQ = 3
    CK = 4
    CA = 5
    S9 = 6
    S10 = 7
    SJ = 8
    SQ = 9
    SK = 10
    SA = 11
    H9 = 12
    H10 = 13
    HJ = 14
    HQ = 15
    HK = 16
    HA = 17
    D9 = 18
    D10 = 19
    DJ = 20
    DQ = 21
    DK = 22
    DA = 23

    @property
    def suit(self) -> Suit:
        return Suit(self // 6)

    @property
    def rank(self) -> Rank:
        return Rank(self % 6)

    @property
    def points(self) -> int:
        """Card points (Augen) of this card."""
        return CARD_POINTS[self]

    @property
    def code(self) -> str:
        return self.name

    @property
    def label(self) -> str:
        """The card with its suit symbol, e.g. ``♠10``."""
        return SUIT_SYMBOLS[self.name[0]] + self.name[1:]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, code: str) -> Card:
        """The card with this code; raises ``ValueError`` naming the bad code."""
        card = _BY_CODE.get(code.strip().upper()) if isinstance(code, str) else None
        if card is None:
            raise ValueError(f"unknown card {code!r}")
        return card


_BY_CODE = {card.name: card for card in Card}
CARDS: tuple[Card, ...] = tuple(Card)
CARD_POINTS: tuple[int, ...] = tuple(RANK_POINTS[c % 6] for c in CARDS)


def make_deck(*, nines: bool = True) -> list[Card]:
    """A full deck in a fixed order: every card twice (48), or 40 without the nines."""
    faces = [c for c in CARDS if nines or c % 6 != Rank.NINE]
    return faces + faces


def deal(rng: random.Random, *, nines: bool = True) -> tuple[tuple[Card, ...], ...]:
    """Shuffle a deck with ``rng`` and give each of the four seats a sorted hand."""
    deck = make_deck(nines=nines)
    rng.shuffle(deck)
    size = len(deck) // 4
    return tuple(tuple(sorted(deck[i * size : (i + 1) * size])) for i in range(4))


def parse_cards(codes: Iterable[str]) -> tuple[Card, ...]:
    """Parse card codes; raises ``ValueError`` on the first unknown code."""
    return tuple(Card.parse(code) for code in codes)
