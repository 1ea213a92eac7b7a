"""The strong AI at a table: it thinks in worker processes and never stalls a game."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
from pathlib import Path
from typing import Any

import pytest

from dokobot.storage import Storage
from dokobot.table import events as ev
from dokobot.table.clock import FakeClock
from dokobot.table.workers import Workers

from .test_service import ANNA, CHANNEL, GUILD, Recorder, human_move, service


@pytest.fixture
async def storage(tmp_path: Path) -> Any:
    store = await Storage.open(tmp_path / "strong.sqlite3")
    yield store
    await store.close()


async def play_one_game(svc: Any, recorder: Recorder) -> None:
    rng = random.Random(3)
    for _ in range(400):
        await svc.idle()
        if recorder.of(ev.GameOver):
            return
        snapshot = svc.snapshot(CHANNEL)
        seat = snapshot.seats[snapshot.to_act] if snapshot.to_act is not None else None
        if seat is not None and seat.player_id == ANNA.user_id:
            await human_move(svc, ANNA, rng)
    raise AssertionError("the game did not end")


async def test_strong_ai_seats_play_a_game_in_worker_processes(storage: Storage) -> None:
    recorder = Recorder()
    svc = service(storage, FakeClock(), recorder, ai_budget_ms=15.0)
    try:
        await svc.open_table(GUILD, CHANNEL, ANNA)
        await svc.start(CHANNEL, ANNA.user_id, ai_level="strong")
        assert [s.ai_level for s in svc.snapshot(CHANNEL).seats[1:]] == ["strong"] * 3
        await play_one_game(svc, recorder)
        result = recorder.of(ev.GameOver)[0].result
        assert sum(result["scores"]) == 0
        assert svc._workers.pool is not None  # the decisions went to the workers
    finally:
        await svc.close()


async def test_a_worker_that_takes_too_long_falls_back_to_the_normal_ai(
    storage: Storage, caplog: pytest.LogCaptureFixture
) -> None:
    recorder = Recorder()
    svc = service(storage, FakeClock(), recorder, ai_budget_ms=15.0, ai_timeout=0.0)
    try:
        await svc.open_table(GUILD, CHANNEL, ANNA)
        await svc.start(CHANNEL, ANNA.user_id, ai_level="strong")
        with caplog.at_level(logging.WARNING):
            await play_one_game(svc, recorder)
        assert recorder.of(ev.GameOver)
        assert "the strong AI of seat 1 failed (TimeoutError); the normal AI decides" in caplog.text
    finally:
        await svc.close()


async def test_with_ai_workers_every_level_thinks_in_the_worker_processes(
    storage: Storage,
) -> None:
    """One mechanism for all AI work: the normal AI's decisions go to the pool too."""
    from prometheus_client import REGISTRY

    def decisions(where: str) -> float:
        sample = REGISTRY.get_sample_value(
            "dokobot_ai_decisions_total", {"level": "heuristic", "where": where}
        )
        return sample or 0.0

    before = decisions("worker"), decisions("thread")
    recorder = Recorder()
    svc = service(storage, FakeClock(), recorder, ai_workers=2)
    try:
        await svc.open_table(GUILD, CHANNEL, ANNA)
        await svc.start(CHANNEL, ANNA.user_id, ai_level="heuristic")
        await play_one_game(svc, recorder)
        assert sum(recorder.of(ev.GameOver)[0].result["scores"]) == 0
        assert svc._workers.pool is not None and svc._workers.count == 2
        # Three AI seats: their bids and 3 × 12 cards, none of them in a thread.
        assert decisions("worker") - before[0] >= 3 * 12
        assert decisions("thread") == before[1]
    finally:
        await svc.close()


async def test_a_crashed_worker_never_stalls_the_table(
    storage: Storage, caplog: pytest.LogCaptureFixture
) -> None:
    recorder = Recorder()
    svc = service(storage, FakeClock(), recorder, ai_budget_ms=15.0)
    try:
        await svc.open_table(GUILD, CHANNEL, ANNA)
        await svc.start(CHANNEL, ANNA.user_id, ai_level="strong")
        await svc.idle()
        pool = svc._workers.pool
        assert pool is not None
        for process in list(pool._processes.values()):  # the workers die, as in an OOM kill
            os.kill(process.pid, signal.SIGKILL)
        with caplog.at_level(logging.WARNING):
            await play_one_game(svc, recorder)
        assert recorder.of(ev.GameOver)
        assert "failed (BrokenProcessPool); the normal AI decides" in caplog.text
        assert svc._workers.pool is not pool  # fresh workers took over
    finally:
        await svc.close()


def test_a_decision_that_queued_for_a_worker_searches_only_the_time_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The budget counts from the table's request: queue time is thinking time lost,
    down to a floor of 30 ms; the quick levels get no clock at all."""
    import time

    from dokobot.ai import make_strategy
    from dokobot.engine import GameSetup, GameState, deal, player_view
    from dokobot.table import service as service_module

    budgets: list[float | None] = []

    def spy(level: str, *, samples: int | None = None, budget_ms: float | None = None) -> Any:
        budgets.append(budget_ms)
        return make_strategy("random")

    monkeypatch.setattr(service_module, "make_strategy", spy)
    view = player_view(GameState.new(GameSetup(dealer=3, hands=deal(random.Random(1)))), 0)
    service_module.ai_decision("strong", view, "s", time.time() + 0.4)
    service_module.ai_decision("strong", view, "s", time.time() - 5.0)  # queued too long
    service_module.ai_decision("heuristic", view, "s", time.time() + 0.4)
    assert budgets[0] is not None and 300 < budgets[0] <= 400
    assert budgets[1:] == [service_module.MIN_BUDGET_MS, None]


async def test_every_worker_starts_at_the_first_decision_and_none_later() -> None:
    """All workers start together, from their own thread: a later hand-over never starts
    a process (which would block the event loop on the forkserver's handshake)."""
    workers = Workers(3)
    try:
        pid = await workers.run(os.getpid)
        assert workers.pool is not None
        processes = dict(workers.pool._processes)
        assert len(processes) == 3 and pid in processes
        assert all(p.is_alive() for p in processes.values())
        pids = await asyncio.gather(*(workers.run(os.getpid) for _ in range(12)))
        assert set(pids) <= set(processes)
        assert dict(workers.pool._processes) == processes  # no worker started since
    finally:
        workers.discard()
    assert workers.pool is None


async def test_the_table_judges_every_players_cards_and_keeps_the_sheet(
    storage: Storage,
) -> None:
    """After each game a table with a strong AI judges every player's last cards to a
    trick (``dokobot.ai.skill``) into its sheet, stored with the table; the strong AI's
    next decisions get each seat's judgement."""
    recorder = Recorder()
    svc = service(storage, FakeClock(), recorder, ai_budget_ms=15.0)
    try:
        await svc.open_table(GUILD, CHANNEL, ANNA)
        await svc.start(CHANNEL, ANNA.user_id, ai_level="strong")
        table = svc._tables[CHANNEL]
        assert svc._table_noise(table) == (None, None, None, None)
        await play_one_game(svc, recorder)
        sheet = table.settings["skill"]
        # Per player (Anna and the three AIs): its cards played last to a trick with a
        # choice — most of the twelve tricks.
        assert set(sheet) <= {str(s.player_id) for s in table.seats if s is not None}
        assert sum(cards for _, _, cards in sheet.values()) >= 6
        # A player's few judged cards may all have been alike (nothing to lose by
        # chance there), so only the sum of what chance loses must be above 0.
        for loss, chance, cards in sheet.values():
            assert loss >= 0 and chance >= 0 and cards > 0
        assert sum(chance for _, chance, _ in sheet.values()) > 0
        stored = await storage.tables.get(table.table_id)
        assert stored is not None and stored.settings["skill"] == sheet
        noise = svc._table_noise(table)
        judged = [i for i, s in enumerate(table.seats) if s and str(s.player_id) in sheet]
        assert all((noise[i] is not None) == (i in judged) for i in range(4))
    finally:
        await svc.close()


def test_a_strong_decision_in_a_worker_takes_the_tables_judgement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import time

    from dokobot.ai import StrongStrategy
    from dokobot.engine import GameSetup, GameState, deal, player_view
    from dokobot.table import service as service_module

    seen: list[Any] = []
    monkeypatch.setattr(
        StrongStrategy,
        "choose",
        lambda self, view, rng: seen.append(self.table_noise) or view.legal[0],
    )
    view = player_view(GameState.new(GameSetup(dealer=3, hands=deal(random.Random(1)))), 0)
    service_module.ai_decision("strong", view, "s", time.time() + 0.1, (None, 1.0, 0.3, None))
    service_module.ai_decision("strong", view, "s", time.time() + 0.1)
    assert seen == [(None, 1.0, 0.3, None), None]
