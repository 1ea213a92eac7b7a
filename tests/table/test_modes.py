"""Session modes at a table: each played to its end through the table service."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from dokobot.engine import Contract, Mode, Plan
from dokobot.storage import Storage
from dokobot.table import events as ev
from dokobot.table.clock import FakeClock
from dokobot.table.service import Member, TableError, TableService

from .test_service import ANNA, BERT, CHANNEL, GUILD, Recorder, service


@pytest.fixture
async def storage(tmp_path: Path) -> Any:
    store = await Storage.open(tmp_path / "modes.sqlite3")
    yield store
    await store.close()


async def human_turns(svc: TableService, rng: random.Random, *members: Member) -> None:
    """Whoever of ``members`` is to act: healthy, a Pflichtsolo when owed, else a random card."""
    snapshot = svc.snapshot(CHANNEL)
    if snapshot is None or snapshot.to_act is None:
        return
    seat = snapshot.seats[snapshot.to_act]
    member = next((m for m in members if seat is not None and m.user_id == seat.player_id), None)
    if member is None:
        return
    panel = svc.panel(CHANNEL, member.user_id)
    game, n = panel.game_number, panel.turn_no
    if panel.bids:
        words = [b.value for b in panel.bids]
        owed = snapshot.solos_owed[panel.seat] > 0 or "healthy" not in words
        word = next(w for w in words if w.startswith("solo:")) if owed else "healthy"
        await svc.bid(CHANNEL, member.user_id, word, game=game, expected=n)
    elif panel.playable:
        card = rng.choice(sorted(panel.playable))
        await svc.play(CHANNEL, member.user_id, card, game=game, expected=n)


async def play_to_the_end(
    svc: TableService, recorder: Recorder, *members: Member, limit: int = 4000
) -> None:
    rng = random.Random(5)
    for _ in range(limit):
        await svc.idle()
        if recorder.of(ev.TableClosed):
            return
        await human_turns(svc, rng, *members)
    raise AssertionError("the session did not end")


async def open_with(storage: Storage, plan: Plan, *members: Member, **kw: Any) -> Any:
    recorder = Recorder()
    svc = service(storage, FakeClock(), recorder, between_games=0.0, **kw)
    await svc.open_table(GUILD, CHANNEL, members[0], settings={"plan": plan.to_dict()})
    for member in members[1:]:
        await svc.join(CHANNEL, member)
    await svc.start(CHANNEL, members[0].user_id, ai_level="random")
    return svc, recorder


async def test_fixed_rounds_close_after_four_deals_a_round(storage: Storage) -> None:
    svc, recorder = await open_with(storage, Plan(mode=Mode.ROUNDS, rounds=1), ANNA)
    await play_to_the_end(svc, recorder, ANNA)
    games = recorder.of(ev.GameStarted)
    dealt = [
        g.dealer
        for g, over in zip(games, recorder.of(ev.GameOver), strict=True)
        if not over.result.get("redeal")
    ]
    assert sorted(dealt) == [0, 1, 2, 3]  # everyone dealt once
    assert len(recorder.of(ev.SessionOver)) == 1
    assert recorder.of(ev.TableClosed)[0].reason == "session_over"
    assert svc.snapshot(CHANNEL) is None


async def test_a_points_target_stops_after_the_game_that_reaches_it(storage: Storage) -> None:
    svc, recorder = await open_with(storage, Plan(mode=Mode.TARGET, target=5), ANNA)
    await play_to_the_end(svc, recorder, ANNA)
    overs = recorder.of(ev.GameOver)
    assert max(overs[-1].totals) >= 5
    assert all(max(o.totals) < 5 for o in overs[:-1])


async def test_a_tournament_list_plays_24_deals_with_a_pflichtsolo_each(storage: Storage) -> None:
    svc, recorder = await open_with(storage, Plan(mode=Mode.TOURNAMENT), ANNA)
    await play_to_the_end(svc, recorder, ANNA)
    results = [o.result for o in recorder.of(ev.GameOver)]
    compulsory = [r["soloist"] for r in results if r.get("compulsory")]
    assert sorted(compulsory) == [0, 1, 2, 3]
    assert recorder.of(ev.TableClosed)[0].reason == "session_over"


async def test_a_duel_seats_the_humans_opposite_and_never_as_partners(storage: Storage) -> None:
    svc, recorder = await open_with(
        storage, Plan(mode=Mode.DUEL, ai_announces=False, rounds=None), ANNA, BERT
    )
    snapshot = svc.snapshot(CHANNEL)
    assert [s.name for s in snapshot.seats] == ["Anna", "Bot Berta", "Bert", "Bot Dora"]  # type: ignore[union-attr]
    rng = random.Random(9)
    for _ in range(3000):
        await svc.idle()
        if len(recorder.of(ev.GameOver)) >= 6:
            break
        await human_turns(svc, rng, ANNA, BERT)
    overs = recorder.of(ev.GameOver)
    assert len(overs) >= 6
    for over in overs:
        result = over.result
        if result.get("contract") == Contract.NORMAL.value:
            assert (0 in result["re"]) != (2 in result["re"])
        # The AI neither announced nor played a solo.
        assert result.get("soloist") not in (1, 3) or not str(result["contract"]).startswith("solo")
    assert not [e for e in recorder.of(ev.AnnouncementMade) if e.seat in (1, 3)]
    await svc.close()


async def test_a_duel_needs_exactly_two_players(storage: Storage) -> None:
    recorder = Recorder()
    svc = service(storage, FakeClock(), recorder)
    await svc.open_table(GUILD, CHANNEL, ANNA, settings={"plan": Plan(mode=Mode.DUEL).to_dict()})
    with pytest.raises(
        TableError, match="A duel is two players against two AI players; this table has 1"
    ):
        await svc.start(CHANNEL, ANNA.user_id)
    # Nothing changed: no AI sat down, the table is still open for a second player.
    snapshot = svc.snapshot(CHANNEL)
    assert snapshot is not None and snapshot.status == "open"
    assert [s is None for s in snapshot.seats] == [False, True, True, True]
