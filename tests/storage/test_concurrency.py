"""Many tables write at once: transactions never interleave, reads never wait for them."""

from __future__ import annotations

import asyncio

from dokobot.storage import Storage


async def test_twenty_tables_writing_at_once_all_commit(database: str) -> None:
    storage = await Storage.open(database)

    async def table(channel: int) -> int:
        await storage.players.upsert(100 + channel, f"player {channel}")
        table_id = await storage.tables.create(1, channel, 100 + channel, {})
        for turn in range(15):
            await storage.tables.set_settings(table_id, {"turn": turn})
            await storage.players.upsert(100 + channel, f"player {channel} ({turn})")
        return table_id

    ids = await asyncio.gather(*(table(c) for c in range(20)))
    live = await storage.tables.live()
    assert sorted(t.table_id for t in live) == sorted(ids)
    assert {t.settings["turn"] for t in live} == {14}
    names = await storage.players.names([100 + c for c in range(20)])
    assert names[119] == "player 19 (14)"
    await storage.close()


async def test_a_slow_commit_holds_up_no_reader(database: str) -> None:
    storage = await Storage.open(database)
    await storage.players.upsert(7, "Anna")
    db = storage.db
    commit = db.commit
    release = asyncio.Event()

    async def slow_commit() -> None:
        await release.wait()
        await commit()

    db.commit = slow_commit  # type: ignore[method-assign]
    writer = asyncio.create_task(storage.players.upsert(7, "Anna Lena"))
    await asyncio.sleep(0.05)
    # The write is not committed yet: a reader sees the old name, at once.
    assert await asyncio.wait_for(storage.players.names([7]), 1.0) == {7: "Anna"}
    release.set()
    await writer
    assert await storage.players.names([7]) == {7: "Anna Lena"}
    await storage.close()
