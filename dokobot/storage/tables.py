"""Server settings, players and tables."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .db import ConflictError, Database, StorageError
from .models import GuildSettings, Player, TableRow


class SettingsRepo:
    """A server's rules and table defaults."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, guild_id: int) -> GuildSettings:
        row = await self._db.row(
            "SELECT rules, table_defaults, leaderboard_epoch FROM guilds WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return GuildSettings(guild_id, {}, {}, 0)
        return GuildSettings(guild_id, json.loads(row[0]), json.loads(row[1]), row[2])

    async def set_rules(self, guild_id: int, rules: dict[str, Any]) -> None:
        """Store the server's rules (only the keys that differ from DDV)."""
        async with self._db.transaction():
            await self._db.cursor(
                "INSERT INTO guilds (guild_id, rules) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET rules = excluded.rules",
                (guild_id, json.dumps(rules, sort_keys=True)),
            )

    async def set_table_defaults(self, guild_id: int, defaults: dict[str, Any]) -> None:
        async with self._db.transaction():
            await self._db.cursor(
                "INSERT INTO guilds (guild_id, table_defaults) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET table_defaults = excluded.table_defaults",
                (guild_id, json.dumps(defaults, sort_keys=True)),
            )


class MetaRepo:
    """Key/value facts about the bot (command sync fingerprint, …)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, key: str) -> str | None:
        row = await self._db.row("SELECT value FROM bot_meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    async def set(self, key: str, value: str) -> None:
        async with self._db.transaction():
            await self._db.cursor(
                "INSERT INTO bot_meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )


class PlayerRepo:
    """Discord users (positive ids) and AI players (negative ids)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def upsert(self, player_id: int, display_name: str, *, is_ai: bool = False) -> None:
        """Remember a player's current display name."""
        if is_ai != (player_id < 0):
            raise ValueError("AI players have negative ids, Discord users positive ones")
        async with self._db.transaction():
            await self._db.cursor(
                "INSERT INTO players (player_id, display_name, is_ai) VALUES (?, ?, ?) "
                "ON CONFLICT (player_id) DO UPDATE SET display_name = excluded.display_name "
                "WHERE players.deleted = 0",
                (player_id, display_name, int(is_ai)),
            )

    async def get(self, player_id: int) -> Player | None:
        row = await self._db.row(
            "SELECT player_id, display_name, is_ai, deleted FROM players WHERE player_id = ?",
            (player_id,),
        )
        return None if row is None else Player(row[0], row[1], bool(row[2]), bool(row[3]))

    async def names(self, player_ids: Sequence[int]) -> dict[int, str]:
        if not player_ids:
            return {}
        marks = ",".join("?" * len(player_ids))
        rows = await self._db.rows(
            f"SELECT player_id, display_name FROM players WHERE player_id IN ({marks})",
            tuple(player_ids),
        )
        return {row[0]: row[1] for row in rows}


class TableRepo:
    """Tables in channels and their seats."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        owner_id: int | None,
        settings: dict[str, Any] | None = None,
    ) -> int:
        """Open a table in a channel; raises ``StorageError`` if one is live there."""
        try:
            async with self._db.transaction():
                await self._db.cursor(
                    "INSERT INTO guilds (guild_id) VALUES (?) ON CONFLICT DO NOTHING", (guild_id,)
                )
                row = await self._db.row(
                    "INSERT INTO tables (guild_id, channel_id, owner_id, settings, created_at) "
                    "VALUES (?, ?, ?, ?, ?) RETURNING table_id",
                    (guild_id, channel_id, owner_id, json.dumps(settings or {}), self._db.now()),
                )
        except ConflictError:
            raise StorageError(f"channel {channel_id} already has a table") from None
        return int(row[0])

    async def set_seats(self, table_id: int, seats: Sequence[int | None]) -> None:
        """Replace who sits where."""
        async with self._db.transaction():
            await self._db.cursor("DELETE FROM table_seats WHERE table_id = ?", (table_id,))
            await self._db.cursor_many(
                "INSERT INTO table_seats (table_id, seat, player_id) VALUES (?, ?, ?)",
                [(table_id, s, p) for s, p in enumerate(seats) if p is not None],
            )

    async def set_status(self, table_id: int, status: str) -> None:
        closed = self._db.now() if status == "closed" else None
        async with self._db.transaction():
            await self._db.cursor(
                "UPDATE tables SET status = ?, closed_at = ? WHERE table_id = ?",
                (status, closed, table_id),
            )

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        async with self._db.transaction():
            await self._db.cursor(
                "UPDATE tables SET message_id = ? WHERE table_id = ?", (message_id, table_id)
            )

    async def set_settings(self, table_id: int, settings: dict[str, Any]) -> None:
        async with self._db.transaction():
            await self._db.cursor(
                "UPDATE tables SET settings = ? WHERE table_id = ?",
                (json.dumps(settings), table_id),
            )

    async def get(self, table_id: int) -> TableRow | None:
        rows = await self._select("WHERE t.table_id = ?", (table_id,))
        return rows[0] if rows else None

    async def live_in_channel(self, channel_id: int) -> TableRow | None:
        rows = await self._select("WHERE t.channel_id = ? AND t.status != 'closed'", (channel_id,))
        return rows[0] if rows else None

    async def live(self) -> list[TableRow]:
        """Every table that is not closed (to restore after a restart)."""
        return await self._select("WHERE t.status != 'closed'", ())

    async def _select(self, where: str, args: tuple[Any, ...]) -> list[TableRow]:
        rows = await self._db.rows(
            "SELECT t.table_id, t.guild_id, t.channel_id, t.owner_id, t.status, t.message_id, "
            f"t.settings, t.created_at FROM tables t {where} ORDER BY t.table_id",
            args,
        )
        seated = await self._db.rows(
            "SELECT s.table_id, s.seat, s.player_id FROM table_seats s "
            f"JOIN tables t USING (table_id) {where}",
            args,
        )
        seats: dict[int, list[int | None]] = {r[0]: [None] * 4 for r in rows}
        for table_id, seat, player in seated:
            if table_id in seats:
                seats[table_id][seat] = player
        return [
            TableRow(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), tuple(seats[r[0]]), r[7])
            for r in rows
        ]
