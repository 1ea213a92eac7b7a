"""The actions a player can take, as small frozen values (docs/record-format.md)."""

from __future__ import annotations

import dataclasses
import enum

from .cards import Card


class Reservation(enum.StrEnum):
    """What a player says in the reservation round; values are the record's bids."""

    HEALTHY = "healthy"
    MARRIAGE = "marriage"
    POVERTY = "poverty"
    QUEEN_SOLO = "solo:queen"
    JACK_SOLO = "solo:jack"
    KING_SOLO = "solo:king"
    MEATLESS = "solo:meatless"
    CLUBS_SOLO = "solo:clubs"
    SPADES_SOLO = "solo:spades"
    HEARTS_SOLO = "solo:hearts"
    DIAMONDS_SOLO = "solo:diamonds"
    THROW = "throw"

    @property
    def is_solo(self) -> bool:
        return self.value.startswith("solo:")


class Party(enum.StrEnum):
    """The two parties of a game."""

    RE = "re"
    KONTRA = "kontra"

    @property
    def other(self) -> Party:
        return Party.KONTRA if self is Party.RE else Party.RE


class Announcement(enum.IntEnum):
    """Announcement levels of one party; a higher one implies the lower (docs/rules.md §6)."""

    PARTY = 0  # "re" or "kontra", depending on the announcer's party
    NO90 = 1
    NO60 = 2
    NO30 = 3
    SCHWARZ = 4

    def word(self, party: Party) -> str:
        """The record's name: ``re``/``kontra`` for level 0, else ``no90`` … ``schwarz``."""
        return party.value if self is Announcement.PARTY else self.name.lower()

    @classmethod
    def parse(cls, word: str) -> tuple[Announcement, Party | None]:
        """Level and (for ``re``/``kontra``) the party a record's announcement word names."""
        if word in ("re", "kontra"):
            return cls.PARTY, Party(word)
        try:
            return cls[word.upper()], None
        except KeyError:
            raise ValueError(f"unknown announcement {word!r}") from None


@dataclasses.dataclass(frozen=True, slots=True)
class Bid:
    """A seat's word in the reservation round."""

    seat: int
    reservation: Reservation


@dataclasses.dataclass(frozen=True, slots=True)
class PassCards:
    """Poverty: the poor player puts down three cards, all their trumps among them."""

    seat: int
    cards: tuple[Card, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class PovertyReply:
    """Poverty: a player accepts or declines the poor player's cards."""

    seat: int
    accept: bool


@dataclasses.dataclass(frozen=True, slots=True)
class ReturnCards:
    """Poverty: the acceptor gives three cards back."""

    seat: int
    cards: tuple[Card, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Announce:
    """A party announcement (re/kontra, no 90 … schwarz), possibly skipping levels."""

    seat: int
    level: Announcement


class Declaration(enum.StrEnum):
    """What a player may declare under house rules (docs/rules.md §9.1)."""

    SCHWEINCHEN = "schweinchen"
    SUPERSCHWEINCHEN = "superschweinchen"
    HALF_CHICKEN = "half_chicken"

    @property
    def spoken(self) -> str:
        """The call as players say it: ``Schweinchen``, ``Half chicken``."""
        return self.value.replace("_", " ").capitalize()


@dataclasses.dataclass(frozen=True, slots=True)
class Declare:
    """Schweinchen, Superschweinchen or half chicken (house rules)."""

    seat: int
    what: Declaration


@dataclasses.dataclass(frozen=True, slots=True)
class Genscher:
    """Genscher: the holder of both DK names a new partner (house rule, docs/rules.md §9.4)."""

    seat: int
    partner: int


@dataclasses.dataclass(frozen=True, slots=True)
class Play:
    """A card played to the current trick."""

    seat: int
    card: Card


Action = Bid | PassCards | PovertyReply | ReturnCards | Announce | Declare | Genscher | Play

#: Interned play actions, ``PLAYS[seat][card]``, so hot paths build no objects.
PLAYS: tuple[tuple[Play, ...], ...] = tuple(tuple(Play(s, c) for c in Card) for s in range(4))
ANNOUNCES: tuple[tuple[Announce, ...], ...] = tuple(
    tuple(Announce(s, level) for level in Announcement) for s in range(4)
)
