"""The AI worker processes: one per core, all started together, off the event loop."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import wait as wait_all
from typing import Any, TypeVar

T = TypeVar("T")

# What every worker needs before its first decision: imported once, in the forkserver,
# so that a new worker is a fork of a warm process rather than a fresh interpreter.
PRELOAD = ["dokobot.table.service"]

# How long each worker holds its start-up task: long enough that no worker is idle
# before the last one was started, so every task starts a worker of its own.
HOLD_SECONDS = 0.2


class Workers:
    """A process pool whose workers start on first use, together, in a thread of their own.

    Starting a worker blocks on the forkserver's handshake, so it must not happen on the
    event loop. Once all workers run, a hand-over is a write to a pipe and never starts a
    process: ``ProcessPoolExecutor`` only starts one while none is idle and it has fewer
    than its maximum. (Under SimCord's virtual clock, starting one from the loop would
    even hang: the handshake's zero-timeout waits never see the clock move.)
    """

    def __init__(self, count: int) -> None:
        self.count = count
        self.pool: ProcessPoolExecutor | None = None
        self._starting: threading.Thread | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process."""
        pool = self._start()
        starting = self._starting
        if starting is not None and starting.is_alive():
            await asyncio.to_thread(starting.join)
        return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)

    def discard(self) -> None:
        """Give up the workers (one died, or the service closes); the next run starts anew."""
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
            self._starting = None

    def _start(self) -> ProcessPoolExecutor:
        if self.pool is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(PRELOAD)
            self.pool = ProcessPoolExecutor(max_workers=self.count, mp_context=context)
            # A thread starts with an empty context: no caller's clock comes along.
            self._starting = threading.Thread(
                target=_start_all, args=(self.pool, self.count), name="ai-workers", daemon=True
            )
            self._starting.start()
        return self.pool


def _start_all(pool: ProcessPoolExecutor, count: int) -> None:
    """Start ``count`` workers: each start-up task finds every earlier worker busy."""
    # A failed start shows at the first decision (a broken pool), which falls back.
    wait_all([pool.submit(_hold, HOLD_SECONDS) for _ in range(count)])


def _hold(seconds: float) -> int:
    """A worker's start-up task: stay busy a moment, then say who you are."""
    time.sleep(seconds)
    return os.getpid()
