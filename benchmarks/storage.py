"""Storage speed: appending an action, the leaderboard of a big server, a score sheet.

Builds a server with 100,000 finished games among 200 players (cached under
benchmarks/.cache between runs), then measures medians. ``--json`` ends with one
JSON line: append_ms, leaderboard_ms, sheet_ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from dokobot.storage import FinishedGame, Period, Storage

GUILD = 1
CACHE = Path(__file__).resolve().parent / ".cache"


def fake_result(rng: random.Random) -> FinishedGame:
    solo = rng.random() < 0.1
    value = rng.choice([1, 1, 2, 2, 3, 4, 5])
    winner = rng.choice(["re", "kontra"])
    if solo:
        parties = ("re", "kontra", "kontra", "kontra")
        sign = 1 if winner == "re" else -1
        scores = (3 * sign * value, -sign * value, -sign * value, -sign * value)
    else:
        parties = ("re", "kontra", "re", "kontra")
        sign = 1 if winner == "re" else -1
        scores = (sign * value, -sign * value, sign * value, -sign * value)
    contract = "solo:queen" if solo else "normal"
    return FinishedGame(
        contract,
        0 if solo else None,
        winner,
        value,
        scores,
        parties,
        {"complete": True, "scores": list(scores)},
    )


async def build(path: Path, games: int, players: int) -> None:
    rng = random.Random(1)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    clock_now = [start]
    storage = await Storage.open(path, clock=lambda: clock_now[0])
    async with storage.db.batch():
        for pid in range(1, players + 1):
            await storage.players.upsert(pid, f"Player {pid}")
        await storage.players.upsert(-1, "Bot", is_ai=True)
        table = await storage.tables.create(GUILD, 1, 1)
    session = 0
    header = {"format": "doko-record/1", "dealer": 0, "hands": []}
    for chunk in range(0, games, 2000):
        async with storage.db.batch():
            for i in range(chunk, min(games, chunk + 2000)):
                if i % 24 == 0:
                    session = await storage.games.start_session(
                        table, GUILD, rules={}, first_dealer=0, deals=None, seed=i
                    )
                clock_now[0] = start + timedelta(minutes=7 * i)
                seats = rng.sample(range(1, players + 1), 3) + [-1]
                ref = await storage.games.start_game(session, i % 24, header, seats)
                await storage.games.finish_game(ref.game_id, fake_result(rng))
    await storage.close()


async def measure(path: Path, rounds: int, games: int) -> dict[str, float]:
    # "Now" is just after the last game, so the 30-day window holds about 6,000 games.
    now = datetime(2025, 1, 1, tzinfo=UTC) + timedelta(minutes=7 * games)
    storage = await Storage.open(path, clock=lambda: now)
    board_ms = []
    for _ in range(rounds):
        t = time.perf_counter()
        rows = await storage.stats.leaderboard(GUILD, Period.ALL)
        board_ms.append((time.perf_counter() - t) * 1000)
    month_ms = []
    for _ in range(rounds):
        t = time.perf_counter()
        await storage.stats.leaderboard(GUILD, Period.DAYS_30)
        month_ms.append((time.perf_counter() - t) * 1000)
    sheet_ms = []
    for session in range(1, rounds + 1):
        t = time.perf_counter()
        sheet = await storage.stats.score_sheet(session * 7)
        sheet_ms.append((time.perf_counter() - t) * 1000)
    assert len(sheet.rows) == 24 and len(rows) == 50
    await storage.close()
    return {
        "leaderboard_ms": statistics.median(board_ms),
        "leaderboard_30d_ms": statistics.median(month_ms),
        "sheet_ms": statistics.median(sheet_ms),
    }


async def measure_append(rounds: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage.open(Path(tmp) / "append.sqlite3")
        await storage.players.upsert(1, "P")
        table = await storage.tables.create(GUILD, 1, 1)
        session = await storage.games.start_session(
            table, GUILD, rules={}, first_dealer=0, deals=None, seed=0
        )
        ref = await storage.games.start_game(session, 0, {"dealer": 0}, (1, 1, 1, 1))
        times = []
        for i in range(rounds):
            t = time.perf_counter()
            await storage.games.append_action(ref.game_id, i, {"seat": i % 4, "play": "CQ"})
            times.append((time.perf_counter() - t) * 1000)
        await storage.close()
        return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"storage-{args.games}-{args.players}.sqlite3"
    if not path.exists():
        t = time.perf_counter()
        asyncio.run(build(path, args.games, args.players))
        print(f"built {args.games:,} games in {time.perf_counter() - t:.1f} s")
    append_ms = asyncio.run(measure_append(200))
    figures = asyncio.run(measure(path, args.rounds, args.games))
    print(f"append an action (median):        {append_ms:.3f} ms   target ≤ 2 ms")
    print(f"leaderboard, all time (median):   {figures['leaderboard_ms']:.3f} ms   target ≤ 50 ms")
    print(f"leaderboard, 30 days (median):    {figures['leaderboard_30d_ms']:.3f} ms")
    print(f"score sheet of 24 games (median): {figures['sheet_ms']:.3f} ms   target ≤ 10 ms")
    if args.json:
        print(
            json.dumps(
                {"append_ms": round(append_ms, 3), **{k: round(v, 3) for k, v in figures.items()}}
            )
        )


if __name__ == "__main__":
    main()
