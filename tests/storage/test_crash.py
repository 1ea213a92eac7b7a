"""A writer killed with SIGKILL mid-game loses nothing it acknowledged (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from dokobot.engine import replay
from dokobot.storage import Storage

WRITER = textwrap.dedent(
    """
    import asyncio, random, sys
    from dokobot.engine import Bid, GameSetup, GameState, Reservation, apply, deal, legal_actions
    from dokobot.engine.record import action_to_json
    from dokobot.storage import Storage
    from dokobot.table.persist import record_header

    async def main(path):
        storage = await Storage.open(path)
        for pid in (1, 2, 3, 4):
            await storage.players.upsert(pid, f"P{pid}")
        table = await storage.tables.create(1, 1, 1)
        session = await storage.games.start_session(
            table, 1, rules={}, first_dealer=0, deals=None, seed=0)
        rng = random.Random(0)
        for seq in range(1000):
            state = GameState.new(GameSetup(dealer=seq % 4, hands=deal(rng)))
            ref = await storage.games.start_game(session, seq, record_header(state), (1, 2, 3, 4))
            index = 0
            while not state.is_finished:
                if state.phase.value == "bidding":
                    action = Bid(state.to_act, Reservation.HEALTHY)
                else:
                    action = rng.choice(legal_actions(state, state.to_act))
                await storage.games.append_action(
                    ref.game_id, index, action_to_json(state, action))
                state = apply(state, action)
                # Acknowledge only after the commit returned, as the table service does.
                print(f"ack {ref.game_id} {index}", flush=True)
                index += 1

    asyncio.run(main(sys.argv[1]))
    """
)


def test_sigkill_mid_game_loses_no_acknowledged_action(database: str) -> None:
    path = database
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, path],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    assert proc.stdout is not None
    acked: dict[int, int] = {}
    for line in proc.stdout:
        _, game, index = line.split()
        acked[int(game)] = int(index)
        # Kill it in the middle of the third game, while it keeps writing.
        if len(acked) == 3 and acked[int(game)] == 17:
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL

    async def check() -> None:
        async with await Storage.open(path) as storage:
            running = {g.game_id: g for g in await storage.games.running()}
            for game_id, last in acked.items():
                game = running[game_id]
                assert len(game.actions) >= last + 1
                # The stored log replays cleanly: the game can resume where it stopped.
                assert len(replay(game.record()).actions) == len(game.actions)

    asyncio.run(check())
