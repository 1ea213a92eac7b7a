"""What real Discord does and SimCord does not: latency, slow disks, vanished channels.

SimCord answers every request at once. These helpers put the delays back (in
SimCord's virtual time, so a test advances the clock to let answers arrive) and
take channels and servers away the way Discord does.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

from simcord._runtime import _selected_env
from simcord.http.client import FakeHTTPClient, FakeWebhookAdapter


async def virtual_sleep(seconds: float, why: str) -> None:
    """Sleep on SimCord's virtual clock only: the test's ``advance_time`` wakes it.

    A plain sleep shorter than SimCord's settle timeout is also woken by the wall
    clock, so a busy simulation would never settle; a declared wait never is.
    """
    env = _selected_env()
    if env is None:
        await asyncio.sleep(seconds)
        return
    await env.external_wait(asyncio.sleep(seconds), reason=why)


class VirtualClock:
    """The table service's clock in SimCord's virtual time (AI pace, turn timers)."""

    def now(self) -> float:
        env = _selected_env()
        return float(env._virtual_time) if env is not None else 0.0

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        await virtual_sleep(seconds, "table clock")


@contextlib.contextmanager
def latency(seconds: float) -> Iterator[None]:
    """Every HTTP request of the bot (REST and interaction webhooks) takes ``seconds``."""
    originals = (FakeHTTPClient.request, FakeWebhookAdapter.request)

    async def rest(self: Any, *args: Any, **kwargs: Any) -> Any:
        await virtual_sleep(seconds, "network latency")
        return await originals[0](self, *args, **kwargs)

    async def webhook(self: Any, *args: Any, **kwargs: Any) -> Any:
        await virtual_sleep(seconds, "network latency")
        return await originals[1](self, *args, **kwargs)

    FakeHTTPClient.request = rest  # type: ignore[method-assign]
    FakeWebhookAdapter.request = webhook  # type: ignore[method-assign]
    try:
        yield
    finally:
        FakeHTTPClient.request, FakeWebhookAdapter.request = originals  # type: ignore[method-assign]


def slow_commits(bot: Any, seconds: float) -> None:
    """Every database commit of ``bot`` takes ``seconds`` (a slow or busy disk)."""
    db = bot.storage.db
    commit = db.commit

    async def slow() -> None:
        await virtual_sleep(seconds, "slow disk")
        await commit()

    db.commit = slow


async def delete_channel(env: Any, channel: Any) -> None:
    """Somebody deletes the channel (Discord sends CHANNEL_DELETE)."""
    env.backend.delete_channel(channel.id)
    await env.settle()


async def remove_bot(env: Any, guild: Any) -> None:
    """The bot is kicked from the server (Discord sends GUILD_DELETE)."""
    env.backend.remove_guild(guild.id)
    await env.settle()


def requests_to(env: Any, channel: Any, since: int = 0) -> list[str]:
    """The REST calls the bot made to ``channel`` after the ``since``-th request."""
    prefix = f"/channels/{channel.id}"
    return [f"{r.method} {r.path}" for r in env.http_requests[since:] if r.path.startswith(prefix)]


async def advance_until(env: Any, done: Any, *, step: float, limit: float) -> float:
    """Advance virtual time in ``step``s until ``done()`` holds; returns the time taken."""
    waited = 0.0
    while not done():
        assert waited < limit, f"not done after {limit} virtual seconds"
        await env.advance_time(step)
        waited += step
    return waited
