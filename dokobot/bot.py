"""The Discord bot: builds the services in ``setup_hook`` and loads the cogs."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import os
import signal
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from dokobot import metrics
from dokobot.errors import EnvironmentFailure, UsageError
from dokobot.health import INTERVAL as HEARTBEAT_INTERVAL
from dokobot.health import write_heartbeat
from dokobot.ops import (
    MAX_LAG_SECONDS,
    HealthServer,
    LoopLag,
    ShardPlan,
    ai_workers,
    configure_logging,
    health_port,
    shard_plan,
)
from dokobot.storage import Storage, StorageError, default_path
from dokobot.storage.db import shown
from dokobot.table.clock import Clock, SystemClock
from dokobot.table.service import DEFAULT_AI, TableService

log = logging.getLogger("dokobot")


class DokoBot(commands.AutoShardedBot):
    """discord.py bot with DokoBot's storage and table service attached.

    It runs the gateway shards its ``ShardPlan`` names (``DOKOBOT_SHARDS`` of
    ``DOKOBOT_SHARD_COUNT``); several processes share one PostgreSQL database, and
    each restores only the tables of its own servers."""

    storage: Storage
    tables: TableService

    def __init__(
        self,
        db_path: str | Path | None = None,
        *,
        ai_pause: float = 1.2,
        turn_seconds: float = 90.0,
        between_games: float = 6.0,
        post_interval: float = 1.0,
        dev_guild: int | None = None,
        seed_source: Callable[[], int] | None = None,
        owner_id: int | None = None,
        requests_per_second: int | None = 40,
        clock: Clock | None = None,
        heartbeat: str | Path | None = None,
        shards: ShardPlan | None = None,
        ai_workers: int | None = None,
        default_ai: str = DEFAULT_AI,
        health_port: int | None = None,
        health_host: str = "127.0.0.1",
    ) -> None:
        # Only what the bot uses: guild and channel events (a channel or server that
        # goes away closes its tables). It reads no messages and needs no members.
        # The bot never joins voice: no PyNaCl/davey warnings on every start.
        discord.VoiceClient.warn_nacl = False
        if hasattr(discord.VoiceClient, "warn_dave"):
            discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True
        self.shard_plan = shards or ShardPlan()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            owner_id=owner_id,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            shard_ids=list(self.shard_plan.shard_ids) if self.shard_plan.shard_ids else None,  # type: ignore[arg-type]
            shard_count=self.shard_plan.shard_count,
        )
        self.db_path = str(db_path or default_path())
        self.options: dict[str, Any] = {
            "ai_pause": ai_pause,
            "turn_seconds": turn_seconds,
            "between_games": between_games,
            "seed_source": seed_source,
            "await_shown": True,
            "ai_workers": ai_workers,
            "default_ai": default_ai,
        }
        #: The time of the table service and of the outboxes' pacing.
        self.clock: Clock = clock or SystemClock()
        self.post_interval = post_interval
        #: Bot-wide budget for channel requests (Discord's global limit is 50/s).
        self.requests_per_second = requests_per_second
        self.dev_guild = dev_guild
        #: File refreshed every 30 s while the bot runs (``dokobot health`` reads it).
        self.heartbeat = heartbeat
        self._heartbeat_task: asyncio.Task[None] | None = None
        self.loop_lag = LoopLag()
        self.health: HealthServer | None = (
            HealthServer(self.health_report, host=health_host, port=health_port)
            if health_port is not None
            else None
        )

    async def setup_hook(self) -> None:
        from cogs import doko
        from cogs.commands import Translator

        # German command names and descriptions for the de locale (cogs/commands.py).
        await self.tree.set_translator(Translator())
        if self.health is not None:  # up before Discord: an orchestrator sees "starting"
            self.loop_lag.start()
            await self.health.start()
        self.storage = await Storage.open(self.db_path)
        cog = doko.DokoCog(self)
        self.tables = TableService(
            self.storage,
            listener=cog.presenter.on_event,
            clock=self.clock,
            owns=self.shard_plan.owns,
            **self.options,
        )
        for status in ("open", "playing"):
            metrics.TABLES.labels(status).set_function(functools.partial(self.tables.count, status))
        await self.add_cog(cog)
        await self.add_cog(doko.DokoAdminCog(self))
        self.add_dynamic_items(*doko.DYNAMIC_ITEMS)
        self.tree.error(cog.on_app_command_error)
        await self.sync_commands()
        restored = await self.tables.restore()
        log.info("ready to restore %d tables from %s", len(restored), self.storage.db.where)
        if self.heartbeat is not None:
            self._heartbeat_task = asyncio.create_task(self._beat())

    def beat(self) -> None:
        """Write the heartbeat now: connected while the gateway is up and ready."""
        if self.heartbeat is None:
            return
        connected = (
            self.is_ready()
            and not self.is_closed()
            and self._shards_ready() == (self._shard_total())
        )
        try:
            write_heartbeat(
                self.heartbeat,
                connected=connected,
                guilds=len(self.guilds),
                tables=self.tables.table_count if hasattr(self, "tables") else 0,
            )
        except OSError as exc:
            log.warning("cannot write the heartbeat %s: %s", self.heartbeat, exc)

    async def _beat(self) -> None:
        while True:
            self.beat()
            await self.clock.sleep(HEARTBEAT_INTERVAL)

    def _shards_ready(self) -> int:
        """Shards of this process whose gateway socket is open now (ready once is not
        enough)."""
        ready = sum(not shard.is_closed() for shard in self.shards.values())
        metrics.SHARDS_READY.set(ready)
        return ready

    def _shard_total(self) -> int:
        ids = self.shard_ids
        return len(ids) if ids is not None else max(1, len(self.shards))

    async def health_report(self) -> dict[str, Any]:
        """What ``GET /health`` answers: each check, and the problems if any."""
        problems = []
        connected = self.is_ready() and not self.is_closed()
        if not connected:
            problems.append("not connected to Discord")
        ready, total = self._shards_ready(), self._shard_total()
        if ready < total:
            problems.append(f"{total - ready} of {total} shards not ready")
        database = "unknown"
        if hasattr(self, "storage"):
            try:
                await asyncio.wait_for(self.storage.db.row("SELECT 1"), timeout=2.0)
                database = "ok"
            except Exception as exc:
                database = f"unreachable: {type(exc).__name__}"
                problems.append(f"database {database}")
        else:
            problems.append("database not open yet")
        lag = self.loop_lag.worst_recent
        if lag > MAX_LAG_SECONDS:
            problems.append(f"event loop stalled {lag * 1000:.0f} ms")
        return {
            "healthy": not problems,
            "problems": problems,
            "gateway": "connected" if connected else "disconnected",
            "shards": {
                str(i): "ready" if not s.is_closed() else "down" for i, s in self.shards.items()
            },
            "shard_count": self.shard_count,
            "database": database,
            "event_loop_lag_ms": round(lag * 1000, 1),
            "tables": self.tables.table_count if hasattr(self, "tables") else 0,
            "guilds": len(self.guilds),
        }

    async def on_ready(self) -> None:
        self.beat()

    async def on_shard_ready(self, shard_id: int) -> None:
        self.beat()

    async def on_resumed(self) -> None:
        self.beat()

    async def on_disconnect(self) -> None:
        self.beat()  # a health check sees the outage at once, not 30 s later

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Sync slash commands on the first start or when they changed (or ``force``)."""
        payload = json.dumps(
            [c.to_dict(self.tree) for c in self.tree.get_commands()], sort_keys=True
        )
        fingerprint = hashlib.sha256(payload.encode()).hexdigest()
        if self.dev_guild is not None:
            guild = discord.Object(self.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("slash commands synced to guild %s", self.dev_guild)
            return True
        if not force and await self.storage.meta.get("commands") == fingerprint:
            return False
        await self.tree.sync()
        await self.storage.meta.set("commands", fingerprint)
        log.info("slash commands synced globally")
        return True

    async def close(self) -> None:
        if self._heartbeat_task is not None:
            self._heartbeat_task.cancel()
        self.loop_lag.stop()
        if self.health is not None:
            await self.health.stop()
        if hasattr(self, "tables"):
            await self.tables.close()
        if hasattr(self, "storage"):
            await self.storage.close()
        await super().close()
        self.beat()  # says "not connected" until the process is gone


def create_bot(db_path: str | Path | None = None, **options: Any) -> DokoBot:
    """Build the bot without connecting (tests and SimCord drive it; ``dokobot run`` starts it).

    Options: ``ai_pause``, ``turn_seconds``, ``between_games`` (seconds),
    ``post_interval`` (pause between public posts in a channel),
    ``requests_per_second`` (bot-wide budget for channel requests; ``None``: none),
    ``dev_guild``, ``seed_source``, ``owner_id``, ``clock`` (the table service's time),
    ``heartbeat`` (a file refreshed every 30 s for ``dokobot health``), ``shards``
    (a ``ShardPlan``), ``ai_workers`` (processes for all AI decisions; ``None``: only
    the strong AI's), ``default_ai`` (the level of AI seats no command names),
    ``health_port``/``health_host`` (``/health`` and ``/metrics``).
    """
    return DokoBot(db_path, **options)


def load_dotenv(path: str = ".env") -> None:
    """Read KEY=VALUE lines from ``.env`` into the environment (without overriding it)."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError:
        return
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        os.environ.setdefault(key.strip(), value.strip().strip('"').strip("'"))


def _int_setting(name: str) -> int | None:
    """An id from the environment; a clear error when it is not a number."""
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    if not value.isdigit():
        raise UsageError(
            f"{name} must be a Discord id (a number; right-click → Copy ID), not {value!r}"
        )
    return int(value)


def run() -> int:
    """``dokobot run``: token from DISCORD_TOKEN (or .env), database from DOKOBOT_DB."""
    load_dotenv()
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise UsageError(
            "DISCORD_TOKEN is not set: put the bot token in the environment or in .env"
        )
    dev_guild = _int_setting("DOKOBOT_DEV_GUILD")
    owner = _int_setting("DOKOBOT_OWNER_ID")
    shards = shard_plan()
    port = health_port()
    workers = ai_workers()
    configure_logging()
    bot = create_bot(
        os.environ.get("DOKOBOT_DB") or None,
        dev_guild=dev_guild,
        owner_id=owner,
        heartbeat=os.environ.get("DOKOBOT_HEARTBEAT") or None,
        shards=shards,
        # Every AI decision in worker processes, one per core (docs/architecture.md).
        ai_workers=workers,
        health_port=port,
        health_host=os.environ.get("DOKOBOT_HEALTH_HOST", "127.0.0.1"),
    )
    if shards.shard_ids is not None:
        log.info("shards %s of %s", list(shards.shard_ids), shards.shard_count)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, lambda: asyncio.create_task(bot.close()))
        async with bot:
            await bot.start(token)

    try:
        asyncio.run(main())
    except discord.LoginFailure:
        raise UsageError(
            "Discord refused the token in DISCORD_TOKEN: copy it again from the "
            "Developer Portal (Bot → Reset Token)"
        ) from None
    except discord.PrivilegedIntentsRequired:
        raise UsageError("Discord asks for privileged intents the bot does not use") from None
    except (sqlite3.Error, StorageError) as exc:
        raise EnvironmentFailure(
            f"cannot use the database {shown(bot.db_path)} ({exc}); set DOKOBOT_DB to a "
            "writable file or a reachable postgresql:// URL"
        ) from None
    except (aiohttp.ClientError, TimeoutError) as exc:
        raise EnvironmentFailure(
            f"cannot reach Discord ({type(exc).__name__}: {exc}); check the network connection"
        ) from None
    except OSError as exc:
        raise EnvironmentFailure(
            f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": ")
        ) from None
    return 0
