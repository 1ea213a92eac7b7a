"""Opening the database: checks, numbered migrations, connection settings."""

from __future__ import annotations

import abc
import asyncio
import contextlib
import contextvars
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiosqlite

from dokobot import metrics

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

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self.rows = rows
        self.rowcount = rowcount

    async def fetchone(self) -> Any:
        return self.rows[0] if self.rows else None

    async def fetchall(self) -> list[Any]:
        return self.rows


class ConflictError(StorageError):
    """A write broke a uniqueness or reference rule (a second live table in a channel, …)."""


#: The connection whose write transaction the current task holds (reentrant batches),
#: with the database it belongs to.
_writing: contextvars.ContextVar[tuple[Database, Any] | None] = contextvars.ContextVar(
    "dokobot_writing", default=None
)


def is_postgres(target: str | Path) -> bool:
    """``DOKOBOT_DB`` names a PostgreSQL server (a URL) rather than an SQLite file."""
    return str(target).startswith(("postgresql://", "postgres://"))


def shown(target: str) -> str:
    """The database for messages and logs: a URL loses its password."""
    if not is_postgres(target):
        return target
    parts = urlsplit(target)
    if parts.password is None:
        return target
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    user = f"{parts.username}@" if parts.username else ""
    return urlunsplit((parts.scheme, user + host, parts.path, parts.query, parts.fragment))


class Database(abc.ABC):
    """One database behind the repositories: SQLite (a file) or PostgreSQL (a server).

    The repositories write portable SQL with ``?`` placeholders. Every write runs
    in a transaction committed before the call returns; reads outside a
    transaction never see another task's uncommitted writes.
    """

    #: ``"sqlite"`` or ``"postgresql"``.
    dialect: str

    def __init__(self, path: str, clock: Clock) -> None:
        self.path = path
        self.clock = clock
        #: The migrations this opening applied (``dokobot migrate`` reports them).
        self.applied: list[str] = []

    @classmethod
    async def open(cls, path: str | Path = DEFAULT_PATH, *, clock: Clock = utc_now) -> Database:
        """Open the database (a file path or a ``postgresql://`` URL), its schema up to date.

        A damaged file, another program's database or one written by a newer
        DokoBot raises ``StorageError`` before anything is written to it.
        """
        if is_postgres(path):
            from .postgres import PostgresDatabase

            return await PostgresDatabase.connect(str(path), clock=clock)
        return await SqliteDatabase.connect(str(path), clock=clock)

    @property
    def where(self) -> str:
        """The database for messages: the file, or the server without its password."""
        return shown(self.path)

    @abc.abstractmethod
    async def close(self) -> None: ...

    @abc.abstractmethod
    async def cursor(self, sql: str, args: Sequence[Any] = ()) -> Result:
        """Run one statement to completion (inside this task's transaction, if any)."""

    @abc.abstractmethod
    async def cursor_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    @abc.abstractmethod
    def transaction(self) -> contextlib.AbstractAsyncContextManager[None]:
        """A write transaction, committed on success; nested ones join it."""

    @abc.abstractmethod
    async def commit(self) -> None:
        """Commit the open write transaction (a seam for tests that make disks slow)."""

    @abc.abstractmethod
    async def schema_version(self) -> int: ...

    def _held(self) -> Any:
        """The connection of the write transaction this task holds here, else ``None``."""
        writing = _writing.get()
        return writing[1] if writing is not None and writing[0] is self else None

    async def _commit_timed(self) -> None:
        started = time.perf_counter()
        await self.commit()
        metrics.DB_COMMIT_SECONDS.labels(self.dialect).observe(time.perf_counter() - started)

    async def rows(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        """The rows of a query; each row indexes by position and by column (``keys()``)."""
        return (await self.cursor(sql, args)).rows

    async def row(self, sql: str, args: Sequence[Any] = ()) -> Any:
        """The first row of a query, or ``None``."""
        rows = await self.rows(sql, args)
        return rows[0] if rows else None

    def now(self) -> str:
        return self.clock().astimezone(UTC).isoformat(timespec="milliseconds")

    @contextlib.asynccontextmanager
    async def batch(self) -> AsyncIterator[None]:
        """Group many writes into one transaction (imports, benchmarks)."""
        async with self.transaction():
            yield

    async def after_import(self) -> None:  # noqa: B027 - SQLite numbers rows by itself
        """Bring id generators past the imported rows (PostgreSQL's identity columns)."""


class SqliteDatabase(Database):
    """A writer and a reader connection (WAL, foreign keys), the schema migrated.

    Any number of tables write at once: every write transaction waits for the
    one writer lock, so transactions never interleave on the shared writer
    connection. Reads outside a transaction go to the reader connection, so a
    slow commit never holds up a leaderboard, and no read sees another task's
    uncommitted writes.
    """

    dialect = "sqlite"

    def __init__(
        self,
        writer: aiosqlite.Connection,
        path: str,
        clock: Clock,
        reader: aiosqlite.Connection | None = None,
    ) -> None:
        super().__init__(path, clock)
        self._writer = writer
        self._reader = reader or writer
        self._write_lock = asyncio.Lock()

    @property
    def conn(self) -> aiosqlite.Connection:
        """The connection for this task: the writer inside its transaction, else the reader."""
        return self._reader if self._held() is None else self._writer

    @classmethod
    async def connect(cls, path: str, *, clock: Clock = utc_now) -> SqliteDatabase:
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
            applied = await _migrate(conn, path)
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
        db = cls(conn, path, clock, reader)
        db.applied = applied
        return db

    async def close(self) -> None:
        if self._reader is not self._writer:
            await self._reader.close()
        await self._writer.close()

    async def cursor(self, sql: str, args: Sequence[Any] = ()) -> Result:
        try:
            async with self.conn.execute(sql, args) as cur:
                rows = list(await cur.fetchall())
                return Result(rows, cur.rowcount if cur.rowcount >= 0 else len(rows))
        except sqlite3.IntegrityError as exc:
            raise ConflictError(str(exc)) from None

    async def cursor_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            async with self.conn.executemany(sql, rows):
                pass
        except sqlite3.IntegrityError as exc:
            raise ConflictError(str(exc)) from None

    async def schema_version(self) -> int:
        row = await self.row("PRAGMA user_version")
        return int(row[0])

    async def _write(self, sql: str) -> None:
        async with self._writer.execute(sql) as cur:
            await cur.fetchall()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        if self._held() is not None:
            yield
            return
        async with self._write_lock:
            token = _writing.set((self, self._writer))
            try:
                await self._write("BEGIN IMMEDIATE")
                try:
                    yield
                except BaseException:
                    await self._write("ROLLBACK")
                    raise
                await self._commit_timed()
            finally:
                _writing.reset(token)

    async def commit(self) -> None:
        await self._write("COMMIT")


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


async def _migrate(conn: aiosqlite.Connection, path: str) -> list[str]:
    async with conn.execute("PRAGMA user_version") as cur:
        version = (await cur.fetchone())[0]  # type: ignore[index]
    applied = []
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
        applied.append(name)
    return applied
