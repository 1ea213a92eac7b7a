"""Running at scale: shards from the environment, `dokobot health` over HTTP, JSON logs."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from dokobot.errors import UsageError
from dokobot.ops import (
    HealthServer,
    LoopLag,
    ShardPlan,
    ai_workers,
    configure_logging,
    shard_plan,
)

ROOT = Path(__file__).resolve().parents[1]


def test_shards_come_from_the_environment() -> None:
    assert shard_plan({}) == ShardPlan(None, None)  # one process, Discord's count
    assert shard_plan({"DOKOBOT_SHARD_COUNT": "8", "DOKOBOT_SHARDS": "0-3"}) == ShardPlan(
        (0, 1, 2, 3), 8
    )
    assert shard_plan({"DOKOBOT_SHARD_COUNT": "8", "DOKOBOT_SHARDS": "6,4-5"}).shard_ids == (
        4,
        5,
        6,
    )
    assert shard_plan({"DOKOBOT_SHARD_COUNT": "2"}) == ShardPlan((0, 1), 2)
    for env, message in (
        ({"DOKOBOT_SHARDS": "0-3"}, "DOKOBOT_SHARDS needs DOKOBOT_SHARD_COUNT"),
        ({"DOKOBOT_SHARD_COUNT": "eight"}, "must be a whole number ≥ 1, not 'eight'"),
        ({"DOKOBOT_SHARD_COUNT": "4", "DOKOBOT_SHARDS": "2-5"}, "distinct shards below"),
        ({"DOKOBOT_SHARD_COUNT": "4", "DOKOBOT_SHARDS": "a-b"}, "must look like 0-3 or 0,2,4"),
    ):
        with pytest.raises(UsageError, match=message):
            shard_plan(env)


def test_ai_workers_come_from_the_environment() -> None:
    assert ai_workers({"DOKOBOT_AI_WORKERS": "3"}) == 3
    assert ai_workers({"DOKOBOT_AI_WORKERS": "0"}) == 0  # in a thread
    assert ai_workers({}) == (os.cpu_count() or 2)
    with pytest.raises(UsageError, match="DOKOBOT_AI_WORKERS must be a whole number ≥ 0"):
        ai_workers({"DOKOBOT_AI_WORKERS": "many"})


def test_a_server_belongs_to_the_shard_discord_sends_it_to() -> None:
    # Discord's formula: shard = (guild_id >> 22) % shard_count.
    guild = (5 << 22) | 12345  # shard 5 of 8, shard 1 of 4
    first_half, second_half = ShardPlan((0, 1, 2, 3), 8), ShardPlan((4, 5, 6, 7), 8)
    assert (first_half.owns(guild), second_half.owns(guild)) == (False, True)
    assert ShardPlan((1,), 4).owns(guild) and ShardPlan().owns(guild)


def test_json_logs_are_one_object_per_line(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        configure_logging("json")
        logging.getLogger("dokobot.table").warning("table %s: slow", 7, extra={"table": 7})
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    line = json.loads(out.getvalue().splitlines()[-1])
    assert (line["level"], line["logger"], line["message"], line["table"]) == (
        "WARNING",
        "dokobot.table",
        "table 7: slow",
        7,
    )
    assert line["pid"] == os.getpid() and "time" in line
    with pytest.raises(UsageError, match="DOKOBOT_LOG_FORMAT must be text or json"):
        configure_logging("xml")


async def health(*args: str) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "dokobot",
        "health",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    out, err = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, (out + err).decode()


async def test_dokobot_health_asks_the_endpoint() -> None:
    report: dict[str, Any] = {"healthy": True, "problems": []}

    async def check() -> dict[str, Any]:
        return report

    server = HealthServer(check, port=0)
    port = await server.start()
    url = f"http://127.0.0.1:{port}/health"
    try:
        code, text = await health("--url", url)
        assert code == 0 and "healthy: connected to Discord, every shard ready" in text
        report = {"healthy": False, "problems": ["2 of 4 shards not ready"]}
        code, text = await health("--url", url)
        assert code == 1 and "unhealthy: 2 of 4 shards not ready" in text
    finally:
        await server.stop()
    code, text = await health("--url", url)
    assert code == 1 and f"no answer from {url}" in text


async def test_the_lag_monitor_sees_a_stall_and_puts_no_task_on_the_loop() -> None:
    tasks = asyncio.all_tasks()
    lag = LoopLag(interval=0.05)
    lag.start()
    await asyncio.sleep(0.3)
    # Its timing runs in a thread: no task on the loop for SimCord's settling to wait on.
    assert asyncio.all_tasks() == tasks
    assert lag.worst_recent < 0.5

    time.sleep(0.6)  # work that holds the loop
    await asyncio.sleep(0.2)
    assert 0.5 <= lag.worst_recent < 2.0
    started = time.perf_counter()
    lag.stop()
    assert time.perf_counter() - started < 0.2
