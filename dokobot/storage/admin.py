"""Server administration: leaderboard resets, data deletion, exports."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

from .db import Database
from .models import Period
from .stats import StatsRepo

DELETED_NAME = "Deleted player"


class AdminRepo:
    def __init__(self, db: Database, stats: StatsRepo) -> None:
        self._db = db
        self._stats = stats

    async def reset_leaderboard(self, guild_id: int) -> int:
        """Start a new leaderboard epoch; older games stay archived under their epoch."""
        async with self._db.transaction():
            await self._db.cursor(
                "INSERT INTO guilds (guild_id) VALUES (?) ON CONFLICT DO NOTHING", (guild_id,)
            )
            row = await self._db.row(
                "UPDATE guilds SET leaderboard_epoch = leaderboard_epoch + 1 WHERE guild_id = ? "
                "RETURNING leaderboard_epoch",
                (guild_id,),
            )
            return int(row[0])

    async def delete_player(self, player_id: int) -> None:
        """Forget a user: name and statistics go; their seats in games become anonymous.

        Games stay (the other players' scores depend on them), but nothing left
        links them to the user: the seats move to a fresh anonymous player.
        """
        async with self._db.transaction():
            row = await self._db.row("SELECT min(player_id) FROM players")
            anon = min(0, row[0] if row[0] is not None else 0) - 1
            await self._db.cursor(
                "INSERT INTO players (player_id, display_name, is_ai, deleted) VALUES (?, ?, 1, 1)",
                (anon, DELETED_NAME),
            )
            for table in ("game_seats", "table_seats"):
                await self._db.cursor(
                    f"UPDATE {table} SET player_id = ? WHERE player_id = ?", (anon, player_id)
                )
            await self._db.cursor("DELETE FROM player_days WHERE player_id = ?", (player_id,))
            await self._db.cursor("DELETE FROM player_totals WHERE player_id = ?", (player_id,))
            await self._db.cursor(
                "UPDATE tables SET owner_id = NULL WHERE owner_id = ?", (player_id,)
            )
            await self._db.cursor("DELETE FROM players WHERE player_id = ?", (player_id,))

    async def export_games(self, guild_id: int, period: Period = Period.ALL) -> AsyncIterator[str]:
        """Every finished game of the server (in ``period``) as one JSON record per line,
        oldest first."""
        first_day = period.first_day(self._db.clock().date())
        since = "" if first_day is None else " AND finished_at >= ?"
        rows = await self._db.rows(
            f"SELECT number FROM games WHERE guild_id = ? AND status = 'finished'{since} "
            "ORDER BY number",
            (guild_id,) if first_day is None else (guild_id, first_day),
        )
        numbers = [r[0] for r in rows]
        for number in numbers:
            game = await self._stats.game(guild_id, number)
            if game is not None:
                yield json.dumps(
                    {**game.record, "finished_at": game.finished_at, "result": game.result},
                    ensure_ascii=False,
                )
