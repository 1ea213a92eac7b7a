"""SimCord fixtures: the real bot against a simulated Discord, on a fresh database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dokobot.bot import create_bot
from dokobot.ops import ShardPlan

from .openapi_check import problems, spec


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.sqlite3"


def make_bot(db_path: Path, **overrides: Any) -> Any:
    options: dict[str, Any] = {
        "ai_pause": 0.0,
        "between_games": 600.0,
        "post_interval": 0.0,
        "turn_seconds": 90.0,
        "seed_source": lambda: 7,
        # SimCord's clock moves only when a test advances it: the request budget's
        # one-second window is tested on its own (tests/discord/test_real_discord.py).
        "requests_per_second": None,
        # One process with the one shard SimCord runs (the bot is an AutoShardedBot).
        "shards": ShardPlan((0,), 1),
        # The quick AI in a thread (the strong AI's workers have their own tests).
        "default_ai": "heuristic",
    }
    options.update(overrides)
    return create_bot(db_path, **options)


@pytest.fixture
async def simcord_bot(db_path: Path) -> Any:
    bot = make_bot(db_path)
    yield bot
    # SimCord detaches the bot without closing it: close the database ourselves.
    await close_storage(bot)


async def close_storage(bot: Any) -> None:
    if hasattr(bot, "tables"):
        await bot.tables.close()
    if hasattr(bot, "storage"):
        await bot.storage.close()


@pytest.fixture
def bodies_match_discords_schema(simcord_env: Any) -> Any:
    """Every JSON body the bot sends in a test validates against Discord's OpenAPI file
    (modules ask for it with ``pytestmark``)."""
    yield
    if spec() is None:
        pytest.skip("../shared/discord-api-spec/openapi.json is absent")
    assert problems(simcord_env.http_requests) == []
