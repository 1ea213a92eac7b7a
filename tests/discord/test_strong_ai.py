"""The strong AI on Discord: its seats think in worker processes, as in production."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import REGISTRY

from .conftest import close_storage, make_bot
from .helpers import public_messages, started_tables, table_message
from .realism import VirtualClock

pytestmark = pytest.mark.usefixtures("bodies_match_discords_schema")


@pytest.fixture
async def simcord_bot(db_path: Path) -> Any:
    # The AI's real pace: the seats of both tables come due together.
    bot = make_bot(db_path, default_ai="strong", ai_pause=1.0, clock=VirtualClock())
    yield bot
    await close_storage(bot)


@pytest.fixture
def deadline() -> Iterator[None]:
    """Fail, rather than hang CI, if the bot spins: starting a worker from the event loop
    under SimCord's clock never returned (the clock stands still in its timed waits)."""

    def expired(signum: int, frame: Any) -> None:
        raise TimeoutError("the strong AI's seats did not play within 120 s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(120)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def counted(name: str, labels: dict[str, str] | None = None) -> float:
    return REGISTRY.get_sample_value(name, labels or {}) or 0.0


def trick_posted(channel: Any) -> bool:
    return any(m.content.startswith("Trick 1") for m in public_messages(channel))


@pytest.mark.usefixtures("deadline")
async def test_two_tables_of_strong_ai_seats_think_at_once_in_the_worker_processes(
    simcord_env: Any,
) -> None:
    decided = counted("dokobot_ai_decisions_total", {"level": "strong", "where": "worker"})
    fallbacks = counted("dokobot_ai_fallbacks_total")
    tables = await started_tables(simcord_env, "anna", "bob")
    for _, channel in tables:
        assert "2. Bot Berta (AI · strong)" in table_message(channel).content
    bot = simcord_env.bot
    for _ in range(30):
        if all(trick_posted(channel) for _, channel in tables):
            break
        for player, channel in tables:
            if bot.tables.snapshot(channel.id).to_act == 0 and not trick_posted(channel):
                playable = sorted(bot.tables.panel(channel.id, player.id).playable)
                if playable:
                    await player.slash(channel, "doko play", card=playable[0].name)
                else:
                    await player.slash(channel, "doko bid", what="healthy")
        # Both tables' AI seats come due in the same second: their decisions overlap.
        await simcord_env.advance_time(1)
    for _, channel in tables:
        trick = next(m for m in public_messages(channel) if m.content.startswith("Trick 1"))
        assert [a.filename for a in trick.attachments] == ["trick-01.png"]
    # Six strong seats made their bids and played a card each, all of it in the workers:
    # none fell back to the normal AI, and every worker was started at once.
    assert (
        counted("dokobot_ai_decisions_total", {"level": "strong", "where": "worker"}) - decided
        >= 12
    )
    assert counted("dokobot_ai_fallbacks_total") == fallbacks
    workers = bot.tables._workers
    assert workers.pool is not None and len(workers.pool._processes) == workers.count
