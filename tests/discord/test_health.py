"""The heartbeat a health check reads: written by the bot while it is connected."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from dokobot.health import check_heartbeat

from .conftest import close_storage, make_bot
from .helpers import world


@pytest.fixture
async def simcord_bot(db_path: Path, tmp_path: Path) -> Any:
    bot = make_bot(db_path, heartbeat=tmp_path / "heartbeat.json")
    yield bot
    await close_storage(bot)


async def test_the_connected_bot_keeps_a_heartbeat_and_clears_it_on_close(
    simcord_env: Any, simcord_bot: Any, tmp_path: Path
) -> None:
    path = tmp_path / "heartbeat.json"
    # Written as soon as the gateway is ready.
    assert json.loads(path.read_text())["connected"] is True
    assert check_heartbeat(path, now=time.time()) is None
    world(simcord_env, "anna")
    simcord_bot.beat()  # what the 30 s loop does
    beat = json.loads(path.read_text())
    assert (beat["connected"], beat["guilds"], beat["tables"]) == (True, 1, 0)
    await simcord_bot.close()
    assert json.loads(path.read_text())["connected"] is False
    assert check_heartbeat(path, now=time.time()) == (
        "the bot is running but not connected to Discord"
    )
