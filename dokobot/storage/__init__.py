"""Storage: aiosqlite repositories. All SQL of DokoBot lives in this package."""

from __future__ import annotations

import os
from pathlib import Path

from .admin import AdminRepo
from .db import DEFAULT_PATH, LATEST, Clock, Database, StorageError, utc_now
from .games import GameRepo
from .models import (
    FinishedGame,
    GameRef,
    GuildSettings,
    LeaderboardRow,
    Period,
    Player,
    PlayerStats,
    RunningGame,
    ScoreSheet,
    SessionRow,
    SheetRow,
    StoredGame,
    TableRow,
)
from .stats import StatsRepo
from .tables import MetaRepo, PlayerRepo, SettingsRepo, TableRepo


class Storage:
    """The database and its repositories."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.settings = SettingsRepo(db)
        self.players = PlayerRepo(db)
        self.tables = TableRepo(db)
        self.games = GameRepo(db)
        self.stats = StatsRepo(db)
        self.admin = AdminRepo(db, self.stats)
        self.meta = MetaRepo(db)

    @classmethod
    async def open(cls, path: str | Path | None = None, *, clock: Clock = utc_now) -> Storage:
        """Open the database at ``path`` (default: ``$DOKOBOT_DB`` or ./dokobot.sqlite3)."""
        return cls(await Database.open(path or default_path(), clock=clock))

    async def close(self) -> None:
        await self.db.close()

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def default_path() -> str:
    return os.environ.get("DOKOBOT_DB") or DEFAULT_PATH


__all__ = [
    "DEFAULT_PATH",
    "LATEST",
    "FinishedGame",
    "GameRef",
    "GuildSettings",
    "LeaderboardRow",
    "Period",
    "Player",
    "PlayerStats",
    "RunningGame",
    "ScoreSheet",
    "SessionRow",
    "SheetRow",
    "Storage",
    "StorageError",
    "StoredGame",
    "TableRow",
    "default_path",
]
