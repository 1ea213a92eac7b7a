"""The rule set: DDV tournament rules by default, house rules as fields (docs/rules.md §9)."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any


class Dullen(enum.StrEnum):
    """Which of two hearts tens wins a trick (docs/rules.md §3)."""

    FIRST_WINS = "first_wins"
    SECOND_WINS = "second_wins"
    SECOND_WINS_EXCEPT_LAST = "second_wins_except_last"


class MarriageClarification(enum.StrEnum):
    """Which tricks can find the marriage partner (docs/rules.md §4)."""

    FIRST_TRICK = "first_trick"
    FIRST_TRUMP_TRICK = "first_trump_trick"
    FIRST_PLAIN_TRICK = "first_plain_trick"


class ReservationPriority(enum.StrEnum):
    """Who wins between equal reservations (docs/rules.md §4)."""

    FIRST = "first"
    LAST = "last"


class SoloType(enum.StrEnum):
    """The solo games a rule set may allow (docs/rules.md §2)."""

    QUEEN = "queen"
    JACK = "jack"
    KING = "king"
    MEATLESS = "meatless"
    CLUBS = "clubs"
    SPADES = "spades"
    HEARTS = "hearts"
    DIAMONDS = "diamonds"


DDV_SOLOS: frozenset[SoloType] = frozenset(
    {
        SoloType.QUEEN,
        SoloType.JACK,
        SoloType.MEATLESS,
        SoloType.CLUBS,
        SoloType.SPADES,
        SoloType.HEARTS,
        SoloType.DIAMONDS,
    }
)


class RuleError(ValueError):
    """A rules object names an unknown key or a value the key does not take."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RuleSet:
    """All rule choices of a game; the defaults are the DDV tournament rules."""

    #: Play with the eight 9s (48 cards); ``False``: 40 cards, 10 per hand.
    nines: bool = True
    #: Two hearts tens in one trick: the first wins (DDV) or the second.
    dullen: Dullen = Dullen.FIRST_WINS
    #: The solos a player may announce; the king solo is a house rule.
    solos: frozenset[SoloType] = DDV_SOLOS
    #: Poverty (Armut) may be announced with at most three trumps.
    poverty: bool = False
    #: The diamonds ace counts as a trump when counting for poverty.
    poverty_fox_counts: bool = True
    #: Which tricks can find a marriage partner.
    marriage_clarification: MarriageClarification = MarriageClarification.FIRST_TRICK
    #: Between equal reservations the first asked wins (DDV) or the last.
    reservation_priority: ReservationPriority = ReservationPriority.FIRST
    #: Every soloist leads the first trick, not only compulsory ones.
    soloist_leads: bool = False
    #: Re and Kontra each double the game points instead of adding 2; extras stay undoubled.
    announcement_doubles: bool = False
    #: Compulsory solos each player owes per session (tournament: 1).
    compulsory_solos: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.compulsory_solos, int) or self.compulsory_solos < 0:
            raise RuleError("compulsory_solos must be a whole number ≥ 0")

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player: 12, or 10 without the nines."""
        return 12 if self.nines else 10

    @property
    def tricks(self) -> int:
        return self.hand_size

    def to_dict(self) -> dict[str, Any]:
        """The keys that differ from the DDV defaults, as in a record's ``rules``."""
        out: dict[str, Any] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if value == field.default:
                continue
            if isinstance(value, frozenset):
                out[field.name] = sorted(str(v) for v in value)
            elif isinstance(value, enum.Enum):
                out[field.name] = value.value
            else:
                out[field.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Build a rule set from a record's ``rules``; unknown keys or values raise RuleError."""
        if not isinstance(data, Mapping):
            raise RuleError("rules must be an object")
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            converter = _CONVERTERS.get(key)
            if converter is None:
                raise RuleError(f"unknown rule {key!r}")
            try:
                kwargs[key] = converter(value)
            except (ValueError, TypeError) as exc:
                raise RuleError(f"rule {key!r}: invalid value {value!r}") from exc
        return cls(**kwargs)


def _strict_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError("expected true or false")
    return value


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError("expected a whole number ≥ 0")
    return value


def _solos(value: Any) -> frozenset[SoloType]:
    if not isinstance(value, list | tuple | set | frozenset):
        raise TypeError("expected a list of solo names")
    return frozenset(SoloType(v) for v in value)


_CONVERTERS: dict[str, Any] = {
    "nines": _strict_bool,
    "dullen": Dullen,
    "solos": _solos,
    "poverty": _strict_bool,
    "poverty_fox_counts": _strict_bool,
    "marriage_clarification": MarriageClarification,
    "reservation_priority": ReservationPriority,
    "soloist_leads": _strict_bool,
    "announcement_doubles": _strict_bool,
    "compulsory_solos": _count,
}

DDV = RuleSet()
