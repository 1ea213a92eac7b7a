"""Public posts keep to Discord's pace: one per interval per channel, in order."""

from __future__ import annotations

import asyncio
import itertools

import discord

from cogs.presenter import Outbox


async def test_posts_are_spaced_and_table_edits_coalesce() -> None:
    loop = asyncio.get_running_loop()
    sent: list[tuple[str, float]] = []
    outbox = Outbox(interval=0.05)

    def job(name: str):  # type: ignore[no-untyped-def]
        async def run() -> None:
            sent.append((name, loop.time()))

        return run

    outbox.put("post", job("trick 1"))
    outbox.put("table", job("table A"))
    outbox.put("table", job("table B"))  # coalesced: the queued edit shows the latest state
    outbox.put("post", job("trick 2"))
    await outbox.drain()
    assert [name for name, _ in sent] == ["trick 1", "table A", "trick 2"]
    gaps = [b - a for (_, a), (_, b) in itertools.pairwise(sent)]
    assert all(gap >= 0.045 for gap in gaps)


async def test_a_failing_post_does_not_block_the_next() -> None:
    sent: list[str] = []
    outbox = Outbox(interval=0.0)

    async def fail() -> None:
        raise discord.DiscordServerError(_Response(), "boom")  # type: ignore[arg-type]

    async def ok() -> None:
        sent.append("ok")

    outbox.put("post", fail)
    outbox.put("post", ok)
    await outbox.drain()
    assert sent == ["ok"]


class _Response:
    status = 500
    reason = "Internal Server Error"
