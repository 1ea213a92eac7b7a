"""Running in production: shards from the environment, the health endpoint, metrics,
the event-loop lag monitor and JSON logs.

The health endpoint (``DOKOBOT_HEALTH_PORT``) answers ``GET /health`` with 200
and a JSON body when the gateway is connected, every shard of this process is
ready, the database answers and the event loop is not stalled, else 503 with
the reasons; ``GET /metrics`` gives the Prometheus text format.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import logging
import os
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from dokobot import metrics
from dokobot.errors import UsageError

log = logging.getLogger("dokobot.ops")

#: Event-loop lag above this is reported unhealthy.
MAX_LAG_SECONDS = 1.0


@dataclasses.dataclass(frozen=True)
class ShardPlan:
    """Which gateway shards this process runs (``None``: Discord's recommendation)."""

    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None

    def owns(self, guild_id: int) -> bool:
        """Whether this process serves the server: Discord's shard formula."""
        if self.shard_ids is None or self.shard_count is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids


def shard_plan(environ: dict[str, str] | None = None) -> ShardPlan:
    """``DOKOBOT_SHARD_COUNT=8`` and ``DOKOBOT_SHARDS=0-3`` (or ``0,2,4``) from the
    environment; neither set: one process, Discord picks the count."""
    env = os.environ if environ is None else environ
    count_text = env.get("DOKOBOT_SHARD_COUNT", "").strip()
    ids_text = env.get("DOKOBOT_SHARDS", "").strip()
    if not count_text:
        if ids_text:
            raise UsageError(
                "DOKOBOT_SHARDS needs DOKOBOT_SHARD_COUNT (the total of all processes)"
            )
        return ShardPlan()
    if not count_text.isdigit() or int(count_text) < 1:
        raise UsageError(f"DOKOBOT_SHARD_COUNT must be a whole number ≥ 1, not {count_text!r}")
    count = int(count_text)
    if not ids_text:
        return ShardPlan(tuple(range(count)), count)
    ids: list[int] = []
    for part in ids_text.split(","):
        low, dash, high = part.strip().partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise UsageError(f"DOKOBOT_SHARDS must look like 0-3 or 0,2,4, not {ids_text!r}")
        ids.extend(range(int(low), int(high if dash else low) + 1))
    bad = [i for i in ids if i >= count]
    if bad or len(set(ids)) != len(ids) or not ids:
        raise UsageError(
            f"DOKOBOT_SHARDS={ids_text} must name distinct shards below DOKOBOT_SHARD_COUNT={count}"
        )
    return ShardPlan(tuple(sorted(ids)), count)


class LoopLag:
    """Measures how late the event loop runs a callback: the time work held the loop.

    A watcher thread posts a callback every ``interval`` and times its answer,
    so the monitor puts no timer of its own on the loop (nothing for a test
    harness to wait on), and a stall in progress already counts while it lasts.
    """

    def __init__(self, interval: float = 0.25) -> None:
        self.interval = interval
        self.last = 0.0
        self.worst_recent = 0.0
        self._stop = threading.Event()
        self._answered = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(
                target=self._watch,
                args=(asyncio.get_running_loop(),),
                name="dokobot-loop-lag",
                daemon=True,
            )
            self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:
            self._stop.set()
            self._answered.set()  # a watcher waiting on a loop that stops here
            self._thread.join(timeout=2 * self.interval)
            self._thread = None

    def _watch(self, loop: asyncio.AbstractEventLoop) -> None:
        recent: list[float] = []
        while not self._stop.wait(self.interval):
            self._answered = answered = threading.Event()
            sent = time.perf_counter()
            try:
                # An empty context: the callback belongs to no task of the bot.
                loop.call_soon_threadsafe(answered.set, context=contextvars.Context())
            except RuntimeError:  # the loop is closed
                return
            while not answered.wait(self.interval):
                if self._stop.is_set():
                    return
                self.worst_recent = max(self.worst_recent, time.perf_counter() - sent)
            if self._stop.is_set():
                return
            lag = time.perf_counter() - sent
            self.last = lag
            metrics.LOOP_LAG_SECONDS.observe(lag)
            recent = [*recent[-39:], lag]  # about the last ten seconds
            self.worst_recent = max(recent)


Check = Callable[[], Awaitable[dict[str, Any]]]


class HealthServer:
    """``/health`` and ``/metrics`` over HTTP (aiohttp, which discord.py brings)."""

    def __init__(self, check: Check, *, host: str = "127.0.0.1", port: int = 8080) -> None:
        self.check = check
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> int:
        """Listen; the port (useful when 0 asked for a free one)."""
        app = web.Application()
        app.router.add_get("/health", self._health)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        addresses = self._runner.addresses
        if addresses:
            self.port = int(addresses[0][1])
        log.info("health endpoint on http://%s:%s/health", self.host, self.port)
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _health(self, request: web.Request) -> web.Response:
        try:
            report = await asyncio.wait_for(self.check(), timeout=5.0)
        except Exception as exc:  # the check itself failed: that is unhealthy too
            report = {"healthy": False, "problems": [f"health check failed: {exc!r}"]}
        status = 200 if report.get("healthy") else 503
        return web.json_response(report, status=status)

    async def _metrics(self, request: web.Request) -> web.Response:
        body = generate_latest()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


def configure_logging(fmt: str | None = None) -> None:
    """One line per event on standard output; ``DOKOBOT_LOG_FORMAT=json``: JSON lines."""
    fmt = (fmt if fmt is not None else os.environ.get("DOKOBOT_LOG_FORMAT", "text")).lower()
    handler = logging.StreamHandler(sys.stdout)
    if fmt == "json":
        from pythonjsonlogger.json import JsonFormatter

        handler.setFormatter(
            JsonFormatter(
                "%(asctime)s %(levelname)s %(name)s %(message)s",
                rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
                static_fields={"pid": os.getpid()},
            )
        )
    elif fmt == "text":
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    else:
        raise UsageError(f"DOKOBOT_LOG_FORMAT must be text or json, not {fmt!r}")
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    logging.getLogger("discord").setLevel(logging.WARNING)


def ai_workers(environ: dict[str, str] | None = None) -> int:
    """``DOKOBOT_AI_WORKERS``: worker processes for AI decisions (default: one per core;
    ``0``: think in a thread, for a machine that cannot start processes)."""
    env = os.environ if environ is None else environ
    text = env.get("DOKOBOT_AI_WORKERS", "").strip()
    if not text:
        return os.cpu_count() or 2
    if not text.isdigit():
        raise UsageError(f"DOKOBOT_AI_WORKERS must be a whole number ≥ 0, not {text!r}")
    return int(text)


def health_port(environ: dict[str, str] | None = None) -> int | None:
    """``DOKOBOT_HEALTH_PORT`` as a port number (``None``: no endpoint)."""
    env = os.environ if environ is None else environ
    text = env.get("DOKOBOT_HEALTH_PORT", "").strip()
    if not text:
        return None
    if not text.isdigit() or not 0 <= int(text) < 65536:
        raise UsageError(f"DOKOBOT_HEALTH_PORT must be a port number, not {text!r}")
    return int(text)
