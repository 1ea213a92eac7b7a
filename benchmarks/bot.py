"""Discord layer speed: interaction-to-response time and memory with 100 tables (SimCord).

Runs the real bot against SimCord's simulated Discord (no network, no token).
Prints median and p95 ms from receiving an interaction to the bot's response,
for a card play and for My cards, and the memory the bot uses with 100 tables
running. ``--json`` ends with one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import discord
import simcord

from dokobot.bot import create_bot

STARTED: dict[int, float] = {}
LATENCY: dict[str, list[float]] = {"card": [], "cards": []}


def instrument(bot: Any) -> None:
    """Time each interaction from its arrival to the bot's first response call."""

    @bot.listen("on_interaction")
    async def arrived(interaction: discord.Interaction[Any]) -> None:
        STARTED[interaction.id] = time.perf_counter()

    for name in ("send_message", "edit_message", "defer"):
        original = getattr(discord.InteractionResponse, name)

        async def timed(self: Any, *args: Any, __original: Any = original, **kwargs: Any) -> Any:
            interaction = self._parent
            start = STARTED.pop(interaction.id, None)
            if start is not None:
                custom_id = (interaction.data or {}).get("custom_id", "")
                kind = (
                    "card"
                    if custom_id.startswith("doko:c:")
                    else ("cards" if custom_id.startswith("doko:t:cards") else None)
                )
                if kind:
                    LATENCY[kind].append((time.perf_counter() - start) * 1000)
            return await __original(self, *args, **kwargs)

        setattr(discord.InteractionResponse, name, timed)


@contextlib.asynccontextmanager
async def _clock(env: Any) -> Any:
    """Drive the simulation from this task as SimCord's pytest plugin does."""
    with env.time_context():
        yield


def components(message: Any) -> list[dict[str, Any]]:
    rows = message.components
    out = []
    for row in rows:
        row = row if isinstance(row, dict) else row.to_dict()
        out.extend(row.get("components", []))
    return out


async def run(tables: int, plays: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(
            Path(tmp) / "bench.sqlite3",
            ai_pause=0.0,
            between_games=600.0,
            post_interval=0.0,
            seed_source=lambda: 11,
        )
        instrument(bot)
        async with simcord.run(bot) as env, _clock(env):
            guild = env.create_guild()
            gc.collect()
            tracemalloc.start()
            base = tracemalloc.get_traced_memory()[0]
            players = []
            for i in range(tables):
                channel = guild.create_text_channel(f"table-{i}")
                player = guild.add_member(env.create_user(f"player{i}"))
                await player.slash(channel, "doko new")
                await player.slash(channel, "doko start")
                players.append((player, channel))
            gc.collect()
            memory = (tracemalloc.get_traced_memory()[0] - base) / 2**20
            tracemalloc.stop()
            # Card plays and My cards on the first tables.
            done = 0
            for player, channel in players:
                if done >= plays:
                    break
                for _ in range(13):
                    table = next(
                        m
                        for m in reversed(channel.history())
                        if m.content.startswith("**Doppelkopf**")
                    )
                    result = await player.click(table, label="My cards")
                    panel = result.response
                    enabled = [
                        c
                        for c in components(panel)
                        if c.get("type") == 2
                        and not c.get("disabled")
                        and c.get("custom_id", "").startswith(("doko:c:", "doko:b:"))
                    ]
                    if not enabled:
                        break
                    await player.click(panel, custom_id=enabled[0]["custom_id"])
                    done += 1
            await bot.tables.close()
            await bot.storage.close()
    figures = {"memory_mb_100_tables": round(memory, 1), "tables": tables}
    for kind, values in LATENCY.items():
        values.sort()
        figures[f"{kind}_median_ms"] = round(statistics.median(values), 2) if values else 0.0
        figures[f"{kind}_p95_ms"] = (
            round(values[int(0.95 * (len(values) - 1))], 2) if values else 0.0
        )
        figures[f"{kind}_samples"] = len(values)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--plays", type=int, default=60)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = asyncio.run(run(args.tables, args.plays))
    print(
        f"card play:  median {figures['card_median_ms']} ms, p95 {figures['card_p95_ms']} ms "
        f"({figures['card_samples']} plays)"
    )
    print(
        f"My cards:   median {figures['cards_median_ms']} ms, p95 {figures['cards_p95_ms']} ms "
        f"({figures['cards_samples']} panels)"
    )
    memory = figures["memory_mb_100_tables"]
    print(f"memory with {args.tables} tables running: {memory} MiB (Python heap)")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
