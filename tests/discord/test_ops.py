"""Operations: the health endpoint and the metrics a real deployment watches."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import close_storage, make_bot
from .helpers import world


@pytest.fixture
async def simcord_bot(db_path: Path) -> Any:
    bot = make_bot(db_path, health_port=0)  # a free port
    yield bot
    await close_storage(bot)


async def get(port: int, path: str) -> tuple[int, str]:
    import aiohttp

    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


async def test_the_health_endpoint_reports_gateway_shards_database_and_loop(
    simcord_env: Any, simcord_bot: Any
) -> None:
    port = simcord_bot.health.port
    status, body = await get(port, "/health")
    report = json.loads(body)
    assert status == 200, report
    assert report["healthy"] is True and report["problems"] == []
    assert (report["gateway"], report["shards"], report["database"]) == (
        "connected",
        {"0": "ready"},
        "ok",
    )
    assert report["event_loop_lag_ms"] < 1000

    # A loop that something blocked for 1.5 s is reported, then recovers.
    time.sleep(1.5)
    await asyncio.sleep(0.6)  # the lag monitor wakes up late and records it
    status, body = await get(port, "/health")
    assert status == 503
    assert any(p.startswith("event loop stalled") for p in json.loads(body)["problems"])

    # The database going away is a problem too.
    await simcord_bot.storage.close()
    status, body = await get(port, "/health")
    report = json.loads(body)
    assert status == 503 and report["database"].startswith("unreachable")


async def test_metrics_are_served_in_the_prometheus_text_format(
    simcord_env: Any, simcord_bot: Any
) -> None:
    from prometheus_client import REGISTRY

    answered = REGISTRY.get_sample_value("dokobot_interaction_seconds_count") or 0.0
    _, channel, (anna,) = world(simcord_env, "anna")
    await anna.slash(channel, "doko new")
    status, text = await get(simcord_bot.health.port, "/metrics")
    assert status == 200
    assert 'dokobot_tables{status="open"} 1.0' in text
    assert REGISTRY.get_sample_value("dokobot_interaction_seconds_count") == answered + 1
    assert (
        REGISTRY.get_sample_value("dokobot_db_commit_seconds_count", {"backend": "sqlite"}) or 0
    ) > 0
    for name in (
        'dokobot_tables{status="open"}',
        'dokobot_tables{status="playing"}',
        "dokobot_games_finished_total",
        "dokobot_interaction_seconds_bucket",
        "dokobot_db_commit_seconds_bucket",
        "dokobot_event_loop_lag_seconds_count",
        "dokobot_shards_ready",
    ):
        assert name in text, name
