"""Discord layer under load: 100 tables at once, with and without 200 ms of network latency.

Runs the real bot against SimCord's simulated Discord (no network, no token). Each
table has one human and three AI players at the real pace (1.2 s a move); the
humans click their newest private panel whenever it is their turn. Time inside
the simulation is virtual (SimCord's clock, advanced a second at a time), so
latency costs no wall time but queues exactly as it would on real Discord.

Prints, for each latency:
- interaction p50/p95: virtual ms from a click's arrival to the bot's first answer
  (Discord wants one within 3,000 ms); and the same in wall-clock ms from the click
  to the answer, which shows a busy event loop (virtual time stands still meanwhile);
- trick post lag p50/p95: virtual ms from a trick's last card to its public post;
- event-loop lag p99: wall-clock ms a 20 ms ticker overslept while the bot worked;
  and the same with the time SimCord's own bookkeeping held the loop taken out
  (SimCord settles the simulation on the bot's loop; a sampler thread tells whose
  code runs there every 5 ms);
- requests per virtual second at the peak (Discord's global limit: 50);
- the AI decisions made, and how many of them fell back to the normal AI.
``--ai strong`` thinks in the worker processes, as in production.
``--json`` ends with one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import sys
import sysconfig
import tempfile
import threading
import time
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import simcord
from prometheus_client import REGISTRY
from simcord.http.client import FakeHTTPClient, FakeWebhookAdapter, _path_of

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dokobot.bot import create_bot
from dokobot.ops import ShardPlan
from dokobot.table import events as ev
from tests.discord.realism import VirtualClock, latency


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def components(message: Any) -> list[dict[str, Any]]:
    out = []
    for row in message.components:
        row = row if isinstance(row, dict) else row.to_dict()
        out.extend(row.get("components", []))
    return out


class Probe:
    """Times interactions and trick posts in virtual time."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.interaction_ms: list[float] = []
        self.trick_done: dict[tuple[int, int], float] = {}
        self.trick_ms: list[float] = []
        self.per_second: Counter[int] = Counter()
        self.clicked: float | None = None  # wall time of the click awaiting its answer
        self.interaction_wall_ms: list[float] = []

    def answered(self, path: str) -> None:
        """An interaction callback reached Discord: how long after the click?"""
        parts = path.split("/")
        if len(parts) < 4 or parts[1] != "interactions" or not path.endswith("/callback"):
            return
        record = self.env.backend.interactions.get(int(parts[2]))
        if record is None or record.initial_response_deadline is None:
            return
        arrived = datetime.fromisoformat(record.initial_response_deadline) - timedelta(seconds=3)
        self.interaction_ms.append((self.env.now() - arrived).total_seconds() * 1000)
        if self.clicked is not None:
            # Virtual time stands still while the bot works; wall time shows a busy loop.
            self.interaction_wall_ms.append((time.perf_counter() - self.clicked) * 1000)
            self.clicked = None

    def on_event(self, event: ev.Event) -> None:
        if isinstance(event, ev.TrickCompleted):
            self.trick_done[(event.channel_id, event.number)] = self.env._virtual_time

    def on_request(self) -> None:
        self.per_second[int(self.env._virtual_time)] += 1

    def on_post(self, channel_id: int, content: str) -> None:
        if content.startswith("Trick "):
            number = int(content.split()[1])
            start = self.trick_done.pop((channel_id, number), None)
            if start is not None:
                self.trick_ms.append((self.env._virtual_time - start) * 1000)


def ai_counts(level: str) -> tuple[float, float]:
    """The level's decisions so far (in workers or threads) and the fallbacks to normal."""
    decided = sum(
        REGISTRY.get_sample_value("dokobot_ai_decisions_total", {"level": level, "where": w}) or 0.0
        for w in ("worker", "thread")
    )
    return decided, REGISTRY.get_sample_value("dokobot_ai_fallbacks_total") or 0.0


class Sampler:
    """Whose code holds the event loop: SimCord's own bookkeeping, or the bot's.

    SimCord settles the simulation on the bot's loop; its work grows with the waits in
    flight and has no counterpart on real Discord. A thread looks at the loop's thread
    every 5 ms and notes which code runs there, so that the lag can be split.
    """

    PERIOD = 0.005

    def __init__(self) -> None:
        self.simcord: list[float] = []  # wall times at which SimCord's code held the loop
        self._stop = threading.Event()
        self._loop_thread = threading.get_ident()
        self._thread = threading.Thread(target=self._run, name="sampler", daemon=True)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.PERIOD):
            frame = sys._current_frames().get(self._loop_thread)
            if frame is not None and owner(frame) == "simcord":
                self.simcord.append(time.perf_counter())

    def simcord_ms(self, start: float, end: float) -> float:
        """About how long SimCord's code held the loop between two wall times."""
        return (bisect.bisect(self.simcord, end) - bisect.bisect(self.simcord, start)) * (
            self.PERIOD * 1000
        )


STDLIB = sysconfig.get_paths()["stdlib"]


def owner(frame: Any) -> str:
    """``simcord`` if the innermost frame outside the standard library is SimCord's
    (generated code such as a dataclass's ``__init__``, ``<string>``, counts as its caller's)."""
    while frame is not None:
        name = frame.f_code.co_filename
        if not (name.startswith((STDLIB, "<")) and "site-packages" not in name):
            return "simcord" if f"{os.sep}simcord{os.sep}" in name else "other"
        frame = frame.f_back
    return "other"


async def ticker(lags: list[tuple[float, float, float]], stop: asyncio.Event) -> None:
    """Sleep 20 ms of wall time again and again; record (start, end, ms overslept)."""
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(0.02)
        end = time.perf_counter()
        lags.append((start, end, max(0.0, (end - start - 0.02) * 1000)))


async def run(
    tables: int, seconds: int, delay: float, ai_level: str = "heuristic"
) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(
            Path(tmp) / "bench.sqlite3",
            ai_pause=1.2,
            between_games=6.0,
            post_interval=1.0,
            seed_source=lambda: 11,
            clock=VirtualClock(),
            shards=ShardPlan((0,), 1),
        )
        async with simcord.run(bot, settle_timeout=60) as env:
            probe = Probe(env)
            listener = bot.tables.listener

            async def tap(event: ev.Event) -> None:
                probe.on_event(event)
                await listener(event)

            bot.tables.listener = tap
            original_send = discord.abc.Messageable.send

            async def send(self: Any, content: Any = None, **kw: Any) -> Any:
                message = await original_send(self, content, **kw)
                probe.on_post(message.channel.id, str(content or ""))
                return message

            discord.abc.Messageable.send = send  # type: ignore[method-assign]
            plain = FakeHTTPClient.request

            async def counted(self: Any, *args: Any, **kw: Any) -> Any:
                probe.on_request()  # channel requests: the ones Discord's global limit counts
                return await plain(self, *args, **kw)

            FakeHTTPClient.request = counted  # type: ignore[method-assign]
            webhook = FakeWebhookAdapter.request

            async def answered(self: Any, route: Any, *args: Any, **kw: Any) -> Any:
                result = await webhook(self, route, *args, **kw)
                probe.answered(_path_of(route.url))
                return result

            FakeWebhookAdapter.request = answered  # type: ignore[method-assign]
            lags: list[tuple[float, float, float]] = []
            stop = asyncio.Event()
            tick = asyncio.create_task(ticker(lags, stop))
            decided, fallbacks = ai_counts(ai_level)
            wall = time.perf_counter()
            with env.time_context(), latency(delay), Sampler() as sampler:
                guild = env.create_guild()
                seats = []
                for i in range(tables):
                    channel = guild.create_text_channel(f"table-{i}")
                    player = guild.add_member(env.create_user(f"player{i}"))
                    await player.slash(channel, "doko new")
                    seats.append((player, channel))
                await env.advance_time(2)
                for player, channel in seats:
                    await player.slash(channel, "doko start", ai_level=ai_level)
                await env.advance_time(2)
                for player, channel in seats:
                    await player.slash(channel, "doko hand")
                clicks = 0
                for _ in range(seconds):
                    for player, channel in seats:
                        snapshot = bot.tables.snapshot(channel.id)
                        if snapshot is None or snapshot.to_act != 0:
                            continue
                        panels = [
                            m
                            for m in channel.history(viewer=player)
                            if m.flags.ephemeral
                            and any(a.filename == "hand.png" for a in m.attachments)
                        ]
                        enabled = [
                            c
                            for c in components(panels[-1])
                            if c.get("type") == 2
                            and not c.get("disabled")
                            and c.get("custom_id", "").startswith(("doko:c:", "doko:b:"))
                        ]
                        if enabled:
                            probe.clicked = time.perf_counter()
                            await player.click(panels[-1], custom_id=enabled[0]["custom_id"])
                            clicks += 1
                    await env.advance_time(1)
            wall = time.perf_counter() - wall
            now_decided, now_fallbacks = ai_counts(ai_level)
            decided, fallbacks = now_decided - decided, now_fallbacks - fallbacks
            stop.set()
            await tick
            discord.abc.Messageable.send = original_send  # type: ignore[method-assign]
            FakeHTTPClient.request = plain  # type: ignore[method-assign]
            FakeWebhookAdapter.request = webhook  # type: ignore[method-assign]
            finished = sum(
                1
                for _, channel in seats
                if any(m.content.startswith("Game ") for m in channel.history())
            )
            await bot.tables.close()
            await bot.storage.close()
    return {
        "ai_level": ai_level,  # type: ignore[dict-item]
        "latency_ms": delay * 1000,
        "tables": tables,
        "clicks": clicks,
        "games_finished": finished,
        "interaction_p50_ms": percentile(probe.interaction_ms, 0.5),
        "interaction_p95_ms": percentile(probe.interaction_ms, 0.95),
        "interaction_wall_p50_ms": percentile(probe.interaction_wall_ms, 0.5),
        "interaction_wall_p95_ms": percentile(probe.interaction_wall_ms, 0.95),
        "ai_decisions": int(decided),
        "ai_fallbacks": int(fallbacks),
        "trick_post_p50_ms": percentile(probe.trick_ms, 0.5),
        "trick_post_p95_ms": percentile(probe.trick_ms, 0.95),
        "trick_posts": len(probe.trick_ms),
        "loop_lag_p99_ms": percentile([lag for _, _, lag in lags], 0.99),
        "loop_lag_bot_p99_ms": percentile(
            [max(0.0, lag - sampler.simcord_ms(a, b)) for a, b, lag in lags], 0.99
        ),
        "peak_requests_per_s": max(probe.per_second.values(), default=0),
        "wall_s": round(wall, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=100)
    # SimCord's bookkeeping grows with the square of the waits in flight: 100 tables
    # for 30 virtual seconds take about five minutes of wall time per latency.
    parser.add_argument("--seconds", type=int, default=30, help="virtual seconds of play")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--ai",
        default="heuristic",
        help="AI levels to compare, comma-separated (strong thinks in worker processes)",
    )
    parser.add_argument(
        "--latencies", default="0,200", help="network latencies in ms, comma-separated"
    )
    args = parser.parse_args()
    rows = [
        asyncio.run(run(args.tables, args.seconds, int(delay) / 1000, level))
        for level in args.ai.split(",")
        for delay in args.latencies.split(",")
    ]
    for r in rows:
        print(
            f"AI {r['ai_level']}: {r['tables']} tables, {r['latency_ms']:.0f} ms latency: "
            f"interaction p50 {r['interaction_p50_ms']} / p95 {r['interaction_p95_ms']} ms, "
            f"wall p50 {r['interaction_wall_p50_ms']} / p95 {r['interaction_wall_p95_ms']} ms; "
            f"trick post p50 {r['trick_post_p50_ms']} / p95 {r['trick_post_p95_ms']} ms "
            f"({r['trick_posts']} tricks); "
            f"event-loop lag p99 {r['loop_lag_p99_ms']} ms "
            f"(without SimCord's bookkeeping {r['loop_lag_bot_p99_ms']} ms); "
            f"peak {r['peak_requests_per_s']} requests/s; {r['clicks']} clicks, "
            f"{r['games_finished']} games finished; {r['ai_decisions']} AI decisions, "
            f"{r['ai_fallbacks']} fell back to normal; {r['wall_s']} s wall time"
        )
    if args.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
