"""Score sheets, leaderboards, player statistics and stored games."""

from __future__ import annotations

import json
from typing import Any

from .db import Database
from .models import LeaderboardRow, Period, PlayerStats, ScoreSheet, SheetRow, StoredGame
from .tables import PlayerRepo

_HUMAN = "p.is_ai = 0 AND p.deleted = 0"


def _int(total: str) -> str:
    """A sum as a whole number on both databases (PostgreSQL sums BIGINT as NUMERIC)."""
    return f"CAST(coalesce({total}, 0) AS BIGINT)"


class StatsRepo:
    """Read-only queries for what players look at."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def score_sheet(self, session_id: int) -> ScoreSheet:
        """The running sheet of a session: one row per game, running totals per seat."""
        rows = await self._db.rows(
            "SELECT game_id, seq, number, dealer, contract, soloist, game_value, status, result "
            "FROM games WHERE session_id = ? AND status != 'aborted' ORDER BY seq",
            (session_id,),
        )
        seated = await self._db.rows(
            "SELECT gs.game_id, gs.seat, gs.player_id, gs.score FROM game_seats gs "
            "JOIN games g USING (game_id) WHERE g.session_id = ? AND g.status != 'aborted' "
            "ORDER BY gs.game_id, gs.seat",
            (session_id,),
        )
        seats: dict[int, list[tuple[int, int | None]]] = {}
        for game_id, _, player_id, points in seated:
            seats.setdefault(game_id, []).append((player_id, points))
        totals = [0, 0, 0, 0]
        sheet = []
        seat_players: list[int] = []
        for r in rows:
            seat_players = [p for p, _ in seats[r[0]]]
            result = json.loads(r[8]) if r[8] else {}
            scores = None
            if r[7] == "finished":
                scores = tuple(int(s or 0) for _, s in seats[r[0]])
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
                    bool(result.get("compulsory")),
                    int(result.get("bock") or 1),
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
        sums = ", ".join(
            f"{_int('sum(t.' + c + ')')}" for c in ("points", "games", "won", "solos", "solos_won")
        )
        rows = await self._db.rows(
            f"SELECT t.player_id, p.display_name, {sums} FROM {source} "
            f"JOIN players p USING (player_id) WHERE {where} AND {_HUMAN} "
            "GROUP BY t.player_id, p.display_name "
            "ORDER BY sum(t.points) DESC, sum(t.games) ASC, p.display_name LIMIT ?",
            (*args, limit),
        )
        return [LeaderboardRow(i + 1, *r) for i, r in enumerate(rows)]

    async def player_stats(self, guild_id: int, player_id: int) -> PlayerStats | None:
        """One player's record on this server in the current epoch."""
        epoch = await self._epoch(guild_id)
        counts = ", ".join(
            _int(f"sum(CASE WHEN {c} THEN 1 ELSE 0 END)")
            for c in (
                "gs.won = 1",
                "g.soloist = gs.seat",
                "g.soloist = gs.seat AND gs.won = 1",
                "gs.party = 're'",
                "gs.party = 're' AND gs.won = 1",
                "gs.party = 'kontra'",
                "gs.party = 'kontra' AND gs.won = 1",
            )
        )
        r = await self._db.row(
            f"SELECT p.display_name, count(*), {_int('sum(gs.score)')}, {counts}, "
            "max(gs.score), min(gs.score), max(g.finished_at) "
            "FROM game_seats gs JOIN games g USING (game_id) JOIN players p USING (player_id) "
            "WHERE gs.player_id = ? AND g.guild_id = ? AND g.epoch = ? AND g.status = 'finished' "
            "AND gs.party IS NOT NULL GROUP BY p.display_name",
            (player_id, guild_id, epoch),
        )
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
        r = await self._db.row(
            "SELECT game_id, session_id, status, header, result, started_at, finished_at "
            "FROM games WHERE guild_id = ? AND number = ?",
            (guild_id, number),
        )
        if r is None:
            return None
        return await self._stored(number, tuple(r))

    async def _stored(self, number: int, r: tuple[Any, ...]) -> StoredGame:
        game_id = r[0]
        logged = await self._db.rows(
            "SELECT action FROM game_actions WHERE game_id = ? ORDER BY idx", (game_id,)
        )
        actions = [json.loads(a[0]) for a in logged]
        named = await self._db.rows(
            "SELECT p.display_name FROM game_seats gs JOIN players p USING (player_id) "
            "WHERE gs.game_id = ? ORDER BY gs.seat",
            (game_id,),
        )
        players = tuple(row[0] for row in named)
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
        row = await self._db.row(
            "SELECT leaderboard_epoch FROM guilds WHERE guild_id = ?", (guild_id,)
        )
        return 0 if row is None else int(row[0])

    async def _names(self, player_ids: list[int]) -> dict[int, str]:
        return await PlayerRepo(self._db).names(player_ids)
