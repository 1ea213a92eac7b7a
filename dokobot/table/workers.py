"""The AI worker processes: one per core, all started together, off the event loop."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import wait as wait_all
from typing import Any, TypeVar

T = TypeVar("T")

log = logging.getLogger(__name__)

# What every worker needs before its first decision: imported once, in the forkserver,
# so that a new worker is a fork of a warm process rather than a fresh interpreter.
PRELOAD = ["dokobot.table.service"]

# The longest a start-up task waits for the others to be started (a safety net only:
# the starting thread lets them go as soon as it has handed out the last one).
START_TIMEOUT = 10.0

#: In a worker: set once every worker of its pool has been started.
_started: Any = None


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
            started = context.Event()
            self.pool = ProcessPoolExecutor(
                max_workers=self.count,
                mp_context=context,
                initializer=_remember,
                initargs=(started,),
            )
            # A thread starts with an empty context: no caller's clock comes along.
            self._starting = threading.Thread(
                target=_start_all,
                args=(self.pool, self.count, started),
                name="ai-workers",
                daemon=True,
            )
            self._starting.start()
        return self.pool


def _start_all(pool: ProcessPoolExecutor, count: int, started: Any) -> None:
    """Start ``count`` workers: each start-up task keeps its worker busy until the last
    was handed out, so that every one of them starts a worker of its own."""
    try:
        tasks = [pool.submit(_wait_for_the_others) for _ in range(count)]
        started.set()
        wait_all(tasks)
    except Exception as exc:
        # The pool is broken or shut down: the next decision falls back to the normal
        # AI (and says so) and then starts fresh workers.
        log.warning("the AI workers did not start: %s", exc)
    finally:
        started.set()


def _remember(started: Any) -> None:
    """A worker's initializer: keep the start signal (it can only come by inheritance)."""
    global _started
    _started = started


def _wait_for_the_others() -> int:
    """A worker's start-up task."""
    _started.wait(START_TIMEOUT)
    return os.getpid()
