"""Moving a whole DokoBot database between SQLite and PostgreSQL, row for row.

The dump is JSON lines: a header with the schema version, then one line per row
(``{"table": …, "row": {column: value}}``), tables in the order their
references need. Every table of the schema is in it, so an import gives back
the same games, action logs, score sheets, leaderboards, settings and ids.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterable
from typing import Any

from .db import Database, StorageError

FORMAT = "dokobot-db/1"
_NAME = re.compile(r"[a-z_]+")

#: Every table, parents before children, each with the columns that order its rows.
TABLES: tuple[tuple[str, str], ...] = (
    ("guilds", "guild_id"),
    ("players", "player_id"),
    ("bot_meta", "key"),
    ("tables", "table_id"),
    ("table_seats", "table_id, seat"),
    ("sessions", "session_id"),
    ("games", "game_id"),
    ("game_actions", "game_id, idx"),
    ("game_seats", "game_id, seat"),
    ("player_days", "guild_id, epoch, day, player_id"),
    ("player_totals", "guild_id, epoch, player_id"),
)


async def export_lines(db: Database) -> AsyncIterator[str]:
    """The whole database as JSON lines, header first."""
    version = await db.schema_version()
    counts = {table: (await db.row(f"SELECT count(*) FROM {table}"))[0] for table, _ in TABLES}
    yield json.dumps({"format": FORMAT, "schema": version, "rows": counts})
    for table, order in TABLES:
        for row in await db.rows(f"SELECT * FROM {table} ORDER BY {order}"):
            yield json.dumps(
                {"table": table, "row": dict(zip(row.keys(), row, strict=True))},
                ensure_ascii=False,
                separators=(",", ":"),
            )


async def import_lines(db: Database, lines: Iterable[str]) -> dict[str, int]:
    """Load a dump into an empty database in one transaction; the rows per table.

    Refused (nothing written) when the target already has games or players, when
    the dump comes from another schema version, or when it is incomplete.
    """
    it = iter(lines)
    try:
        header = json.loads(next(it))
    except (StopIteration, ValueError):
        raise StorageError("the dump is empty or not a DokoBot database dump") from None
    if header.get("format") != FORMAT:
        raise StorageError(f"not a DokoBot database dump (expected format {FORMAT})")
    version = await db.schema_version()
    if header.get("schema") != version:
        raise StorageError(
            f"the dump has schema {header.get('schema')}, the database {version}: "
            "run `dokobot migrate` on the older one first"
        )
    for table, _ in TABLES:
        if (await db.row(f"SELECT count(*) FROM {table}"))[0]:
            raise StorageError(f"the target database is not empty ({table} has rows)")
    known = {table for table, _ in TABLES}
    loaded = {table: 0 for table, _ in TABLES}
    async with db.batch():
        pending: list[tuple[Any, ...]] = []
        statement: tuple[str, str] | None = None
        for number, line in enumerate(it, start=2):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                table, row = item["table"], item["row"]
            except (ValueError, KeyError, TypeError):
                raise StorageError(f"line {number} of the dump is damaged") from None
            if table not in known:
                raise StorageError(f"line {number}: unknown table {table!r}")
            if not all(_NAME.fullmatch(str(c)) for c in row):
                raise StorageError(f"line {number}: a column name is not a name")
            columns = ", ".join(row)
            sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join('?' * len(row))})"
            if statement is not None and statement != (table, sql):
                await db.cursor_many(statement[1], pending)
                pending = []
            statement = (table, sql)
            pending.append(tuple(row.values()))
            loaded[table] += 1
        if statement is not None:
            await db.cursor_many(statement[1], pending)
        expected = header.get("rows", {})
        if expected != loaded:  # raised inside the transaction: nothing is kept
            missing = {t: (expected.get(t), n) for t, n in loaded.items() if expected.get(t) != n}
            raise StorageError(f"the dump is incomplete (table: expected, found): {missing}")
    await db.after_import()
    return loaded
