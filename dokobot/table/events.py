"""Domain events the table service emits; the Discord layer decides how to show them."""

from __future__ import annotations

import dataclasses
from typing import Any

from dokobot.engine import Card, Plan, Trick


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    guild_id: int
    channel_id: int
    table_id: int


@dataclasses.dataclass(frozen=True, slots=True)
class TableChanged(Event):
    """Seats, owner or status changed: redraw the table message."""


@dataclasses.dataclass(frozen=True, slots=True)
class GameStarted(Event):
    number: int
    dealer: int
    names: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class HandChanged(Event):
    """Private: the hand (or the choices) of ``seat`` changed; refresh its panel."""

    seat: int
    player_id: int


@dataclasses.dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int
    player_id: int
    is_ai: bool
    #: Monotonic clock time when the turn times out (humans only).
    deadline: float | None


@dataclasses.dataclass(frozen=True, slots=True)
class BidMade(Event):
    seat: int
    #: "healthy" or "reservation": the kind of reservation stays secret (§4).
    word: str


@dataclasses.dataclass(frozen=True, slots=True)
class ContractSettled(Event):
    contract: str
    declarer: int | None
    #: The seat that leads the first trick.
    leader: int


@dataclasses.dataclass(frozen=True, slots=True)
class PovertyStep(Event):
    """Public: cards put down, a player accepted/declined, cards returned (with trump count)."""

    seat: int
    step: str
    trumps_returned: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    seat: int
    card: Card


@dataclasses.dataclass(frozen=True, slots=True)
class TrickCompleted(Event):
    number: int
    trick: Trick
    names: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class MarriageSettled(Event):
    """The clarification trick found the marriage player's partner (or none: alone)."""

    seat: int
    partner: int | None
    trick: int


@dataclasses.dataclass(frozen=True, slots=True)
class Declared(Event):
    """A house-rule call: Schweinchen, Superschweinchen, half chicken, or Genscher."""

    seat: int
    #: ``schweinchen``, ``superschweinchen``, ``half_chicken`` or ``genscher``.
    what: str
    #: Genscher: the partner named.
    partner: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class HandThrown(Event):
    """A player threw in a bad hand (``redeal_on``): shown to all, the same dealer deals again."""

    seat: int
    cards: tuple[Card, ...]
    #: The ``redeal_on`` values the hand meets.
    reasons: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class PlaysAlone(Event):
    """Schwarze Sau: the winner of the second SQ plays alone from trick ``trick`` on."""

    seat: int
    trick: int


@dataclasses.dataclass(frozen=True, slots=True)
class AnnouncementMade(Event):
    seat: int
    word: str


@dataclasses.dataclass(frozen=True, slots=True)
class TurnReminder(Event):
    seat: int
    player_id: int
    seconds_left: float


@dataclasses.dataclass(frozen=True, slots=True)
class TurnTimedOut(Event):
    """The AI played a turn for a human who ran out of time."""

    seat: int
    player_id: int
    #: What the AI did, a catalogue text ("played {card}", "said healthy" …).
    what: str
    card: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class SeatHandedToAI(Event):
    seat: int
    player_id: int


@dataclasses.dataclass(frozen=True, slots=True)
class SeatReturned(Event):
    seat: int
    player_id: int


@dataclasses.dataclass(frozen=True, slots=True)
class GameOver(Event):
    number: int
    result: dict[str, Any]
    names: tuple[str, ...]
    totals: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class SessionOver(Event):
    totals: tuple[int, ...]
    names: tuple[str, ...]
    #: The session, for its final sheet (the table may be closed by the time it is shown).
    session_id: int | None = None
    plan: Plan = dataclasses.field(default_factory=Plan)


@dataclasses.dataclass(frozen=True, slots=True)
class TableResumed(Event):
    """The service restarted and picked this table up where it stopped."""


@dataclasses.dataclass(frozen=True, slots=True)
class TableClosed(Event):
    """The table is closed for good; ``reason`` is a code the Discord layer words."""

    #: stopped, everybody_left, no_humans, nobody_plays, restore_failed,
    #: channel_deleted, guild_left, no_permission
    reason: str
    #: False when the channel is gone or closed to the bot: send nothing there.
    reachable: bool = True
