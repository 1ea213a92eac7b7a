"""Sessions, games and their action logs."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .db import ConflictError, Database, StorageError
from .models import FinishedGame, GameRef, RunningGame, SessionRow


class GameRepo:
    """Write-ahead log of games: every action committed before anyone sees its effect."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def start_session(
        self,
        table_id: int,
        guild_id: int,
        *,
        rules: dict[str, Any],
        first_dealer: int,
        deals: int | None,
        seed: int,
    ) -> int:
        async with self._db.transaction():
            row = await self._db.row(
                "INSERT INTO sessions (table_id, guild_id, rules, first_dealer, deals, seed, "
                "started_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING session_id",
                (table_id, guild_id, json.dumps(rules), first_dealer, deals, seed, self._db.now()),
            )
            return int(row[0])

    async def end_session(self, session_id: int) -> None:
        async with self._db.transaction():
            await self._db.cursor(
                "UPDATE sessions SET ended_at = ? WHERE session_id = ? AND ended_at IS NULL",
                (self._db.now(), session_id),
            )

    async def session(self, session_id: int) -> SessionRow | None:
        r = await self._db.row(
            "SELECT session_id, table_id, guild_id, rules, first_dealer, deals, seed, started_at, "
            "ended_at FROM sessions WHERE session_id = ?",
            (session_id,),
        )
        if r is None:
            return None
        return SessionRow(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6], r[7], r[8])

    async def open_session(self, table_id: int) -> SessionRow | None:
        """The table's session that has not ended, if any."""
        row = await self._db.row(
            "SELECT session_id FROM sessions WHERE table_id = ? AND ended_at IS NULL "
            "ORDER BY session_id DESC LIMIT 1",
            (table_id,),
        )
        return None if row is None else await self.session(row[0])

    async def start_game(
        self, session_id: int, seq: int, header: dict[str, Any], seats: Sequence[int]
    ) -> GameRef:
        """Store a freshly dealt game (its record without actions) and who sits where."""
        if len(seats) != 4:
            raise ValueError("a game has four seats")
        async with self._db.transaction():
            row = await self._db.row(
                "SELECT guild_id FROM sessions WHERE session_id = ?", (session_id,)
            )
            if row is None:
                raise StorageError(f"no session {session_id}")
            guild_id = row[0]
            number, epoch = await self._db.row(
                "UPDATE guilds SET next_game_number = next_game_number + 1 WHERE guild_id = ? "
                "RETURNING next_game_number - 1, leaderboard_epoch",
                (guild_id,),
            )
            game = await self._db.row(
                "INSERT INTO games (guild_id, number, session_id, seq, dealer, header, epoch, "
                "started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING game_id",
                (
                    guild_id,
                    number,
                    session_id,
                    seq,
                    header["dealer"],
                    json.dumps(header),
                    epoch,
                    self._db.now(),
                ),
            )
            game_id = int(game[0])
            await self._db.cursor_many(
                "INSERT INTO game_seats (game_id, seat, player_id) VALUES (?, ?, ?)",
                [(game_id, s, p) for s, p in enumerate(seats)],
            )
        return GameRef(game_id, number)

    async def append_action(self, game_id: int, index: int, action: dict[str, Any]) -> None:
        """Commit action number ``index`` of a running game; a duplicate index is refused."""
        refused = StorageError(
            f"action {index} of game {game_id} is out of order or the game is not running"
        )
        async with self._db.transaction():
            row = await self._db.row(
                "SELECT (SELECT count(*) FROM game_actions WHERE game_id = ?) FROM games "
                "WHERE game_id = ? AND status = 'running'",
                (game_id, game_id),
            )
            if row is None or row[0] != index:
                raise refused
            try:
                await self._db.cursor(
                    "INSERT INTO game_actions (game_id, idx, action, at) VALUES (?, ?, ?, ?)",
                    (game_id, index, json.dumps(action, separators=(",", ":")), self._db.now()),
                )
            except ConflictError:  # another writer stored this index in the meantime
                raise refused from None

    async def finish_game(self, game_id: int, finished: FinishedGame) -> None:
        """Close a game with its result and add each seat's score to the leaderboard."""
        now = self._db.now()
        day = now[:10]
        async with self._db.transaction():
            row = await self._db.row(
                "UPDATE games SET status = 'finished', contract = ?, soloist = ?, winner = ?, "
                "game_value = ?, result = ?, finished_at = ? WHERE game_id = ? "
                "AND status = 'running' RETURNING guild_id, epoch",
                (
                    finished.contract,
                    finished.soloist,
                    finished.winner,
                    finished.game_value,
                    json.dumps(finished.result),
                    now,
                    game_id,
                ),
            )
            if row is None:
                raise StorageError(f"game {game_id} is not running")
            guild_id, epoch = row
            seated = await self._db.rows(
                "SELECT seat, player_id FROM game_seats WHERE game_id = ?", (game_id,)
            )
            players: dict[int, int] = {r[0]: r[1] for r in seated}
            seat_rows = []
            stats = []
            for seat in range(4):
                party = finished.parties[seat]
                won = int(finished.winner is not None and party == finished.winner)
                solo = int(finished.soloist == seat)
                seat_rows.append((party, finished.scores[seat], won, game_id, seat))
                if not finished.is_redeal:
                    stats.append((players[seat], finished.scores[seat], won, solo, solo * won))
            await self._db.cursor_many(
                "UPDATE game_seats SET party = ?, score = ?, won = ? "
                "WHERE game_id = ? AND seat = ?",
                seat_rows,
            )
            # Rows in one order (by player): concurrent games on PostgreSQL lock them in
            # the same order and never deadlock.
            stats.sort()
            for table, key in (("player_days", (day,)), ("player_totals", ())):
                cols = "guild_id, epoch, " + ("day, " if key else "") + "player_id"
                marks = "?, ?, " + ("?, " if key else "") + "?"
                add = ", ".join(
                    f"{c} = {table}.{c} + excluded.{c}"
                    for c in ("points", "games", "won", "solos", "solos_won")
                )
                await self._db.cursor_many(
                    f"INSERT INTO {table} ({cols}, points, games, won, solos, solos_won) "
                    f"VALUES ({marks}, ?, 1, ?, ?, ?) ON CONFLICT ({cols}) DO UPDATE SET {add}",
                    [(guild_id, epoch, *key, p, pts, w, s, sw) for p, pts, w, s, sw in stats],
                )

    async def abort_game(self, game_id: int) -> None:
        """Mark a running game as abandoned (the table was stopped mid-game)."""
        async with self._db.transaction():
            await self._db.cursor(
                "UPDATE games SET status = 'aborted', finished_at = ? "
                "WHERE game_id = ? AND status = 'running'",
                (self._db.now(), game_id),
            )

    async def running(self) -> list[RunningGame]:
        """Every unfinished game with its actions, to rebuild each by replay."""
        games = await self._db.rows(
            "SELECT g.game_id, g.number, g.guild_id, s.table_id, g.session_id, g.seq, g.header, "
            "g.started_at FROM games g JOIN sessions s USING (session_id) "
            "WHERE g.status = 'running' ORDER BY g.game_id"
        )
        return [await self._running(tuple(g)) for g in games]

    async def running_for_table(self, table_id: int) -> RunningGame | None:
        row = await self._db.row(
            "SELECT g.game_id, g.number, g.guild_id, s.table_id, g.session_id, g.seq, g.header, "
            "g.started_at FROM games g JOIN sessions s USING (session_id) "
            "WHERE g.status = 'running' AND s.table_id = ? ORDER BY g.game_id DESC LIMIT 1",
            (table_id,),
        )
        return None if row is None else await self._running(tuple(row))

    async def _running(self, g: tuple[Any, ...]) -> RunningGame:
        game_id = g[0]
        actions = tuple(await self.actions(game_id))
        seated = await self._db.rows(
            "SELECT player_id FROM game_seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        seats = tuple(r[0] for r in seated)
        return RunningGame(
            game_id, g[1], g[2], g[3], g[4], g[5], json.loads(g[6]), actions, seats, g[7]
        )

    async def session_records(self, session_id: int) -> list[dict[str, Any]]:
        """The records (header plus actions) of a session's finished games, in order."""
        games = await self._db.rows(
            "SELECT game_id, header FROM games WHERE session_id = ? AND status = 'finished' "
            "ORDER BY seq",
            (session_id,),
        )
        return [
            {**json.loads(header), "actions": await self.actions(game_id)}
            for game_id, header in games
        ]

    async def actions(self, game_id: int) -> list[dict[str, Any]]:
        """A game's action log, in order."""
        rows = await self._db.rows(
            "SELECT action FROM game_actions WHERE game_id = ? ORDER BY idx", (game_id,)
        )
        return [json.loads(r[0]) for r in rows]

    async def games_in_session(self, session_id: int) -> int:
        """How many games (any status) the session has started: the next game's seq."""
        row = await self._db.row("SELECT count(*) FROM games WHERE session_id = ?", (session_id,))
        return int(row[0]) if row else 0
