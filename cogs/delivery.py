"""Getting messages to Discord the way it wants them: paced, budgeted, never retried blindly.

Discord is slow, rate-limited and forgetful. Each channel gets its own outbox, so a
slow or failing channel never holds up another; all outboxes share one bot-wide
request budget under Discord's global limit; an answer that says the channel is
gone or closed to the bot stops every further request to it.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord

from dokobot.table.clock import Clock, SystemClock

log = logging.getLogger("dokobot.discord")

Job = Callable[[], Awaitable[None]]
Sleep = Callable[[float], Coroutine[Any, Any, None]]

#: Discord's JSON error codes that mean "this channel is not yours any more".
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013


def gone_reason(exc: discord.HTTPException) -> str | None:
    """Why a failed request means the table's channel can no longer be used, if it does."""
    if exc.status == 404 and exc.code == UNKNOWN_CHANNEL:
        return "channel_deleted"
    if exc.status == 403 and exc.code in (MISSING_ACCESS, MISSING_PERMISSIONS):
        return "no_permission"
    return None


class RequestBudget:
    """At most ``per_second`` channel requests in any one second, bot-wide.

    Discord allows 50 requests a second globally; staying below that on our own
    keeps discord.py's 429 handling for the rare case instead of the normal one.
    Interaction responses do not count against the global limit and skip this.
    """

    def __init__(self, per_second: int, clock: Clock | None = None) -> None:
        self.per_second = per_second
        self.clock = clock or SystemClock()
        #: When each of the last ``per_second`` requests went out.
        self._sent: deque[float] = deque()

    async def acquire(self) -> None:
        # A sliding window. A waiter sleeps until the oldest request leaves the
        # window (a sleep, not a lock: any clock, SimCord's virtual one too, can
        # move it on), then looks again.
        while True:
            now = self.clock.now()
            while self._sent and now - self._sent[0] >= 1.0:
                self._sent.popleft()
            if len(self._sent) < self.per_second:
                self._sent.append(now)
                return
            await self.clock.sleep(1.0 - (now - self._sent[0]))


class Outbox:
    """One channel's posts and edits, in order, at most one per ``interval`` seconds.

    Edits of the table message coalesce (only the latest state matters). A 429
    that discord.py gave up on is tried once more after a pause; a 403/404 that
    says the channel is gone stops the outbox for good and calls ``on_gone``.
    """

    def __init__(
        self,
        interval: float,
        budget: RequestBudget | None = None,
        on_gone: Callable[[str], Awaitable[None]] | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.interval = interval
        self.sleep = sleep
        self.budget = budget
        self.on_gone = on_gone
        self.jobs: deque[tuple[str, Job]] = deque()
        self.task: asyncio.Task[None] | None = None
        self.closed = False
        #: Public messages posted so far: how far a private panel has scrolled up.
        self.posted = 0

    def put(self, key: str, job: Job) -> None:
        if self.closed:
            return
        if key == "table" and any(k == "table" for k, _ in self.jobs):
            return
        self.jobs.append((key, job))
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    def stop(self) -> None:
        """Send nothing more to this channel."""
        self.closed = True
        self.jobs.clear()

    async def _run(self) -> None:
        retried: set[int] = set()
        while self.jobs and not self.closed:
            key, job = self.jobs.popleft()
            if self.budget is not None:
                await self.budget.acquire()
            try:
                await job()
            except discord.HTTPException as exc:
                reason = gone_reason(exc)
                if reason is not None:
                    log.warning("channel answered %s %s: closing its table", exc.status, exc.code)
                    self.stop()
                    if self.on_gone is not None:
                        await self.on_gone(reason)
                    return
                if exc.status == 429 and id(job) not in retried:
                    retried.add(id(job))
                    self.jobs.appendleft((key, job))
                    await self.sleep(max(self.interval, 1.0))
                    continue
                log.warning("post failed (%s %s): %s", exc.status, exc.code, exc.text)
            except Exception:
                log.exception("post failed")
            if self.jobs and self.interval > 0:
                await self.sleep(self.interval)

    async def drain(self) -> None:
        while self.task is not None and not self.task.done():
            await asyncio.wait([self.task])
