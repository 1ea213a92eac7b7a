"""Contracts (game types) and their card orders (docs/rules.md §2)."""

from __future__ import annotations

import dataclasses
import enum
from functools import cache

from .cards import CARDS, SUIT_SYMBOLS, Card, Rank, Suit
from .rules import RuleSet, SoloType

#: Suit class of a trump card; plain cards have their suit index 0-3.
TRUMP = 4


class Contract(enum.StrEnum):
    """What is being played; values are the record's ``contract`` names."""

    NORMAL = "normal"
    MARRIAGE = "marriage"
    MARRIAGE_ALONE = "marriage_alone"
    SILENT_MARRIAGE = "silent_marriage"
    POVERTY = "poverty"
    QUEEN_SOLO = "solo:queen"
    JACK_SOLO = "solo:jack"
    KING_SOLO = "solo:king"
    MEATLESS = "solo:meatless"
    CLUBS_SOLO = "solo:clubs"
    SPADES_SOLO = "solo:spades"
    HEARTS_SOLO = "solo:hearts"
    DIAMONDS_SOLO = "solo:diamonds"
    #: Nobody took a poverty: whoever wins the second SQ plays alone (docs/rules.md §9.3).
    SCHWARZE_SAU = "schwarze_sau"
    #: Nobody took a poverty: everyone for themselves, the most card points lose (§9.3).
    RAMSCH = "ramsch"

    @property
    def is_announced_solo(self) -> bool:
        """A solo someone bid (queen, jack, ... diamonds), as opposed to a lone marriage."""
        return self.value.startswith("solo:")

    @property
    def is_solo_scored(self) -> bool:
        """Scored as a solo: ×3 for the lone player, no extra points (docs/rules.md §4, §8)."""
        return self.is_announced_solo or self in (
            Contract.MARRIAGE_ALONE,
            Contract.SILENT_MARRIAGE,
            Contract.SCHWARZE_SAU,
        )

    @property
    def solo_type(self) -> SoloType | None:
        return SoloType(self.value[5:]) if self.is_announced_solo else None


# Trumps from highest to lowest, docs/rules.md §2.
_QUEENS = (Card.CQ, Card.SQ, Card.HQ, Card.DQ)
_JACKS = (Card.CJ, Card.SJ, Card.HJ, Card.DJ)
_KINGS = (Card.CK, Card.SK, Card.HK, Card.DK)


def _suit_trumps(suit: Suit, dulle_trump: bool) -> tuple[Card, ...]:
    """The suit's own trumps below the jacks in a suit solo: A 10 K 9 (hearts: A K 9)."""
    ranks = (Rank.ACE, Rank.TEN, Rank.KING, Rank.NINE)
    cards = tuple(Card(suit * 6 + r) for r in ranks)
    # The H10 sits at the top as the Dulle, unless house rule dulle_trump is off (§9.1).
    return tuple(c for c in cards if c != Card.H10 or not dulle_trump)


_SUIT_SOLOS = {
    SoloType.CLUBS: Suit.CLUBS,
    SoloType.SPADES: Suit.SPADES,
    SoloType.HEARTS: Suit.HEARTS,
}


def _base_trumps(contract: Contract, dulle_trump: bool) -> tuple[Card, ...]:
    solo = contract.solo_type
    if solo is SoloType.QUEEN:
        return _QUEENS
    if solo is SoloType.JACK:
        return _JACKS
    if solo is SoloType.KING:
        return _KINGS
    if solo is SoloType.MEATLESS:
        return ()
    # Normal games and the diamonds solo share diamonds as the trump suit.
    suit = _SUIT_SOLOS.get(solo, Suit.DIAMONDS) if solo is not None else Suit.DIAMONDS
    dulle = (Card.H10,) if dulle_trump else ()
    return (*dulle, *_QUEENS, *_JACKS, *_suit_trumps(suit, dulle_trump))


def _trumps(
    contract: Contract, dulle_trump: bool, kaiser: bool, pigs: bool, superpigs: bool
) -> tuple[Card, ...]:
    """Trumps high to low; house rules lift single cards to the top (docs/rules.md §9.1).

    From the top: Kaiser (DK), Superschweinchen (D9), Schweinchen (DA), then the
    contract's own order. Each applies only where that card is a trump.
    """
    trumps = _base_trumps(contract, dulle_trump)
    for card, lifted in ((Card.DA, pigs), (Card.D9, superpigs), (Card.DK, kaiser)):
        if lifted and card in trumps:
            trumps = (card, *(c for c in trumps if c != card))
    return trumps


# Plain cards of one suit, highest first: A 10 K Q J 9 minus the ranks that are trumps.
_PLAIN_POWER = {Rank.ACE: 6, Rank.TEN: 5, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2, Rank.NINE: 1}


@dataclasses.dataclass(frozen=True, slots=True)
class CardOrder:
    """Which cards are trumps and how cards rank in one contract."""

    contract: Contract
    #: Trumps from highest to lowest.
    trumps: tuple[Card, ...]
    #: Per card: ``TRUMP`` or its plain suit index.
    suit_class: tuple[int, ...]
    #: Per card: higher beats lower within the same suit class; trumps ≥ 100.
    power: tuple[int, ...]

    def is_trump(self, card: Card) -> bool:
        return self.suit_class[card] == TRUMP

    def sort_key(self, card: Card) -> tuple[int, int]:
        """Players' sort: trumps high to low, then clubs, spades, hearts, diamonds high to low."""
        cls = self.suit_class[card]
        return (0 if cls == TRUMP else cls + 1, -self.power[card])

    def describe_class(self, cls: int) -> str:
        return "trump" if cls == TRUMP else SUIT_SYMBOLS["CSHD"[cls]]


@cache
def card_order(
    contract: Contract,
    *,
    dulle_trump: bool = True,
    kaiser: bool = False,
    pigs: bool = False,
    superpigs: bool = False,
) -> CardOrder:
    """The card order of ``contract`` (normal, marriage, poverty and diamonds solo share one).

    ``dulle_trump`` and ``kaiser`` are house rules; ``pigs`` and ``superpigs`` are
    declared Schweinchen and Superschweinchen (docs/rules.md §9.1).
    """
    trumps = _trumps(contract, dulle_trump, kaiser, pigs, superpigs)
    rank_of_trump = {card: 100 + len(trumps) - i for i, card in enumerate(trumps)}
    suit_class = tuple(TRUMP if c in rank_of_trump else c // 6 for c in CARDS)
    power = tuple(rank_of_trump.get(c, _PLAIN_POWER[Rank(c % 6)]) for c in CARDS)
    return CardOrder(contract, trumps, suit_class, power)


NORMAL_ORDER = card_order(Contract.NORMAL)


def order_for(
    rules: RuleSet, contract: Contract, *, pigs: bool = False, superpigs: bool = False
) -> CardOrder:
    """The card order of ``contract`` under ``rules`` (and declared Schweinchen)."""
    return card_order(
        contract,
        dulle_trump=rules.dulle_trump,
        kaiser=rules.kaiser,
        pigs=pigs,
        superpigs=superpigs,
    )
