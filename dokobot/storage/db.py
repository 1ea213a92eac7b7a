"""Opening the database: checks, numbered migrations, connection settings."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

DEFAULT_PATH = "./dokobot.sqlite3"

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


class StorageError(RuntimeError):
    """The database cannot be used; the message says why and what was left untouched."""


def migrations() -> list[tuple[int, str, str]]:
    """The numbered migrations shipped with the package: (number, name, SQL), in order."""
    found = []
    for entry in resources.files("dokobot.storage.migrations").iterdir():
        match = re.fullmatch(r"(\d{4})_(\w+)\.sql", entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise StorageError(f"migrations must be numbered 0001, 0002, … without gaps: {numbers}")
    return found


LATEST = len(migrations())


class Result:
    """The rows of one statement, fetched in full so the statement is finished at once."""

    def __init__(self, rows: list[sqlite3.Row], rowcount: int, lastrowid: int | None) -> None:
        self.rows = rows
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchone(self) -> Any:
        return self.rows[0] if self.rows else None

    async def fetchall(self) -> list[Any]:
        return self.rows


#: The database whose write transaction the current task holds (reentrant batches).
_writing: contextvars.ContextVar[Database | None] = contextvars.ContextVar(
    "dokobot_writing", default=None
)


class Database:
    """A writer and a reader connection (WAL, foreign keys), the schema migrated.

    Any number of tables write at once: every write transaction waits for the
    one writer lock, so transactions never interleave on the shared writer
    connection. Reads outside a transaction go to the reader connection, so a
    slow commit never holds up a leaderboard, and no read sees another task's
    uncommitted writes.
    """

    def __init__(
        self,
        writer: aiosqlite.Connection,
        path: str,
        clock: Clock,
        reader: aiosqlite.Connection | None = None,
    ) -> None:
        self._writer = writer
        self._reader = reader or writer
        self.path = path
        self.clock = clock
        self._write_lock = asyncio.Lock()

    @property
    def conn(self) -> aiosqlite.Connection:
        """The connection for this task: the writer inside its transaction, else the reader."""
        return self._writer if _writing.get() is self else self._reader

    @classmethod
    async def open(cls, path: str | Path = DEFAULT_PATH, *, clock: Clock = utc_now) -> Database:
        """Open (or create) the database at ``path`` and bring its schema up to date.

        A damaged file, another program's database or one written by a newer
        DokoBot raises ``StorageError`` before anything is written to it.
        """
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await _connect(path)
        try:
            await _check(conn, path)
            for pragma in (
                "journal_mode = WAL",
                "synchronous = FULL",
                "foreign_keys = ON",
                "busy_timeout = 5000",
            ):
                async with conn.execute(f"PRAGMA {pragma}") as cur:
                    await cur.fetchall()
            await _migrate(conn, path)
        except BaseException:
            await conn.close()
            raise
        conn.row_factory = sqlite3.Row
        reader = None
        if path != ":memory:":  # an in-memory database exists only on its one connection
            reader = await _connect(path)
            reader.row_factory = sqlite3.Row
            async with reader.execute("PRAGMA busy_timeout = 5000") as cur:
                await cur.fetchall()
        return cls(conn, path, clock, reader)

    async def close(self) -> None:
        if self._reader is not self._writer:
            await self._reader.close()
        await self._writer.close()

    async def cursor(self, sql: str, args: Sequence[Any] = ()) -> Result:
        """Run one statement to completion (no statement stays open inside a transaction)."""
        async with self.conn.execute(sql, args) as cur:
            rows = list(await cur.fetchall())
            return Result(rows, cur.rowcount, cur.lastrowid)

    async def cursor_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        async with self.conn.executemany(sql, rows):
            pass

    async def _write(self, sql: str) -> None:
        async with self._writer.execute(sql) as cur:
            await cur.fetchall()

    def now(self) -> str:
        return self.clock().astimezone(UTC).isoformat(timespec="milliseconds")

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction, committed on success; one at a time, nested ones join it."""
        if _writing.get() is self:
            yield self._writer
            return
        async with self._write_lock:
            token = _writing.set(self)
            try:
                await self._write("BEGIN IMMEDIATE")
                try:
                    yield self._writer
                except BaseException:
                    await self._write("ROLLBACK")
                    raise
                await self.commit()
            finally:
                _writing.reset(token)

    async def commit(self) -> None:
        """Commit the open write transaction (a seam for tests that make disks slow)."""
        await self._write("COMMIT")

    @contextlib.asynccontextmanager
    async def batch(self) -> AsyncIterator[None]:
        """Group many writes into one transaction (imports, benchmarks)."""
        async with self.transaction():
            yield


async def _connect(path: str) -> aiosqlite.Connection:
    try:
        pending = aiosqlite.connect(path, isolation_level=None)
        # A daemon worker thread: a process that forgets to close never hangs at exit.
        worker: Any = getattr(pending, "_thread", pending)
        worker.daemon = True
        return await pending
    except sqlite3.Error as exc:
        raise StorageError(f"cannot open the database {path}: {exc}") from None


async def _check(conn: aiosqlite.Connection, path: str) -> None:
    """Refuse damaged files, foreign databases and newer schemas, writing nothing."""
    try:
        async with conn.execute("PRAGMA quick_check") as cur:
            rows = [r[0] for r in await cur.fetchall()]
        async with conn.execute("PRAGMA user_version") as cur:
            version = (await cur.fetchone())[0]  # type: ignore[index]
        async with conn.execute("SELECT count(*) FROM sqlite_schema WHERE type = 'table'") as cur:
            tables = (await cur.fetchone())[0]  # type: ignore[index]
    except sqlite3.DatabaseError as exc:
        raise StorageError(
            f"{path} is damaged or not an SQLite database ({exc}); it was left untouched"
        ) from None
    if rows != ["ok"]:
        raise StorageError(
            f"{path} is damaged ({'; '.join(rows[:3])}); it was left untouched — restore a backup"
        )
    if version > LATEST:
        raise StorageError(
            f"{path} was written by a newer DokoBot (schema {version}, this version knows up to "
            f"{LATEST}); it was left untouched — upgrade DokoBot"
        )
    if version == 0 and tables:
        raise StorageError(f"{path} holds another program's tables; it was left untouched")


async def _migrate(conn: aiosqlite.Connection, path: str) -> None:
    async with conn.execute("PRAGMA user_version") as cur:
        version = (await cur.fetchone())[0]  # type: ignore[index]
    for number, name, sql in migrations():
        if number <= version:
            continue
        try:
            await conn.executescript(
                f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;"
            )
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                async with conn.execute("ROLLBACK"):
                    pass
            raise StorageError(f"migration {name} failed on {path}: {exc}") from None
