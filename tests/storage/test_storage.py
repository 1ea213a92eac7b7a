"""Storage: migrations, crash safety, score sheets, leaderboards, admin operations."""

from __future__ import annotations

import json
import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from dokobot.engine import (
    Bid,
    GameSetup,
    GameState,
    Reservation,
    apply,
    deal,
    legal_actions,
    outcome,
    replay,
)
from dokobot.engine.record import action_to_json
from dokobot.storage import LATEST, Period, Storage, StorageError
from dokobot.table.persist import finished_game, record_header

ANNA, BERT, CARLA, DIRK = 101, 102, 103, 104
BOT = -1
GUILD = 9000


class Clock:
    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 11, 15, 20, 0, tzinfo=UTC))


@pytest.fixture
async def store(database: str, clock: Clock) -> Any:
    storage = await Storage.open(database, clock=clock)
    for pid, name in ((ANNA, "Anna"), (BERT, "Bert"), (CARLA, "Carla"), (DIRK, "Dirk")):
        await storage.players.upsert(pid, name)
    await storage.players.upsert(BOT, "Bot (heuristic)", is_ai=True)
    yield storage
    await storage.close()


def random_game(seed: int, dealer: int = 0) -> GameState:
    rng = random.Random(seed)
    state = GameState.new(GameSetup(dealer=dealer, hands=deal(rng)))
    while not state.is_finished:
        actions = legal_actions(state, state.to_act)
        if state.phase.value == "bidding":
            state = apply(state, Bid(state.to_act, Reservation.HEALTHY))  # type: ignore[arg-type]
        else:
            state = apply(state, rng.choice(actions))
    return state


async def store_game(
    storage: Storage,
    session: int,
    seq: int,
    state: GameState,
    seats: tuple[int, ...],
    *,
    finish: bool = True,
) -> int:
    fresh = GameState.new(state.setup)
    ref = await storage.games.start_game(session, seq, record_header(fresh), seats)
    replayed = fresh
    for i, action in enumerate(state.actions):
        await storage.games.append_action(ref.game_id, i, action_to_json(replayed, action))
        replayed = apply(replayed, action)
    if finish:
        await storage.games.finish_game(ref.game_id, finished_game(state))
    return ref.number


async def new_session(storage: Storage, seats: tuple[int | None, ...]) -> tuple[int, int]:
    table = await storage.tables.create(GUILD, 555, seats[0])
    await storage.tables.set_seats(table, seats)
    session = await storage.games.start_session(
        table, GUILD, rules={}, first_dealer=0, deals=None, seed=1
    )
    return table, session


async def test_new_database_is_migrated_with_wal(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    async with await Storage.open(path):
        pass
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    async with await Storage.open(path) as again:  # reopening migrates nothing twice
        assert (await again.settings.get(1)).rules == {}


async def test_newer_schema_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE guilds (guild_id INTEGER)")
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StorageError, match=r"written by a newer DokoBot \(schema 99"):
        await Storage.open(path)
    assert path.read_bytes() == before


async def test_damaged_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "broken.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    before = path.read_bytes()
    with pytest.raises(StorageError, match=r"damaged or not an SQLite database.*left untouched"):
        await Storage.open(path)
    assert path.read_bytes() == before


async def test_other_programs_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (id INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(StorageError, match="another program's tables"):
        await Storage.open(path)


async def test_default_path_from_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOKOBOT_DB", str(tmp_path / "env.sqlite3"))
    async with await Storage.open():
        pass
    assert (tmp_path / "env.sqlite3").exists()


async def test_settings_round_trip(store: Storage) -> None:
    await store.settings.set_rules(GUILD, {"dullen": "second_wins", "poverty": True})
    await store.settings.set_table_defaults(GUILD, {"turn_seconds": 60})
    settings = await store.settings.get(GUILD)
    assert settings.rules == {"dullen": "second_wins", "poverty": True}
    assert settings.table_defaults == {"turn_seconds": 60}


async def test_one_live_table_per_channel(store: Storage) -> None:
    table = await store.tables.create(GUILD, 777, ANNA)
    with pytest.raises(StorageError, match="channel 777 already has a table"):
        await store.tables.create(GUILD, 777, BERT)
    await store.tables.set_seats(table, (ANNA, None, BOT, None))
    row = await store.tables.live_in_channel(777)
    assert row is not None and row.seats == (ANNA, None, BOT, None)
    await store.tables.set_status(table, "closed")
    assert await store.tables.live_in_channel(777) is None
    assert await store.tables.create(GUILD, 777, BERT) > table


async def test_actions_are_logged_in_order_and_games_resume(database: str, clock: Clock) -> None:
    path = database
    state = random_game(3)
    partial = GameState.new(state.setup)
    for action in state.actions[:30]:
        partial = apply(partial, action)
    async with await Storage.open(path, clock=clock) as storage:
        for pid in (ANNA, BERT, CARLA, DIRK):
            await storage.players.upsert(pid, f"P{pid}")
        _, session = await new_session(storage, (ANNA, BERT, CARLA, DIRK))
        ref = await storage.games.start_game(
            session, 0, record_header(state), (ANNA, BERT, CARLA, DIRK)
        )
        walk = GameState.new(state.setup)
        for i, action in enumerate(state.actions[:30]):
            await storage.games.append_action(ref.game_id, i, action_to_json(walk, action))
            walk = apply(walk, action)
        with pytest.raises(StorageError, match=r"action 29 of game \d+ is out of order"):
            await storage.games.append_action(ref.game_id, 29, {"seat": 0, "play": "CQ"})
        with pytest.raises(StorageError, match="out of order"):
            await storage.games.append_action(ref.game_id, 31, {"seat": 0, "play": "CQ"})
    async with await Storage.open(path, clock=clock) as storage:
        running = await storage.games.running()
        assert len(running) == 1
        assert running[0].seats == (ANNA, BERT, CARLA, DIRK)
        assert replay(running[0].record()) == partial


async def test_score_sheet_keeps_running_totals(store: Storage) -> None:
    _, session = await new_session(store, (ANNA, BERT, CARLA, BOT))
    games = [random_game(seed, dealer=seed % 4) for seed in range(5)]
    for seq, game in enumerate(games):
        await store_game(store, session, seq, game, (ANNA, BERT, CARLA, BOT))
    unfinished = random_game(99, dealer=1)
    await store_game(store, session, 5, unfinished, (ANNA, BERT, CARLA, BOT), finish=False)
    sheet = await store.stats.score_sheet(session)
    assert sheet.players == ("Anna", "Bert", "Carla", "Bot (heuristic)")
    assert [r.seq for r in sheet.rows] == [0, 1, 2, 3, 4, 5]
    expected = [0, 0, 0, 0]
    for row, game in zip(sheet.rows, games, strict=False):
        scores = tuple(outcome(game)["scores"])
        expected = [t + s for t, s in zip(expected, scores, strict=True)]
        assert row.scores == scores
        assert row.totals == tuple(expected)
        assert row.contract == outcome(game)["contract"]
    assert sheet.rows[-1].status == "running" and sheet.rows[-1].scores is None
    assert sheet.totals == tuple(expected)
    assert sum(sheet.totals) == 0


async def test_leaderboard_excludes_ai_and_windows_by_date(store: Storage, clock: Clock) -> None:
    _, session = await new_session(store, (ANNA, BERT, CARLA, BOT))
    clock.now = datetime(2026, 10, 1, 20, 0, tzinfo=UTC)  # last month, > 30 days ago
    old = random_game(1)
    await store_game(store, session, 0, old, (ANNA, BERT, CARLA, BOT))
    clock.now = datetime(2026, 11, 14, 20, 0, tzinfo=UTC)
    recent = random_game(2, dealer=1)
    await store_game(store, session, 1, recent, (ANNA, BERT, CARLA, BOT))
    clock.now = datetime(2026, 11, 15, 21, 0, tzinfo=UTC)
    old_scores, new_scores = outcome(old)["scores"], outcome(recent)["scores"]

    board = await store.stats.leaderboard(GUILD)
    assert {r.name for r in board} == {"Anna", "Bert", "Carla"}
    by_name = {r.name: r for r in board}
    assert by_name["Anna"].points == old_scores[0] + new_scores[0]
    assert by_name["Anna"].games == 2
    assert [r.rank for r in board] == [1, 2, 3]
    assert board[0].points >= board[1].points >= board[2].points
    month = {r.name: r.points for r in await store.stats.leaderboard(GUILD, Period.MONTH)}
    assert month == {"Anna": new_scores[0], "Bert": new_scores[1], "Carla": new_scores[2]}
    clock.now += timedelta(days=40)
    assert await store.stats.leaderboard(GUILD, Period.DAYS_30) == []


async def test_player_stats_and_solos(store: Storage) -> None:
    _, session = await new_session(store, (ANNA, BERT, CARLA, DIRK))
    rng = random.Random(5)
    state = GameState.new(GameSetup(dealer=3, hands=deal(rng)))
    state = apply(state, Bid(0, Reservation.QUEEN_SOLO))
    for seat in (1, 2, 3):
        state = apply(state, Bid(seat, Reservation.HEALTHY))
    while not state.is_finished:
        state = apply(state, rng.choice(legal_actions(state, state.to_act)))
    await store_game(store, session, 0, state, (ANNA, BERT, CARLA, DIRK))
    result = outcome(state)
    stats = await store.stats.player_stats(GUILD, ANNA)
    assert stats is not None
    assert (stats.games, stats.solos, stats.points) == (1, 1, result["scores"][0])
    assert stats.solos_won == (1 if result["winner"] == "re" else 0)
    assert (stats.re_games, stats.kontra_games) == (1, 0)
    board = {r.name: r for r in await store.stats.leaderboard(GUILD)}
    assert board["Anna"].solos == 1
    assert board["Bert"].solos == 0


async def test_game_record_by_number_replays(store: Storage) -> None:
    _, session = await new_session(store, (ANNA, BERT, CARLA, DIRK))
    state = random_game(8)
    number = await store_game(store, session, 0, state, (ANNA, BERT, CARLA, DIRK))
    game = await store.stats.game(GUILD, number)
    assert game is not None and game.status == "finished"
    assert game.record["players"] == ["Anna", "Bert", "Carla", "Dirk"]
    assert outcome(replay(game.record)) == outcome(state) == game.result
    assert await store.stats.game(GUILD, number + 1) is None


async def test_reset_leaderboard_archives(store: Storage) -> None:
    _, session = await new_session(store, (ANNA, BERT, CARLA, DIRK))
    number = await store_game(store, session, 0, random_game(4), (ANNA, BERT, CARLA, DIRK))
    assert len(await store.stats.leaderboard(GUILD)) == 4
    assert await store.admin.reset_leaderboard(GUILD) == 1
    assert await store.stats.leaderboard(GUILD) == []
    assert (await store.stats.game(GUILD, number)) is not None  # archived, not deleted
    await store_game(store, session, 1, random_game(5, dealer=1), (ANNA, BERT, CARLA, DIRK))
    assert all(r.games == 1 for r in await store.stats.leaderboard(GUILD))


async def test_delete_player_forgets_the_user(store: Storage) -> None:
    _, session = await new_session(store, (ANNA, BERT, CARLA, DIRK))
    state = random_game(6)
    number = await store_game(store, session, 0, state, (ANNA, BERT, CARLA, DIRK))
    await store.admin.delete_player(BERT)
    assert await store.players.get(BERT) is None
    names = {r.name for r in await store.stats.leaderboard(GUILD)}
    assert names == {"Anna", "Carla", "Dirk"}
    game = await store.stats.game(GUILD, number)
    assert game is not None and game.players == ("Anna", "Deleted player", "Carla", "Dirk")
    assert await store.stats.player_stats(GUILD, BERT) is None
    anna = await store.stats.player_stats(GUILD, ANNA)
    assert anna is not None and anna.points == outcome(state)["scores"][0]


async def test_export_games_as_json_lines(store: Storage) -> None:
    _, session = await new_session(store, (ANNA, BERT, CARLA, DIRK))
    states = [random_game(seed, dealer=seed % 4) for seed in range(3)]
    for seq, state in enumerate(states):
        await store_game(store, session, seq, state, (ANNA, BERT, CARLA, DIRK))
    lines = [line async for line in store.admin.export_games(GUILD)]
    assert len(lines) == 3
    for line, state in zip(lines, states, strict=True):
        record = json.loads(line)
        assert record["format"] == "doko-record/1"
        assert outcome(replay(record)) == outcome(state) == record["result"]


async def test_second_migration_upgrades_an_old_database(tmp_path: Path) -> None:
    """A schema-1 database (as an older DokoBot wrote it) is upgraded in place, data kept."""
    from dokobot.storage.db import migrations

    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    number, _, sql = migrations()[0]
    conn.executescript(sql + f"\nPRAGMA user_version = {number};")
    conn.execute("INSERT INTO players (player_id, display_name) VALUES (7, 'Old Anna')")
    conn.commit()
    conn.close()
    async with await Storage.open(path) as storage:
        assert (await storage.players.get(7)).display_name == "Old Anna"  # type: ignore[union-attr]
        await storage.meta.set("commands", "abc")
        assert await storage.meta.get("commands") == "abc"
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST == 2
    conn.close()


async def test_postgres_schema_is_migrated_once_and_matches_sqlite(
    postgres_server: str, tmp_path: Path
) -> None:
    """The same numbered migrations give PostgreSQL the tables and columns SQLite has."""
    import asyncpg

    from tests.conftest import new_postgres_database

    url = await new_postgres_database(postgres_server)
    async with await Storage.open(url) as storage:
        assert await storage.db.schema_version() == LATEST
    async with await Storage.open(url) as again:  # reopening migrates nothing twice
        assert (await again.settings.get(1)).rules == {}
    conn = await asyncpg.connect(url)
    pg_rows = await conn.fetch(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name != 'dokobot_schema'"
    )
    types = await conn.fetch(
        "SELECT DISTINCT data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema()"
    )
    await conn.close()
    path = tmp_path / "same.sqlite3"
    async with await Storage.open(path):
        pass
    lite = sqlite3.connect(path)
    names = [r[0] for r in lite.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")]
    lite_cols = {(t, c[1]) for t in names for c in lite.execute(f"PRAGMA table_info({t})")}
    lite.close()
    assert {(r[0], r[1]) for r in pg_rows} == lite_cols
    assert {r[0] for r in types} == {"bigint", "text"}  # Discord ids fit: no 32-bit integers


async def test_postgres_newer_or_foreign_schema_is_refused_untouched(postgres_server: str) -> None:
    import asyncpg

    from tests.conftest import new_postgres_database

    future = await new_postgres_database(postgres_server)
    conn = await asyncpg.connect(future)
    await conn.execute("CREATE TABLE dokobot_schema (version BIGINT NOT NULL)")
    await conn.execute("INSERT INTO dokobot_schema VALUES (99)")
    await conn.close()
    with pytest.raises(StorageError, match=r"written by a newer DokoBot \(schema 99"):
        await Storage.open(future)
    other = await new_postgres_database(postgres_server)
    conn = await asyncpg.connect(other)
    await conn.execute("CREATE TABLE invoices (id BIGINT)")
    await conn.close()
    with pytest.raises(StorageError, match="holds another program's tables; it was left untouched"):
        await Storage.open(other)
    conn = await asyncpg.connect(other)
    tables = await conn.fetch(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
    )
    await conn.close()
    assert [t[0] for t in tables] == ["invoices"]


async def test_postgres_password_stays_out_of_messages() -> None:
    with pytest.raises(StorageError) as caught:
        await Storage.open("postgresql://doko:s3cret@127.0.0.1:1/doko")
    assert "cannot reach the database postgresql://doko@127.0.0.1:1/doko" in str(caught.value)
    assert "s3cret" not in str(caught.value)
