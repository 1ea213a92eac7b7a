"""`dokobot export-db` / `import-db`: a database moves from SQLite to PostgreSQL without loss."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dokobot.engine import replay
from dokobot.storage import Period, Storage

from .test_storage import ANNA, BERT, BOT, CARLA, DIRK, GUILD, Clock, random_game, store_game

ROOT = Path(__file__).resolve().parents[2]


def dokobot(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dokobot", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )


async def fill(path: str) -> list[int]:
    """Two sessions with finished games, one game still running, settings, a reset."""
    clock = Clock(datetime(2026, 11, 15, 20, 0, tzinfo=UTC))
    async with await Storage.open(path, clock=clock) as storage:
        for pid, name in ((ANNA, "Anna"), (BERT, "Bert"), (CARLA, "Carla"), (DIRK, "Dirk")):
            await storage.players.upsert(pid, name)
        await storage.players.upsert(BOT, "Bot (heuristic)", is_ai=True)
        await storage.settings.set_rules(GUILD, {"preset": "pub", "nines": False})
        await storage.meta.set("commands", "f00d")
        numbers = []
        for channel, seats in ((555, (ANNA, BERT, CARLA, DIRK)), (556, (ANNA, BERT, CARLA, BOT))):
            table = await storage.tables.create(GUILD, channel, seats[0], {"mode": "free"})
            await storage.tables.set_seats(table, seats)
            session = await storage.games.start_session(
                table, GUILD, rules={}, first_dealer=0, deals=None, seed=channel
            )
            for seq in range(3):
                state = random_game(channel * 10 + seq, dealer=seq % 4)
                numbers.append(await store_game(storage, session, seq, state, seats))
                clock.now = clock.now.replace(day=clock.now.day + 1)
        await store_game(storage, session, 3, random_game(99), seats, finish=False)
    return numbers


async def views(path: str) -> dict[str, object]:
    """What players see: sheets, boards, stats, records, the running game."""
    async with await Storage.open(path) as storage:
        board = await storage.stats.leaderboard(GUILD, Period.ALL)
        stats = await storage.stats.player_stats(GUILD, ANNA)
        sheets = [await storage.stats.score_sheet(s) for s in (1, 2)]
        games = [await storage.stats.game(GUILD, n) for n in range(1, 7)]
        running = await storage.games.running()
        return {
            "board": board,
            "stats": stats,
            "sheets": sheets,
            "records": [g.record if g else None for g in games],
            "running": [r.record() for r in running],
            "rules": (await storage.settings.get(GUILD)).rules,
            "tables": await storage.tables.live(),
            "meta": await storage.meta.get("commands"),
        }


async def test_sqlite_to_postgres_and_back_loses_nothing(
    tmp_path: Path, postgres_server: str
) -> None:
    from tests.conftest import new_postgres_database

    source = str(tmp_path / "old.sqlite3")
    numbers = await fill(source)
    assert numbers == [1, 2, 3, 4, 5, 6]
    dump = tmp_path / "dump.jsonl"
    exported = dokobot("export-db", "--db", source, "--out", str(dump))
    assert exported.returncode == 0, exported.stderr
    header = json.loads(dump.read_text().splitlines()[0])
    assert header["rows"]["games"] == 7 and header["rows"]["game_actions"] > 300

    target = await new_postgres_database(postgres_server)
    imported = dokobot("import-db", str(dump), "--db", target)
    assert imported.returncode == 0, imported.stderr
    assert "imported" in imported.stdout and "7 games" in imported.stdout
    before, after = await views(source), await views(target)
    assert after == before
    assert len(before["board"]) == 4  # type: ignore[arg-type]  # four humans, the AI left out
    for record in before["records"]:  # type: ignore[attr-defined]
        assert replay(record).is_finished  # every stored game replays to its end

    # The server carries on: new ids come after the imported ones.
    async with await Storage.open(target) as storage:
        table = await storage.tables.create(GUILD, 999, ANNA)
        assert table == 3
        session = await storage.games.start_session(
            table, GUILD, rules={}, first_dealer=0, deals=None, seed=1
        )
        assert session == 3
        seats = (ANNA, BERT, CARLA, DIRK)
        assert await store_game(storage, session, 0, random_game(5), seats) == 8

    # And back again: the PostgreSQL dump loads into a fresh SQLite file, the same rows.
    again = tmp_path / "again.jsonl"
    assert dokobot("export-db", "--db", target, "--out", str(again)).returncode == 0
    back = str(tmp_path / "back.sqlite3")
    assert dokobot("import-db", str(again), "--db", back).returncode == 0
    assert (await views(back))["sheets"] == before["sheets"]
    async with await Storage.open(back) as storage:  # with the game played after the move
        assert (await storage.stats.game(GUILD, 8)).status == "finished"  # type: ignore[union-attr]
    lines_pg = again.read_text().splitlines()
    lines_back = dokobot("export-db", "--db", back).stdout.splitlines()
    assert lines_back == lines_pg


async def test_import_refuses_a_database_that_is_not_empty(tmp_path: Path) -> None:
    source = str(tmp_path / "a.sqlite3")
    await fill(source)
    dump = tmp_path / "dump.jsonl"
    assert dokobot("export-db", "--db", source, "--out", str(dump)).returncode == 0
    refused = dokobot("import-db", str(dump), "--db", source)
    assert refused.returncode == 2
    assert "the target database is not empty (guilds has rows); nothing was imported" in (
        refused.stderr
    )
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(dump.read_text().splitlines()[:-5]) + "\n")
    empty = str(tmp_path / "empty.sqlite3")
    partial = dokobot("import-db", str(cut), "--db", empty)
    assert partial.returncode == 2 and "the dump is incomplete" in partial.stderr
    async with await Storage.open(empty) as storage:  # all or nothing
        assert (await storage.db.row("SELECT count(*) FROM games"))[0] == 0


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
async def test_migrate_reports_what_it_applied(
    tmp_path: Path, dialect: str, request: pytest.FixtureRequest
) -> None:
    if dialect == "sqlite":
        target = str(tmp_path / "m.sqlite3")
    else:
        from tests.conftest import new_postgres_database

        target = await new_postgres_database(request.getfixturevalue("postgres_server"))
    first = dokobot("migrate", "--db", target)
    assert first.returncode == 0, first.stderr
    assert "applied 0001_initial.sql, 0002_bot_meta.sql; schema 2" in first.stdout
    assert "schema 2, up to date" in dokobot("migrate", "--db", target).stdout
