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
    SECOND_WINS_ONLY_LAST = "second_wins_only_last"

    def second_wins(self, last_trick: bool) -> bool:
        """Whether the second of two hearts tens wins a trick (the last trick or another)."""
        if self is Dullen.SECOND_WINS:
            return True
        if self is Dullen.SECOND_WINS_EXCEPT_LAST:
            return not last_trick
        return self is Dullen.SECOND_WINS_ONLY_LAST and last_trick


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


class RedealHand(enum.StrEnum):
    """Hands that may be thrown in for a new deal (docs/rules.md §9.2)."""

    FIVE_NINES = "five_nines"
    FIVE_KINGS = "five_kings"
    FOUR_NINES_FOUR_KINGS = "four_nines_four_kings"
    SEVEN_FULL = "seven_full"
    LOW_TRUMPS = "low_trumps"


class AnnouncementDeadline(enum.StrEnum):
    """How long announcements may be made (docs/rules.md §6, §9.4)."""

    DDV = "ddv"
    BEFORE_FIRST_CARD = "before_first_card"


class AnnouncementLimit(enum.StrEnum):
    """The highest announcement a party may make (docs/rules.md §9.4)."""

    SCHWARZ = "schwarz"
    NO30 = "no30"
    NO60 = "no60"
    NO90 = "no90"
    RE_KONTRA = "re_kontra"

    @property
    def level(self) -> int:
        """The highest level allowed: 0 Re/Kontra … 4 schwarz."""
        return {"re_kontra": 0, "no90": 1, "no60": 2, "no30": 3, "schwarz": 4}[self.value]


class Schweinchen(enum.StrEnum):
    """Whether and when the holder of both DA declares them (docs/rules.md §9.1)."""

    OFF = "off"
    AT_ONCE = "at_once"
    ON_FIRST_PLAY = "on_first_play"


class CompulsoryAnnouncement(enum.StrEnum):
    """Zwingen: winning a first trick of 30 or more forces an announcement (§9.4)."""

    OFF = "off"
    FIRST_TRICK_30 = "first_trick_30"
    FIRST_TRICK_30_RENEW = "first_trick_30_renew"


class PovertyRefused(enum.StrEnum):
    """What happens when nobody takes a poverty (docs/rules.md §4, §9.3)."""

    REDEAL = "redeal"
    SCHWARZE_SAU = "schwarze_sau"
    RAMSCH = "ramsch"


class BockTrigger(enum.StrEnum):
    """Games after which a Bock round (four games at double value) is due (§9.6)."""

    TIE_120 = "tie_120"
    LOST_RE = "lost_re"
    LOST_KONTRA = "lost_kontra"
    LOST_SOLO = "lost_solo"
    HEARTS_TRICK = "hearts_trick"


class BockStacking(enum.StrEnum):
    """Overlapping Bock rounds queue up (``append``) or double again (``double``)."""

    APPEND = "append"
    DOUBLE = "double"


class TeamQueen(enum.StrEnum):
    """The queens that make the Re party in a normal game (docs/rules.md §9.1)."""

    CLUBS = "clubs"
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


#: The enum behind each key that takes named values (sets included).
RULE_KINDS: dict[str, type[enum.StrEnum]] = {
    "dullen": Dullen,
    "solos": SoloType,
    "marriage_clarification": MarriageClarification,
    "reservation_priority": ReservationPriority,
    "team_queen": TeamQueen,
    "schweinchen": Schweinchen,
    "redeal_on": RedealHand,
    "poverty_refused": PovertyRefused,
    "announcement_deadline": AnnouncementDeadline,
    "announcement_limit": AnnouncementLimit,
    "compulsory_announcement": CompulsoryAnnouncement,
    "bock_after": BockTrigger,
    "bock_stacking": BockStacking,
}


#: The number keys that take only a few values.
NUMBER_CHOICES: dict[str, tuple[int, ...]] = {
    "poverty_cards": (3, 4),
    "fox_last_trick": (1, 2),
    "fox_first_trick": (1, 2),
}


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

    # -- the card order (docs/rules.md §9.1)
    #: The hearts tens are the highest trumps; ``False``: a plain heart (A 10 K 9).
    dulle_trump: bool = True
    #: The queens whose holders are Re in a normal game (and make a marriage).
    team_queen: TeamQueen = TeamQueen.CLUBS
    #: Kaiser: the kings of diamonds rank above all trumps.
    kaiser: bool = False
    #: The holder of both DA may declare Schweinchen: they become the highest trumps.
    schweinchen: Schweinchen = Schweinchen.OFF
    #: After Schweinchen, the holder of both D9 may declare them above the Schweinchen.
    superschweinchen: bool = False
    #: The holder of both D10 may call "half chicken": shown to the table, no effect.
    half_chicken: bool = False

    # -- the deal and the reservation round (docs/rules.md §9.2, §9.3)
    #: Hands that may be thrown in: the same dealer deals again.
    redeal_on: frozenset[RedealHand] = frozenset()
    #: A later voluntary solo takes over an earlier one, starting with no 90 announced.
    solo_overbid: bool = False
    #: Cards passed each way in a poverty, and the most trumps a poor hand holds.
    poverty_cards: int = 3
    #: The poverty's acceptor may give trumps back.
    poverty_return_trumps: bool = True
    #: When everybody declines a poverty: redeal, Schwarze Sau or Ramsch.
    poverty_refused: PovertyRefused = PovertyRefused.REDEAL

    # -- announcements (docs/rules.md §9.4)
    #: ``before_first_card``: every announcement before the announcer's first card.
    announcement_deadline: AnnouncementDeadline = AnnouncementDeadline.DDV
    #: Announcements only when it is the announcer's turn to play.
    announce_on_turn_only: bool = False
    #: The highest announcement allowed.
    announcement_limit: AnnouncementLimit = AnnouncementLimit.SCHWARZ
    #: Zwingen: the winner of a first trick of 30 or more must announce.
    compulsory_announcement: CompulsoryAnnouncement = CompulsoryAnnouncement.OFF
    #: Genscher: the holder of both DK names a new partner on playing the first.
    genscher: bool = False

    # -- scoring (docs/rules.md §9.5, §9.6)
    #: A Doppelkopf trick (40 or more) must also hold two pairs of equal cards.
    doppelkopf_needs_pairs: bool = False
    #: Catching an opponent's H10 is an extra point.
    extra_dulle_caught: bool = False
    #: A trick of two aces and two kings is an extra point.
    extra_aces_kings_trick: bool = False
    #: A fox caught in the last trick is worth this many points (1 or 2).
    fox_last_trick: int = 1
    #: A fox caught in the first trick is worth this many points (1 or 2).
    fox_first_trick: int = 1
    #: Winning the other party's CJ in the last trick is an extra point.
    karlchen_caught: bool = False
    #: Lieschen Müller: a DQ catching the other party's CJ in the last trick is an extra point.
    lieschen_mueller: bool = False
    #: An announced solo counts double.
    solo_value_doubled: bool = False
    #: Games after which a Bock round (four games at double value) follows.
    bock_after: frozenset[BockTrigger] = frozenset()
    #: Overlapping Bock rounds queue up or double again.
    bock_stacking: BockStacking = BockStacking.APPEND

    def __post_init__(self) -> None:
        # Named values given as plain text become their enum, so that
        # ``RuleSet(schweinchen="at_once")`` means what it says.
        for key, kind in RULE_KINDS.items():
            value = getattr(self, key)
            try:
                if isinstance(value, frozenset):
                    converted: Any = frozenset(kind(v) for v in value)
                else:
                    converted = kind(value)
            except ValueError:
                raise RuleError(f"rule {key!r}: invalid value {value!r}") from None
            object.__setattr__(self, key, converted)
        if not isinstance(self.compulsory_solos, int) or self.compulsory_solos < 0:
            raise RuleError("compulsory_solos must be a whole number ≥ 0")
        for key, allowed in NUMBER_CHOICES.items():
            if getattr(self, key) not in allowed:
                raise RuleError(f"{key} must be {' or '.join(map(str, allowed))}")
        if self.superschweinchen and self.schweinchen is Schweinchen.OFF:
            raise RuleError("superschweinchen needs schweinchen (at_once or on_first_play)")

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
        """Build a rule set from a record's ``rules``; unknown keys or values raise RuleError.

        A ``preset`` key starts from that preset; the other keys change it.
        """
        if not isinstance(data, Mapping):
            raise RuleError("rules must be an object")
        kwargs: dict[str, Any] = {}
        if "preset" in data:
            name = data["preset"]
            if not isinstance(name, str) or name not in PRESETS:
                raise RuleError(
                    f"rule 'preset': invalid value {name!r}; valid: {', '.join(PRESETS)}"
                )
            data = {**PRESETS[name], **{k: v for k, v in data.items() if k != "preset"}}
        for key, value in data.items():
            if key not in RULE_DEFAULTS:
                raise RuleError(f"unknown rule {key!r}")
            converter = _converter(key)
            try:
                kwargs[key] = converter(value)
            except (ValueError, TypeError) as exc:
                raise RuleError(
                    f"rule {key!r}: invalid value {value!r}; valid: {valid_values(key)}"
                ) from exc
        return cls(**kwargs)


def rule_values(key: str) -> tuple[str, ...] | None:
    """The values ``key`` takes, as written in a record (``None``: any whole number ≥ 0)."""
    default = RULE_DEFAULTS[key]
    if isinstance(default, bool):
        return ("true", "false")
    if key in NUMBER_CHOICES:
        return tuple(str(n) for n in NUMBER_CHOICES[key])
    if isinstance(default, int):
        return None
    return tuple(v.value for v in RULE_KINDS[key])


def valid_values(key: str) -> str:
    """The values ``key`` takes, as one line of text (for error messages and help)."""
    values = rule_values(key)
    if values is None:
        return "a whole number ≥ 0"
    names = ", ".join(values)
    return f"a list out of {names}" if isinstance(RULE_DEFAULTS[key], frozenset) else names


def _converter(key: str) -> Any:
    """How a record's value of ``key`` becomes a rule value; raises on a wrong one."""
    default = RULE_DEFAULTS[key]
    if isinstance(default, bool):
        return _strict_bool
    if isinstance(default, frozenset):
        return _set_of(RULE_KINDS[key])
    if key in NUMBER_CHOICES:
        return _one_of(*NUMBER_CHOICES[key])
    if isinstance(default, int):
        return _count
    return RULE_KINDS[key]


def _strict_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError("expected true or false")
    return value


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError("expected a whole number ≥ 0")
    return value


def _set_of(kind: type[enum.StrEnum]) -> Any:
    """A converter for a list of ``kind``'s values (solos, redeal hands, Bock triggers)."""

    def convert(value: Any) -> frozenset[Any]:
        if not isinstance(value, list | tuple | set | frozenset):
            raise TypeError("expected a list")
        return frozenset(kind(v) for v in value)

    return convert


def _one_of(*allowed: int) -> Any:
    def convert(value: Any) -> int:
        if isinstance(value, bool) or value not in allowed:
            raise ValueError(f"expected one of {allowed}")
        return int(value)

    return convert


DDV = RuleSet()

#: Named rule sets a server starts from (docs/rules.md §9.7); each is the keys it changes.
PRESETS: dict[str, dict[str, Any]] = {
    "ddv": {},
    "pub": {
        "dullen": "second_wins",
        "poverty": True,
        "schweinchen": "at_once",
        "bock_after": ["lost_kontra", "lost_re", "tie_120"],
        "announcement_doubles": True,
        "nines": False,
    },
    "beginners": {
        "solos": ["diamonds", "jack", "queen"],
        "announcement_limit": "no90",
    },
}


def preset(name: str) -> RuleSet:
    """The rule set of a named preset; raises RuleError naming the presets."""
    try:
        return RuleSet.from_dict(PRESETS[name])
    except KeyError:
        raise RuleError(f"unknown preset {name!r}; choose {', '.join(PRESETS)}") from None


def describe(rules: RuleSet) -> tuple[str, dict[str, Any]]:
    """The preset closest to ``rules`` and the keys that differ from it (as in a record)."""
    mine = rules.to_dict()
    best: tuple[str, dict[str, Any]] | None = None
    for name in PRESETS:
        base = preset(name).to_dict()
        diff = {k: v for k, v in mine.items() if base.get(k) != v}
        # Keys the preset changes that these rules leave at the DDV default.
        for key in base.keys() - mine.keys():
            diff[key] = _default_value(key)
        if best is None or len(diff) < len(best[1]):
            best = (name, diff)
    assert best is not None
    return best


def _default_value(key: str) -> Any:
    value = RULE_DEFAULTS[key]
    if isinstance(value, frozenset):
        return sorted(str(v) for v in value)
    return value.value if isinstance(value, enum.Enum) else value


RULE_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(RuleSet)}
