"""Many tables at once: one process on SQLite, then two processes on one PostgreSQL.

A headless driver of the table service (no Discord): each table has one human,
driven here, and three `heuristic` AI players that think in the service's worker
processes, at the bot's pace (1.2 s a move). The human answers each turn after
``--think`` seconds, through the same service calls the cogs make. Both setups
run the same number of tables for the same wall-clock time, in one run, so
their figures compare on this machine.

Prints, per setup:
- interaction p50/p95: ms the service takes for the human's card or bid (the
  table's lock, the rules, the commit) — what a click costs beyond Discord;
- event-loop lag p99: ms a 20 ms ticker overslept (the worst process);
- commit p50/p95: ms per committed write transaction;
- moves/s: cards and bids committed per second, all processes together.

    python benchmarks/scale.py --tables 1000 --seconds 60 [--postgres URL] [--json]

Without ``--postgres`` (or ``DOKOBOT_TEST_POSTGRES``) a throw-away server is
started from Debian's packages (scripts/postgres_server.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


# ---------------------------------------------------------------------- one process


async def serve(
    db: str, tables: int, first: int, seconds: float, think: float, ai: str = "heuristic"
) -> dict[str, Any]:
    """Run ``tables`` tables for ``seconds`` in this process; the raw samples."""
    from dokobot.storage import Storage
    from dokobot.table import events as ev
    from dokobot.table.service import Member, TableError, TableService

    storage = await Storage.open(db)
    commits: list[float] = []
    commit = storage.db.commit

    async def timed_commit() -> None:
        started = time.perf_counter()
        await commit()
        commits.append((time.perf_counter() - started) * 1000)

    storage.db.commit = timed_commit  # type: ignore[method-assign]
    service = TableService(
        storage,
        ai_pause=1.2,
        turn_seconds=3600.0,
        between_games=2.0,
        ai_workers=os.cpu_count() or 2,
        seed_source=lambda: 11,
    )
    interactions: list[float] = []
    lags: list[float] = []
    moves = 0
    stop = asyncio.Event()
    rng = random.Random(first)

    async def ticker() -> None:
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            start = loop.time()
            await asyncio.sleep(0.02)
            lags.append(max(0.0, (loop.time() - start - 0.02) * 1000))

    async def human(channel: int, user: int) -> None:
        """The human's move, ``think`` seconds (± half) after their turn started."""
        await asyncio.sleep(think * (0.5 + rng.random()))
        if stop.is_set():
            return
        try:
            panel = service.panel(channel, user)
            started = time.perf_counter()
            if panel.bids:
                await service.bid(
                    channel, user, "healthy", game=panel.game_number, expected=panel.turn_no
                )
            elif panel.playable:
                card = rng.choice(sorted(panel.playable))
                await service.play(
                    channel, user, card, game=panel.game_number, expected=panel.turn_no
                )
            else:
                return
            interactions.append((time.perf_counter() - started) * 1000)
        except TableError:
            pass  # the turn moved on meanwhile (as a late click would)

    pending: set[asyncio.Task[None]] = set()

    async def listener(event: Any) -> None:
        nonlocal moves
        if isinstance(event, ev.CardPlayed | ev.BidMade):
            moves += 1
        elif isinstance(event, ev.TurnStarted) and not event.is_ai:
            task = asyncio.create_task(human(event.channel_id, event.player_id))
            pending.add(task)
            task.add_done_callback(pending.discard)

    service.listener = listener
    t0 = time.perf_counter()
    for i in range(first, first + tables):  # every table in its lobby first …
        guild, channel, user = 10_000 + i, 1_000_000 + i, 5_000_000 + i
        await service.open_table(guild, channel, Member(user, f"player {i}"))
    gate = asyncio.Semaphore(50)

    async def start(i: int) -> None:
        async with gate:
            await service.start(1_000_000 + i, 5_000_000 + i, ai_level=ai)

    # … then all of them deal at once, as after a restart.
    await asyncio.gather(*(start(i) for i in range(first, first + tables)))
    print(f"{tables} tables playing after {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    tick = asyncio.create_task(ticker())
    started = time.perf_counter()
    moves = 0
    commits.clear()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - started
    stop.set()
    for task in [*pending, tick]:
        task.cancel()
    await asyncio.gather(*pending, tick, return_exceptions=True)
    await service.close()
    await storage.close()
    return {
        "interaction_ms": interactions,
        "lag_ms": lags,
        "commit_ms": commits,
        "moves": moves,
        "seconds": elapsed,
    }


def worker_main(args: argparse.Namespace) -> int:
    result = asyncio.run(serve(args.db, args.tables, args.first, args.seconds, args.think, args.ai))
    json.dump(result, sys.stdout)
    return 0


# ---------------------------------------------------------------------- the setups


def run_processes(db: str, tables: int, processes: int, args: argparse.Namespace) -> dict[str, Any]:
    """Split ``tables`` over ``processes`` bot processes on ``db``; the merged figures."""
    share = tables // processes
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--worker",
                "--db",
                db,
                "--tables",
                str(share),
                "--first",
                str(p * share),
                "--seconds",
                str(args.seconds),
                "--think",
                str(args.think),
                "--ai",
                args.ai,
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for p in range(processes)
    ]
    results = []
    for proc in procs:
        out, _ = proc.communicate(timeout=args.seconds + 600)
        if proc.returncode != 0:
            raise SystemExit(f"a bot process failed (exit {proc.returncode})")
        results.append(json.loads(out))
    interactions = [v for r in results for v in r["interaction_ms"]]
    commits = [v for r in results for v in r["commit_ms"]]
    return {
        "tables": share * processes,
        "processes": processes,
        "interaction_p50_ms": percentile(interactions, 0.5),
        "interaction_p95_ms": percentile(interactions, 0.95),
        "loop_lag_p99_ms": max(percentile(r["lag_ms"], 0.99) for r in results),
        "commit_p50_ms": percentile(commits, 0.5),
        "commit_p95_ms": percentile(commits, 0.95),
        "moves_per_s": round(sum(r["moves"] / r["seconds"] for r in results), 1),
        "interactions": len(interactions),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=2.0, help="the human's seconds a move")
    parser.add_argument("--postgres", help="a PostgreSQL server URL (default: start one)")
    parser.add_argument("--ai", default="heuristic", help="the AI level of the three AI seats")
    parser.add_argument(
        "--sqlite-only", action="store_true", help="only the one-process SQLite setup"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker_main(args)

    from tests.conftest import new_postgres_database  # a fresh database, as the tests make

    server = args.postgres or os.environ.get("DOKOBOT_TEST_POSTGRES")
    folder = None
    if not server and not args.sqlite_only:
        folder = tempfile.mkdtemp(prefix="dokobot-bench-pg-")
        script = str(ROOT / "scripts" / "postgres_server.py")
        started = subprocess.run(
            [sys.executable, script, "start", folder], capture_output=True, text=True
        )
        if started.returncode != 0:
            raise SystemExit(started.stderr.strip())
        server = started.stdout.strip()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            sqlite = run_processes(str(Path(tmp) / "bench.sqlite3"), args.tables, 1, args)
        postgres = (
            None
            if args.sqlite_only
            else run_processes(asyncio.run(new_postgres_database(server)), args.tables, 2, args)
        )
    finally:
        if folder is not None:
            script = str(ROOT / "scripts" / "postgres_server.py")
            subprocess.run([sys.executable, script, "stop", folder], capture_output=True)
    rows = [("1 process, SQLite", sqlite)]
    if postgres is not None:
        rows.append(("2 processes, PostgreSQL", postgres))
    print(
        f"{args.tables} tables, {args.seconds:.0f} s, humans think {args.think:.1f} s, "
        f"AI ({args.ai}) 1.2 s a move, {os.cpu_count()} cores"
    )
    print(
        f"{'setup':<26}{'interaction p50/p95':>22}{'loop lag p99':>14}"
        f"{'commit p50/p95':>18}{'moves/s':>9}"
    )
    for name, r in rows:
        print(
            f"{name:<26}{r['interaction_p50_ms']:>11} / {r['interaction_p95_ms']:>6} ms"
            f"{r['loop_lag_p99_ms']:>11} ms{r['commit_p50_ms']:>9} / {r['commit_p95_ms']:>5} ms"
            f"{r['moves_per_s']:>9}"
        )
    if args.json:
        print(json.dumps({"sqlite": sqlite, "postgresql": postgres}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
