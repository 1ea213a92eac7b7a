"""The table service: lobby, a full AI game, timeouts, refused commands, restarts."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path
from typing import Any

import pytest

from dokobot.engine import (
    Announce,
    Announcement,
    Bid,
    Card,
    Declare,
    Genscher,
    PassCards,
    Phase,
    Play,
    PovertyReply,
    ReturnCards,
    replay,
)
from dokobot.storage import Storage
from dokobot.table import events as ev
from dokobot.table.clock import FakeClock
from dokobot.table.service import Member, TableError, TableService

from ..house_rules import house_rules

GUILD, CHANNEL = 1, 10
ANNA, BERT, CARLA, DIRK = (
    Member(101, "Anna"),
    Member(102, "Bert"),
    Member(103, "Carla"),
    Member(104, "Dirk"),
)


class Recorder:
    def __init__(self) -> None:
        self.events: list[ev.Event] = []

    async def __call__(self, event: ev.Event) -> None:
        self.events.append(event)

    def of(self, kind: type[Any]) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]


@pytest.fixture
async def storage(tmp_path: Path) -> Any:
    store = await Storage.open(tmp_path / "tables.sqlite3")
    yield store
    await store.close()


def service(storage: Storage, clock: FakeClock, recorder: Recorder, **kw: Any) -> TableService:
    options = {
        "ai_pause": 0.0,
        "turn_seconds": 90.0,
        "between_games": 1000.0,
        "seed_source": lambda: 1234,
        # The quick AI in a thread: the tests of the strong AI's workers set their own.
        "default_ai": "heuristic",
    } | kw
    return TableService(storage, clock=clock, listener=recorder, **options)


async def human_move(svc: TableService, member: Member, rng: random.Random) -> None:
    """Make a random legal move for ``member`` through the service's public commands."""
    panel = svc.panel(CHANNEL, member.user_id)
    game, n = panel.game_number, panel.turn_no
    if panel.bids:
        await svc.bid(CHANNEL, member.user_id, "healthy", game=game, expected=n)
    elif panel.playable:
        card = rng.choice(sorted(panel.playable))
        await svc.play(CHANNEL, member.user_id, card, game=game, expected=n)
    else:
        raise AssertionError(f"{member.name} has nothing to do: {panel}")


async def test_lobby_rules(storage: Storage) -> None:
    svc = service(storage, FakeClock(), Recorder())
    await svc.open_table(GUILD, CHANNEL, ANNA)
    with pytest.raises(TableError, match="This channel already has a table"):
        await svc.open_table(GUILD, CHANNEL, BERT)
    with pytest.raises(TableError, match=r"You already sit at this table \(seat 1\)"):
        await svc.join(CHANNEL, ANNA)
    await svc.join(CHANNEL, BERT)
    with pytest.raises(TableError, match=r"Only the table's owner \(Anna\) can do that"):
        await svc.start(CHANNEL, BERT.user_id)
    await svc.add_ai(CHANNEL, ANNA.user_id, "random")
    await svc.join(CHANNEL, CARLA)
    snapshot = await svc.join(CHANNEL, DIRK)  # takes the AI's seat
    assert snapshot.names == ("Anna", "Bert", "Dirk", "Carla")
    with pytest.raises(TableError, match="The table is full"):
        await svc.join(CHANNEL, Member(105, "Emil"))
    with pytest.raises(TableError, match="There is no table in this channel"):
        await svc.join(99, BERT)
    with pytest.raises(TableError, match="You are not sitting at this table"):
        svc.panel(CHANNEL, 999)
    await svc.close()


async def test_owner_kicks_a_seat(storage: Storage) -> None:
    svc = service(storage, FakeClock(), Recorder())
    await svc.open_table(GUILD, CHANNEL, ANNA)
    await svc.join(CHANNEL, BERT)
    await svc.add_ai(CHANNEL, ANNA.user_id, "random")
    with pytest.raises(TableError, match=r"Only the table's owner \(Anna\) can do that"):
        await svc.kick(CHANNEL, BERT.user_id, 0)
    with pytest.raises(TableError, match="Use Leave to leave your own seat"):
        await svc.kick(CHANNEL, ANNA.user_id, 0)
    snapshot = await svc.kick(CHANNEL, ANNA.user_id, 2)  # the AI
    assert snapshot is not None and snapshot.names == ("Anna", "Bert", "—", "—")
    snapshot = await svc.kick(CHANNEL, ANNA.user_id, 1)  # Bert
    assert snapshot is not None and snapshot.names == ("Anna", "—", "—", "—")
    with pytest.raises(TableError, match="Seat 2 is empty"):
        await svc.kick(CHANNEL, ANNA.user_id, 1)
    await svc.close()


async def test_full_game_with_four_ai_seats(storage: Storage) -> None:
    recorder = Recorder()
    svc = service(storage, FakeClock(), recorder)
    await svc.open_table(GUILD, CHANNEL, ANNA, sit=False)
    await svc.start(CHANNEL, ANNA.user_id, ai_level="heuristic")
    await svc.idle()
    over = recorder.of(ev.GameOver)
    assert len(over) == 1
    result = over[0].result
    assert result["complete"] is True
    assert sum(result["scores"]) == 0
    assert over[0].names == ("Bot Anton", "Bot Berta", "Bot Cäsar", "Bot Dora")
    assert len(recorder.of(ev.TrickCompleted)) == (12 if not result.get("redeal") else 0)
    assert not recorder.of(ev.HandChanged)  # no human hands to refresh
    # The game is in storage, complete, and replays to the same result.
    stored = await storage.stats.game(GUILD, over[0].number)
    assert stored is not None and stored.status == "finished"
    assert stored.result == result
    assert replay(stored.record).is_finished
    sheet = await storage.stats.score_sheet(1)
    assert sheet.totals == tuple(result["scores"])
    # Nobody human sits at the table: it stops after this game instead of playing on.
    await svc.clock.advance(1000)  # type: ignore[attr-defined]
    await svc.idle()
    assert len(recorder.of(ev.GameStarted)) == 1
    assert [c.reason for c in recorder.of(ev.TableClosed)] == ["no_humans"]
    # The session ended early, and still gets its final sheet.
    assert [o.totals for o in recorder.of(ev.SessionOver)] == [tuple(result["scores"])]
    assert svc.snapshot(CHANNEL) is None
    assert await storage.tables.live() == []
    await svc.close()


async def test_the_owner_stops_a_table(storage: Storage) -> None:
    recorder = Recorder()
    svc = service(storage, FakeClock(), recorder)
    await svc.open_table(GUILD, CHANNEL, ANNA)
    await svc.start(CHANNEL, ANNA.user_id)
    await svc.idle()
    await svc.stop(CHANNEL, ANNA.user_id)
    await svc.idle()
    assert [c.reason for c in recorder.of(ev.TableClosed)] == ["stopped"]
    assert not recorder.of(ev.SessionOver)  # no game was finished: no sheet to show
    assert svc.snapshot(CHANNEL) is None
    await svc.close()


async def test_a_human_who_times_out_twice_is_handed_to_the_ai(storage: Storage) -> None:
    clock, recorder = FakeClock(), Recorder()
    svc = service(storage, clock, recorder)
    await svc.open_table(GUILD, CHANNEL, ANNA)
    await svc.start(CHANNEL, ANNA.user_id)
    await svc.idle()
    snapshot = svc.snapshot(CHANNEL)
    assert snapshot is not None and snapshot.to_act == 0  # Anna bids last (dealer is seat 1's left)
    await clock.advance(59)
    assert not recorder.of(ev.TurnReminder)
    await clock.advance(1)
    reminders = recorder.of(ev.TurnReminder)
    assert [(r.seat, r.seconds_left) for r in reminders] == [(0, 30.0)]
    await clock.advance(30)
    await svc.idle()
    timed_out = recorder.of(ev.TurnTimedOut)
    assert [(t.seat, t.player_id) for t in timed_out] == [(0, ANNA.user_id)]
    assert not recorder.of(ev.SeatHandedToAI)
    # Anna's next turn also runs out: now the AI keeps her seat.
    while not recorder.of(ev.SeatHandedToAI):
        await clock.advance(90)
        await svc.idle()
    assert len(recorder.of(ev.TurnTimedOut)) == 2
    snap = svc.snapshot(CHANNEL)
    assert snap is not None and snap.seats[0] is not None and snap.seats[0].away
    # One click brings her back.
    await svc.come_back(CHANNEL, ANNA.user_id)
    await svc.idle()
    assert recorder.of(ev.SeatReturned)[0].seat == 0
    snap = svc.snapshot(CHANNEL)
    assert snap is not None and snap.seats[0] is not None and not snap.seats[0].away
    await svc.close()


async def test_refused_commands_change_nothing(storage: Storage) -> None:
    clock, recorder = FakeClock(), Recorder()
    svc = service(storage, clock, recorder)
    await svc.open_table(GUILD, CHANNEL, ANNA)
    for member in (BERT, CARLA, DIRK):
        await svc.join(CHANNEL, member)
    await svc.start(CHANNEL, ANNA.user_id)
    await svc.idle()
    # Seat 1 (Bert) bids first: Anna is refused with a reason and nothing changes.
    before = svc.panel(CHANNEL, ANNA.user_id)
    with pytest.raises(TableError, match="It's Bert's turn"):
        await svc.bid(CHANNEL, ANNA.user_id, "healthy", game=before.game_number, expected=0)
    for member in (BERT, CARLA, DIRK, ANNA):
        await svc.bid(
            CHANNEL,
            member.user_id,
            "healthy",
            game=1,
            expected=svc.panel(CHANNEL, member.user_id).turn_no,
        )
    panel = svc.panel(CHANNEL, BERT.user_id)
    assert panel.is_turn and panel.view.phase is Phase.PLAY
    card = sorted(panel.playable)[0]
    await svc.play(CHANNEL, BERT.user_id, card, game=1, expected=panel.turn_no)
    # A double click: the same button again is out of date and is not applied twice.
    with pytest.raises(TableError, match="That button is out of date") as err:
        await svc.play(CHANNEL, BERT.user_id, card, game=1, expected=panel.turn_no)
    assert err.value.code == "stale"
    assert svc.snapshot(CHANNEL).action_no == panel.action_no + 1  # type: ignore[union-attr]
    # An illegal card names the rule.
    carla = svc.panel(CHANNEL, CARLA.user_id)
    illegal = [c for c in carla.cards if c not in carla.playable]
    assert illegal  # with this seed Carla cannot play everything
    with pytest.raises(TableError, match=r"You must (follow|play a trump)"):
        await svc.play(CHANNEL, CARLA.user_id, illegal[0], game=1, expected=carla.turn_no)
    # Two Re partners announcing at the same instant: the second is refused.
    re_members = [
        m for m in (ANNA, BERT, CARLA, DIRK) if "re" in svc.panel(CHANNEL, m.user_id).announcements
    ]
    assert len(re_members) == 2  # a normal game with this seed
    await svc.announce(CHANNEL, re_members[0].user_id, "re", game=1)
    with pytest.raises(TableError, match="Re has already been announced"):
        await svc.announce(CHANNEL, re_members[1].user_id, "re", game=1)
    kontra = next(m for m in (ANNA, BERT, CARLA, DIRK) if m not in re_members)
    with pytest.raises(TableError, match="You play for Kontra: announce Kontra, not Re"):
        await svc.announce(CHANNEL, kontra.user_id, "re", game=1)
    await svc.idle()
    assert [(e.seat, e.word) for e in recorder.of(ev.AnnouncementMade)] == [
        ((ANNA, BERT, CARLA, DIRK).index(re_members[0]), "re")
    ]
    await svc.close()


async def test_table_is_restored_after_a_restart(database: str) -> None:
    """On SQLite and on PostgreSQL: the game resumes at the card where it stopped."""
    path = database
    rng = random.Random(3)
    members = (ANNA, BERT, CARLA, DIRK)
    storage = await Storage.open(path)
    first = service(storage, FakeClock(), Recorder())
    await first.open_table(GUILD, CHANNEL, ANNA)
    for member in members[1:]:
        await first.join(CHANNEL, member)
    await first.start(CHANNEL, ANNA.user_id)
    for _ in range(4 + 4 * 5 + 2):  # the bids, five tricks and two cards of the sixth
        seat = first.snapshot(CHANNEL).to_act  # type: ignore[union-attr]
        await human_move(first, members[seat], rng)  # type: ignore[index]
    before = {m.user_id: first.panel(CHANNEL, m.user_id) for m in members}
    await first.close()
    await storage.close()
    del first

    storage = await Storage.open(path)
    recorder = Recorder()
    second = service(storage, FakeClock(), recorder)
    restored = await second.restore()
    assert [t.status for t in restored] == ["playing"]
    await second.idle()
    assert recorder.of(ev.TableResumed)
    for member in members:
        panel = second.panel(CHANNEL, member.user_id)
        assert panel.cards == before[member.user_id].cards
        assert panel.playable == before[member.user_id].playable
        assert panel.action_no == before[member.user_id].action_no
    # The game goes on to the end.
    while not recorder.of(ev.GameOver):
        seat = second.snapshot(CHANNEL).to_act  # type: ignore[union-attr]
        await human_move(second, members[seat], rng)  # type: ignore[index]
        await second.idle()
    assert sum(recorder.of(ev.GameOver)[0].result["scores"]) == 0
    await second.close()
    await storage.close()


async def test_each_process_restores_only_the_tables_of_its_shards(database: str) -> None:
    """Two bot processes over one database: each brings back the tables of its servers."""
    other_guild, other_channel = GUILD + 1, CHANNEL + 1
    storage = await Storage.open(database)
    first = service(storage, FakeClock(), Recorder())
    await first.open_table(GUILD, CHANNEL, ANNA)
    await first.open_table(other_guild, other_channel, BERT)
    await first.close()
    await storage.close()

    restored = {}
    for name, guild in (("a", GUILD), ("b", other_guild)):
        storage = await Storage.open(database)
        svc = service(storage, FakeClock(), Recorder(), owns=lambda g, mine=guild: g == mine)
        restored[name] = [t.channel_id for t in await svc.restore()]
        await svc.close()
        await storage.close()
    assert restored == {"a": [CHANNEL], "b": [other_channel]}


async def test_ai_turns_are_paced_for_humans(storage: Storage) -> None:
    clock, recorder = FakeClock(), Recorder()
    svc = service(storage, clock, recorder, ai_pause=1.5)
    await svc.open_table(GUILD, CHANNEL, ANNA)
    await svc.start(CHANNEL, ANNA.user_id)
    await asyncio.sleep(0.05)  # the AI of seat 1 starts waiting for its pause
    # Seats 1-3 (AI) bid first, each after the pause.
    await clock.advance(1.4)
    assert not recorder.of(ev.BidMade)
    await clock.advance(0.2)
    for _ in range(200):  # the AI's move itself runs off the loop: give it real time
        if recorder.of(ev.BidMade):
            break
        await asyncio.sleep(0.01)
    await svc.idle_events()
    assert len(recorder.of(ev.BidMade)) == 1
    await clock.advance(1.0)
    await asyncio.sleep(0.05)
    assert len(recorder.of(ev.BidMade)) == 1  # the second AI still waits for its pause
    await svc.close()


def test_cards_in_events_are_cards() -> None:
    assert Card.parse("CQ") is Card.CQ


async def test_the_marriage_partner_is_announced(storage: Storage) -> None:
    # Seed 37 deals both queens of clubs to seat 0 (Anna): she announces a marriage.
    recorder = Recorder()
    svc = service(storage, FakeClock(), recorder, seed_source=lambda: 37)
    await svc.open_table(GUILD, CHANNEL, ANNA)
    await svc.start(CHANNEL, ANNA.user_id, ai_level="random")
    await svc.idle()
    panel = svc.panel(CHANNEL, ANNA.user_id)
    assert panel.cards.count(Card.CQ) == 2
    await svc.bid(CHANNEL, ANNA.user_id, "marriage", game=panel.game_number, expected=panel.turn_no)
    rng = random.Random(1)
    while not recorder.of(ev.MarriageSettled):
        await svc.idle()
        if svc.snapshot(CHANNEL).to_act == 0:  # type: ignore[union-attr]
            await human_move(svc, ANNA, rng)
    settled = recorder.of(ev.MarriageSettled)[0]
    first = recorder.of(ev.TrickCompleted)[0].trick
    # docs/rules.md §4: the first trick not won by Anna finds her partner.
    assert (settled.seat, settled.trick) == (0, len(recorder.of(ev.TrickCompleted)))
    if settled.partner is not None:
        assert settled.partner == recorder.of(ev.TrickCompleted)[-1].trick.winner != 0
    else:
        assert first.winner == 0 and settled.trick == 3
    await svc.close()


async def test_ai_seats_keep_their_names_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "names.sqlite3"
    storage = await Storage.open(path)
    first = service(storage, FakeClock(), Recorder())
    await first.open_table(GUILD, CHANNEL, ANNA)
    await first.start(CHANNEL, ANNA.user_id)
    await first.idle()
    names = first.snapshot(CHANNEL).names  # type: ignore[union-attr]
    assert names == ("Anna", "Bot Berta", "Bot Cäsar", "Bot Dora")
    await first.close()
    await storage.close()

    storage = await Storage.open(path)
    second = service(storage, FakeClock(), Recorder())
    await second.restore()
    assert second.snapshot(CHANNEL).names == names  # type: ignore[union-attr]
    await second.close()
    await storage.close()


async def any_move(svc: TableService, member: Member, rng: random.Random) -> None:
    """One of ``member``'s legal actions at random, through the service's commands: a
    reservation of any kind, a poverty's steps, a card, and often an announcement or a
    declaration where one is open."""
    panel = svc.panel(CHANNEL, member.user_id)
    game, n, user = panel.game_number, panel.turn_no, member.user_id
    calls = [a for a in panel.view.legal if isinstance(a, Announce | Declare | Genscher)]
    turn = [a for a in panel.view.legal if a not in calls]
    action = rng.choice(calls) if calls and (rng.random() < 0.3 or not turn) else rng.choice(turn)
    if isinstance(action, Announce):
        party = panel.view.own_party
        assert party is not None
        word = party.value if action.level is Announcement.PARTY else action.level.name.lower()
        await svc.announce(CHANNEL, user, word, game=game)
    elif isinstance(action, Declare):
        await svc.declare(CHANNEL, user, action.what.value, game=game)
    elif isinstance(action, Genscher):
        await svc.genscher(CHANNEL, user, action.partner, game=game, expected=n)
    elif isinstance(action, Bid):
        await svc.bid(CHANNEL, user, action.reservation.value, game=game, expected=n)
    elif isinstance(action, PassCards):
        await svc.poverty_pass(CHANNEL, user, action.cards, game=game, expected=n)
    elif isinstance(action, PovertyReply):
        await svc.poverty_reply(CHANNEL, user, action.accept, game=game, expected=n)
    elif isinstance(action, ReturnCards):
        await svc.poverty_return(CHANNEL, user, action.cards, game=game, expected=n)
    else:
        assert isinstance(action, Play)
        await svc.play(CHANNEL, user, action.card, game=game, expected=n)


@pytest.mark.parametrize("seed", range(40))
async def test_a_table_plays_its_games_under_house_rules_drawn_at_random(
    storage: Storage, seed: int, caplog: pytest.LogCaptureFixture
) -> None:
    """Anna makes any legal move (throw, poverty, solo, Schweinchen, Genscher, every
    announcement), the AI seats play theirs: two games end, scored zero-sum, and the
    table logs no warning or error."""
    rng = random.Random(seed)
    rules = house_rules(rng)
    recorder = Recorder()
    svc = service(storage, FakeClock(), recorder, between_games=0.0)
    await svc.open_table(GUILD, CHANNEL, ANNA, settings={"rules": rules.to_dict()})
    level = rng.choice(["heuristic", "easy", "random"])
    with caplog.at_level(logging.WARNING):
        await svc.start(CHANNEL, ANNA.user_id, ai_level=level, deals=2)
        for _ in range(2000):
            await svc.idle()
            if len(recorder.of(ev.GameOver)) == 2 or recorder.of(ev.TableClosed):
                break
            snapshot = svc.snapshot(CHANNEL)
            assert snapshot is not None
            seat = None if snapshot.to_act is None else snapshot.seats[snapshot.to_act]
            if seat is not None and seat.player_id == ANNA.user_id:
                await any_move(svc, ANNA, rng)
    over = recorder.of(ev.GameOver)
    assert [sum(g.result["scores"]) for g in over] == [0, 0], rules.to_dict()
    assert not recorder.of(ev.TableClosed)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    await svc.close()
