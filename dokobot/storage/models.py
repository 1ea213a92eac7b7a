"""Typed rows the repositories return: the rest of the code never sees a cursor."""

from __future__ import annotations

import dataclasses
import enum
from datetime import date, timedelta
from typing import Any


@dataclasses.dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's rules (record ``rules`` object) and table defaults."""

    guild_id: int
    rules: dict[str, Any]
    table_defaults: dict[str, Any]
    leaderboard_epoch: int


@dataclasses.dataclass(frozen=True, slots=True)
class Player:
    player_id: int
    display_name: str
    is_ai: bool
    deleted: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class TableRow:
    """A table in a channel and who sits where (``None``: empty seat)."""

    table_id: int
    guild_id: int
    channel_id: int
    owner_id: int | None
    status: str
    message_id: int | None
    settings: dict[str, Any]
    seats: tuple[int | None, ...]
    created_at: str


@dataclasses.dataclass(frozen=True, slots=True)
class SessionRow:
    session_id: int
    table_id: int
    guild_id: int
    rules: dict[str, Any]
    first_dealer: int
    deals: int | None
    seed: int
    started_at: str
    ended_at: str | None


@dataclasses.dataclass(frozen=True, slots=True)
class GameRef:
    game_id: int
    number: int


@dataclasses.dataclass(frozen=True, slots=True)
class RunningGame:
    """An unfinished game: enough to rebuild its exact state by replay."""

    game_id: int
    number: int
    guild_id: int
    table_id: int
    session_id: int
    seq: int
    header: dict[str, Any]
    actions: tuple[dict[str, Any], ...]
    seats: tuple[int, ...]
    started_at: str

    def record(self) -> dict[str, Any]:
        return {**self.header, "actions": list(self.actions)}


@dataclasses.dataclass(frozen=True, slots=True)
class FinishedGame:
    """What the table reports when a game ends (computed by the engine)."""

    contract: str | None
    soloist: int | None
    winner: str | None
    game_value: int
    scores: tuple[int, ...]
    #: Per seat: "re" or "kontra" (``None`` for a redeal).
    parties: tuple[str | None, ...]
    #: The ``dokobot replay`` output of the game.
    result: dict[str, Any]

    @property
    def is_redeal(self) -> bool:
        return bool(self.result.get("redeal"))


@dataclasses.dataclass(frozen=True, slots=True)
class SheetRow:
    """One game on the score sheet: value and each seat's change and running total."""

    seq: int
    number: int
    dealer: int
    contract: str | None
    soloist: int | None
    game_value: int | None
    scores: tuple[int, ...] | None
    totals: tuple[int, ...]
    status: str
    #: A compulsory solo (Pflichtsolo): its own column on a tournament list.
    compulsory: bool = False
    #: The Bock factor the game was played at (house rule, docs/rules.md §9.6).
    bock: int = 1


@dataclasses.dataclass(frozen=True, slots=True)
class ScoreSheet:
    session_id: int
    players: tuple[str, ...]
    rows: tuple[SheetRow, ...]
    totals: tuple[int, ...]


class Period(enum.StrEnum):
    """Leaderboard time windows."""

    ALL = "all"
    MONTH = "month"
    DAYS_30 = "30d"

    def first_day(self, today: date) -> str | None:
        if self is Period.MONTH:
            return today.replace(day=1).isoformat()
        if self is Period.DAYS_30:
            return (today - timedelta(days=29)).isoformat()
        return None


class _Rates:
    """Win rate and average score per game, from ``won``, ``points`` and ``games``."""

    __slots__ = ()
    won: int
    points: int
    games: int

    @property
    def win_rate(self) -> float:
        return self.won / self.games if self.games else 0.0

    @property
    def average(self) -> float:
        return self.points / self.games if self.games else 0.0


@dataclasses.dataclass(frozen=True, slots=True)
class LeaderboardRow(_Rates):
    rank: int
    player_id: int
    name: str
    points: int
    games: int
    won: int
    solos: int
    solos_won: int


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerStats(_Rates):
    player_id: int
    name: str
    points: int
    games: int
    won: int
    solos: int
    solos_won: int
    re_games: int
    re_won: int
    kontra_games: int
    kontra_won: int
    best: int | None
    worst: int | None
    last_played: str | None


@dataclasses.dataclass(frozen=True, slots=True)
class StoredGame:
    """A game by its number: the full record and what it ended with."""

    game_id: int
    number: int
    session_id: int
    status: str
    record: dict[str, Any]
    result: dict[str, Any] | None
    players: tuple[str, ...]
    started_at: str
    finished_at: str | None
