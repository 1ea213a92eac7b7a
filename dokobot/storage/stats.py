"""Score sheets, leaderboards, player statistics and stored games."""

from __future__ import annotations

import json
from typing import Any

from .db import Database
from .models import LeaderboardRow, Period, PlayerStats, ScoreSheet, SheetRow, StoredGame
from .tables import PlayerRepo

_HUMAN = "p.is_ai = 0 AND p.deleted = 0"


class StatsRepo:
    """Read-only queries for what players look at."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def score_sheet(self, session_id: int) -> ScoreSheet:
        """The running sheet of a session: one row per game, running totals per seat."""
        async with self._db.conn.execute(
            "SELECT g.game_id, g.seq, g.number, g.dealer, g.contract, g.soloist, g.game_value, "
            "g.status, group_concat(gs.score, ','), group_concat(gs.player_id, ','), "
            "json_extract(g.result, '$.compulsory'), json_extract(g.result, '$.bock') "
            "FROM games g JOIN game_seats gs USING (game_id) WHERE g.session_id = ? "
            "AND g.status != 'aborted' GROUP BY g.game_id ORDER BY g.seq",
            (session_id,),
        ) as cur:
            rows = await cur.fetchall()
        totals = [0, 0, 0, 0]
        sheet = []
        seat_players: list[int] = []
        for r in rows:
            seat_players = [int(p) for p in r[9].split(",")]
            scores = None
            if r[7] == "finished":
                scores = tuple(int(s) for s in r[8].split(","))
                totals = [t + s for t, s in zip(totals, scores, strict=True)]
            sheet.append(
                SheetRow(
                    r[1],
                    r[2],
                    r[3],
                    r[4],
                    r[5],
                    r[6],
                    scores,
                    tuple(totals),
                    r[7],
                    bool(r[10]),
                    int(r[11] or 1),
                )
            )
        names = await self._names(seat_players) if seat_players else {}
        players = tuple(names.get(p, "?") for p in seat_players)
        return ScoreSheet(session_id, players, tuple(sheet), tuple(totals))

    async def leaderboard(
        self, guild_id: int, period: Period = Period.ALL, *, limit: int = 50
    ) -> list[LeaderboardRow]:
        """The server's ranking of human players by points in the current epoch."""
        epoch = await self._epoch(guild_id)
        first_day = period.first_day(self._db.clock().date())
        if first_day is None:
            source = "player_totals t"
            where = "t.guild_id = ? AND t.epoch = ?"
            args: tuple[Any, ...] = (guild_id, epoch)
        else:
            source = "player_days t"
            where = "t.guild_id = ? AND t.epoch = ? AND t.day >= ?"
            args = (guild_id, epoch, first_day)
        async with self._db.conn.execute(
            f"SELECT t.player_id, p.display_name, sum(t.points), sum(t.games), sum(t.won), "
            f"sum(t.solos), sum(t.solos_won) FROM {source} JOIN players p USING (player_id) "
            f"WHERE {where} AND {_HUMAN} GROUP BY t.player_id "
            "ORDER BY sum(t.points) DESC, sum(t.games) ASC, p.display_name LIMIT ?",
            (*args, limit),
        ) as cur:
            rows = await cur.fetchall()
        return [LeaderboardRow(i + 1, *r) for i, r in enumerate(rows)]

    async def player_stats(self, guild_id: int, player_id: int) -> PlayerStats | None:
        """One player's record on this server in the current epoch."""
        epoch = await self._epoch(guild_id)
        async with self._db.conn.execute(
            "SELECT p.display_name, count(*), coalesce(sum(gs.score), 0), "
            "coalesce(sum(gs.won), 0), "
            "coalesce(sum(g.soloist = gs.seat), 0), "
            "coalesce(sum(g.soloist = gs.seat AND gs.won), 0), "
            "coalesce(sum(gs.party = 're'), 0), coalesce(sum(gs.party = 're' AND gs.won), 0), "
            "coalesce(sum(gs.party = 'kontra'), 0), "
            "coalesce(sum(gs.party = 'kontra' AND gs.won), 0), "
            "max(gs.score), min(gs.score), max(g.finished_at) "
            "FROM game_seats gs JOIN games g USING (game_id) JOIN players p USING (player_id) "
            "WHERE gs.player_id = ? AND g.guild_id = ? AND g.epoch = ? AND g.status = 'finished' "
            "AND gs.party IS NOT NULL",
            (player_id, guild_id, epoch),
        ) as cur:
            r = await cur.fetchone()
        if r is None or r[0] is None:
            name = (await self._names([player_id])).get(player_id)
            if name is None:
                return None
            return PlayerStats(player_id, name, 0, 0, 0, 0, 0, 0, 0, 0, 0, None, None, None)
        return PlayerStats(
            player_id,
            r[0],
            r[2],
            r[1],
            r[3],
            r[4],
            r[5],
            r[6],
            r[7],
            r[8],
            r[9],
            r[10],
            r[11],
            r[12],
        )

    async def game(self, guild_id: int, number: int) -> StoredGame | None:
        """A game by its number on this server, with its full record."""
        async with self._db.conn.execute(
            "SELECT game_id, session_id, status, header, result, started_at, finished_at "
            "FROM games WHERE guild_id = ? AND number = ?",
            (guild_id, number),
        ) as cur:
            r = await cur.fetchone()
        if r is None:
            return None
        return await self._stored(number, tuple(r))

    async def _stored(self, number: int, r: tuple[Any, ...]) -> StoredGame:
        game_id = r[0]
        async with self._db.conn.execute(
            "SELECT action FROM game_actions WHERE game_id = ? ORDER BY idx", (game_id,)
        ) as cur:
            actions = [json.loads(a[0]) for a in await cur.fetchall()]
        async with self._db.conn.execute(
            "SELECT p.display_name FROM game_seats gs JOIN players p USING (player_id) "
            "WHERE gs.game_id = ? ORDER BY gs.seat",
            (game_id,),
        ) as cur:
            players = tuple(row[0] for row in await cur.fetchall())
        record = {
            **json.loads(r[3]),
            "players": list(players),
            "game_id": number,
            "session": r[1],
            "started_at": r[5],
            "actions": actions,
        }
        result = json.loads(r[4]) if r[4] else None
        return StoredGame(game_id, number, r[1], r[2], record, result, players, r[5], r[6])

    async def _epoch(self, guild_id: int) -> int:
        async with self._db.conn.execute(
            "SELECT leaderboard_epoch FROM guilds WHERE guild_id = ?", (guild_id,)
        ) as cur:
            row = await cur.fetchone()
        return 0 if row is None else int(row[0])

    async def _names(self, player_ids: list[int]) -> dict[int, str]:
        return await PlayerRepo(self._db).names(player_ids)
