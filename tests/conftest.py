"""Databases for the tests: a fresh SQLite file, and a fresh PostgreSQL database.

The PostgreSQL server is the one in ``DOKOBOT_TEST_POSTGRES`` (``.ci/run`` starts
one), else one started here from Debian's packages for the test run. Only when
no server can be started are the PostgreSQL cases skipped, with the reason.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
_names = itertools.count()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server the tests may create databases on."""
    url = os.environ.get("DOKOBOT_TEST_POSTGRES")
    if url:
        yield url
        return
    folder = Path(tempfile.mkdtemp(prefix="dokobot-pg-"))
    script = str(ROOT / "scripts" / "postgres_server.py")
    started = subprocess.run(
        [sys.executable, script, "start", str(folder)], capture_output=True, text=True
    )
    if started.returncode != 0:
        pytest.skip(f"PostgreSQL half skipped: {started.stderr.strip()}")
    try:
        yield started.stdout.strip()
    finally:
        subprocess.run([sys.executable, script, "stop", str(folder)], capture_output=True)


async def new_postgres_database(server: str) -> str:
    """Create an empty database on ``server``; its URL."""
    import asyncpg

    name = f"dokotest_{os.getpid()}_{next(_names)}"
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    parts = urlsplit(server)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, ""))


async def drop_postgres_database(server: str, url: str) -> None:
    """Remove a test database again (a server the tests were given stays tidy)."""
    import asyncpg

    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{urlsplit(url).path[1:]}" WITH (FORCE)')
    finally:
        await conn.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: an SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "doko.sqlite3")
        return
    server = request.getfixturevalue("postgres_server")
    url = asyncio.run(new_postgres_database(server))
    yield url
    asyncio.run(drop_postgres_database(server, url))
