"""The bot under what real Discord does: latency, many tables, failures, vanishing channels."""

from __future__ import annotations

import asyncio
import gzip
import json
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import discord
import pytest

from cogs.delivery import RequestBudget
from cogs.doko import export_parts
from dokobot.engine import Phase

from .conftest import close_storage, make_bot
from .helpers import (
    answer,
    buttons,
    message,
    open_panel,
    public_messages,
    reply,
    started_tables,
    table_message,
    take_turn,
    whose_turn,
    world,
)
from .realism import (
    VirtualClock,
    advance_until,
    delete_channel,
    latency,
    remove_bot,
    requests_to,
    slow_commits,
    virtual_sleep,
)

pytestmark = pytest.mark.usefixtures("bodies_match_discords_schema")


@pytest.fixture
def simcord_bot(db_path: Path) -> Any:
    # Real pacing: AI players take 1.2 s a move, the next game comes after 6 s, one
    # public post a second per channel, 40 channel requests a second bot-wide.
    bot = make_bot(
        db_path,
        ai_pause=1.2,
        between_games=6.0,
        post_interval=1.0,
        requests_per_second=40,
        clock=VirtualClock(),
    )
    yield bot


def results(channel: Any) -> list[str]:
    return [m.content for m in public_messages(channel) if re.match(r"Game \d+: ", m.content)]


@pytest.mark.simcord(settle_timeout=60)
async def test_ten_tables_at_once_all_finish_and_then_stop(simcord_env: Any) -> None:
    """Ten tables play at once with 200 ms per request, one channel failing every post."""
    guild = simcord_env.create_guild()
    tables = []
    with latency(0.2):
        for i in range(10):
            channel = guild.create_text_channel(f"table-{i}")
            player = guild.add_member(simcord_env.create_user(f"p{i}"))
            await player.slash(channel, "doko new")
            await simcord_env.advance_time(1)
            await player.click(table_message(channel), label="Start")
            await simcord_env.advance_time(1)
            tables.append((player, channel))
        broken = tables[0][1]
        simcord_env.inject_error(
            "POST", f"/channels/{broken.id}/messages", status=500, code=0, times=None
        )
        # Every player leaves at once: the AI finishes each game, then the table stops.
        for player, channel in tables:
            asked = await player.click(table_message(channel), label="Leave")
            await simcord_env.advance_time(1)
            assert "Leave the game?" in reply(asked)
            await player.click(answer(asked), label="Yes, leave")
        await advance_until(
            simcord_env,
            lambda: all(results(c) for _, c in tables[1:]),
            step=10,
            limit=400,
        )
        await simcord_env.advance_time(30)
    bot = simcord_env.bot
    for _, channel in tables[1:]:
        assert len(results(channel)) == 1
        tricks = [m for m in public_messages(channel) if m.content.startswith("Trick ")]
        assert len(tricks) in (0, 12)  # 0: a redeal
        assert "table closed (no human players left)" in table_message(channel).content
    # The failing channel held nobody up, and its game was played and saved all the same.
    assert all(bot.tables.snapshot(c.id) is None for _, c in tables)
    assert await bot.storage.tables.live() == []
    sheet = [await bot.storage.games.games_in_session(s) for s in range(1, 11)]
    assert sheet == [1] * 10


async def test_new_under_latency_posts_exactly_one_table_message(simcord_env: Any) -> None:
    _guild, channel, (anna, bert) = world(simcord_env, "anna", "bert")
    with latency(0.3):
        opened = await anna.slash(channel, "doko new")
        await simcord_env.advance_time(0.5)
        assert opened.acknowledged  # deferred before anything else: well within 3 s
        await simcord_env.advance_time(5)
        assert "Table opened" in reply(opened)
        tables = [m for m in public_messages(channel) if m.content.startswith("**Doppelkopf**")]
        assert len(tables) == 1
        joined = await bert.click(tables[0], label="Join")
        await simcord_env.advance_time(5)
        assert reply(joined).startswith("You sit at the table.\nRules: DDV")
    assert "2. bert" in table_message(channel).content


async def test_a_deleted_table_message_is_posted_again(simcord_env: Any) -> None:
    _guild, channel, (anna, bert) = world(simcord_env, "anna", "bert")
    await anna.slash(channel, "doko new")
    first = table_message(channel)
    simcord_env.backend.delete_message(channel.id, first.id)
    await bert.slash(channel, "doko join")
    again = table_message(channel)
    assert again.id != first.id and "2. bert" in again.content


async def until_anna_plays(env: Any, channel: Any, anna: Any, bert: Any) -> None:
    """Say healthy and play cards for both humans until it is anna's turn to play a card."""
    bot = env.bot
    for _ in range(40):
        snapshot = bot.tables.snapshot(channel.id)
        if snapshot.phase is Phase.PLAY and snapshot.to_act == 0:
            return
        turn = whose_turn(channel)
        if turn is None:
            await env.advance_time(2)
            continue
        actor = anna if turn == anna.id else bert
        panel = bot.tables.panel(channel.id, actor.id)
        if panel.bids:
            await actor.slash(channel, "doko bid", what="healthy")
        else:
            await actor.slash(channel, "doko play", card=sorted(panel.playable)[0].name)
        await env.advance_time(2)
    raise AssertionError("anna never got a turn")


async def test_an_opponents_re_right_before_a_click_does_not_refuse_it(simcord_env: Any) -> None:
    _guild, channel, (anna, bert) = world(simcord_env, "anna", "bert")
    bot = simcord_env.bot
    await anna.slash(channel, "doko new")
    await bert.slash(channel, "doko join")
    await anna.slash(channel, "doko start")
    await until_anna_plays(simcord_env, channel, anna, bert)
    panel = answer(await anna.click(table_message(channel), label="My cards"))
    before = bot.tables.panel(channel.id, anna.id)
    said = bot.tables.panel(channel.id, bert.id).announcements[0]
    announced = await bert.slash(channel, "doko announce", what=said)
    assert reply(announced).startswith("You announced")
    card = next(
        b for b in buttons(panel) if b["custom_id"].startswith("doko:c:") and not b.get("disabled")
    )
    played = await anna.click(panel, custom_id=card["custom_id"])
    assert "out of date" not in answer(played).content
    after = bot.tables.panel(channel.id, anna.id)
    assert len(after.cards) == len(before.cards) - 1
    # Her panel offers the answer to bert's announcement now (Kontra to his Re, or Re).
    assert after.announcements


async def test_a_slow_write_still_answers_within_three_seconds(simcord_env: Any) -> None:
    _guild, channel, (anna,) = world(simcord_env, "anna")
    bot = simcord_env.bot
    await anna.slash(channel, "doko new")
    await anna.click(table_message(channel), label="Start")
    await advance_until(simcord_env, lambda: whose_turn(channel) == anna.id, step=1, limit=30)
    panel = answer(await anna.click(table_message(channel), label="My cards"))
    slow_commits(bot, 3.5)
    clicked = await anna.click(panel, label="Healthy")
    # Acknowledged at once, although the move's commit takes 3.5 s.
    assert clicked.acknowledged
    await simcord_env.advance_time(4)
    assert bot.tables.snapshot(channel.id).action_no >= 1
    assert "Healthy" not in [b["label"] for b in buttons(clicked.response)]


async def test_failing_panel_edits_hold_up_no_table(
    simcord_env: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Every edit of every private panel answers 429: both tables play on regardless."""
    seats = await started_tables(simcord_env, "anna", "bert")
    simcord_env.inject_error(
        "PATCH",
        "/webhooks/*",
        status=429,
        code=0,
        message="You are being rate limited.",
        times=None,
    )
    bot = simcord_env.bot
    for _ in range(60):
        await simcord_env.advance_time(2)
        for player, channel in seats:
            if bot.tables.snapshot(channel.id).to_act != 0:
                continue
            panel = bot.tables.panel(channel.id, player.id)
            if panel.bids:
                await player.slash(channel, "doko bid", what="healthy")
            else:
                await player.slash(channel, "doko play", card=sorted(panel.playable)[0].name)
    for _, channel in seats:
        tricks = [m for m in public_messages(channel) if m.content.startswith("Trick ")]
        assert len(tricks) >= 8, [m.content for m in public_messages(channel)][-3:]
    # No move was reported as failed: only showing the panels did.
    assert not [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]


async def test_a_deleted_channel_gets_no_more_requests_even_after_a_restart(
    simcord_env: Any, db_path: Path
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("doppelkopf")
    other = guild.create_text_channel("other")
    anna = guild.add_member(simcord_env.create_user("anna"))
    await anna.slash(channel, "doko new")
    await anna.click(table_message(channel), label="Start")
    await anna.slash(other, "doko new")
    await simcord_env.advance_time(5)
    mark = len(simcord_env.http_requests)
    await delete_channel(simcord_env, channel)
    await simcord_env.advance_time(600)  # turn timers, AI moves, next games: nothing may post
    assert requests_to(simcord_env, channel, mark) == []
    bot = simcord_env.bot
    assert bot.tables.snapshot(channel.id) is None
    assert bot.tables.snapshot(other.id) is not None
    await close_storage(bot)
    await simcord_env.restart_bot(make_bot(db_path))
    await simcord_env.advance_time(60)
    assert simcord_env.bot.tables.snapshot(channel.id) is None
    assert requests_to(simcord_env, channel, mark) == []


async def test_a_lost_permission_closes_the_table_and_tells_the_owner(simcord_env: Any) -> None:
    _guild, channel, (anna,) = world(simcord_env, "anna")
    await anna.slash(channel, "doko new")
    await anna.click(table_message(channel), label="Start")
    simcord_env.inject_error(
        "*",
        f"/channels/{channel.id}/*",
        status=403,
        code=50013,
        message="Missing Permissions",
        times=None,
    )
    await anna.slash(channel, "doko bid", what="healthy")
    await simcord_env.advance_time(30)
    mark = len(simcord_env.http_requests)
    await simcord_env.advance_time(600)
    assert simcord_env.bot.tables.snapshot(channel.id) is None
    assert requests_to(simcord_env, channel, mark) == []
    dms = [m.content for m in anna.user.dm_channel.history()]
    assert any("lost the permissions I need" in text for text in dms), dms


async def test_removed_from_the_server_closes_its_tables(simcord_env: Any) -> None:
    guild, channel, (anna,) = world(simcord_env, "anna")
    await anna.slash(channel, "doko new")
    await anna.click(table_message(channel), label="Start")
    mark = len(simcord_env.http_requests)
    await remove_bot(simcord_env, guild)
    await simcord_env.advance_time(300)
    assert simcord_env.bot.tables.snapshot(channel.id) is None
    assert await simcord_env.bot.storage.tables.live() == []
    assert requests_to(simcord_env, channel, mark) == []


async def test_a_table_that_cannot_be_restored_is_set_aside(
    simcord_env: Any, db_path: Path
) -> None:
    guild = simcord_env.create_guild()
    broken, fine = guild.create_text_channel("broken"), guild.create_text_channel("fine")
    anna = guild.add_member(simcord_env.create_user("anna"))
    for channel in (broken, fine):
        await anna.slash(channel, "doko new")
        await anna.click(table_message(channel), label="Start")
    bot = simcord_env.bot
    await close_storage(bot)
    with sqlite3.connect(db_path) as db:  # the first table's game log is damaged
        db.execute(
            'UPDATE games SET header = \'{"format": "nonsense"}\' WHERE game_id = '
            "(SELECT min(game_id) FROM games)"
        )
    await simcord_env.restart_bot(make_bot(db_path))
    fresh = simcord_env.bot
    assert fresh.tables.snapshot(broken.id) is None
    assert fresh.tables.snapshot(fine.id) is not None
    assert any("could not be restored" in m.content for m in public_messages(broken))
    assert any("carries on where it stopped" in m.content for m in public_messages(fine))
    assert not any("carries on" in m.content for m in public_messages(broken))


async def test_leaving_asks_first_and_the_seat_can_be_taken_back(simcord_env: Any) -> None:
    _guild, channel, (anna, bert) = world(simcord_env, "anna", "bert")
    await anna.slash(channel, "doko new")
    await bert.slash(channel, "doko join")
    await anna.slash(channel, "doko start")
    asked = await bert.slash(channel, "doko leave")
    assert "Leave the game?" in reply(asked)
    assert "(AI plays)" not in table_message(channel).content  # nothing changed yet
    left = await bert.click(answer(asked), label="Yes, leave")
    assert "the AI plays your seat" in reply(left)
    await simcord_env.advance_time(2)  # the table message is redrawn at the channel's pace
    assert "bert (AI plays)" in table_message(channel).content
    back = (
        await bert.click(table_message(channel), label="Join")
        if any(b["label"] == "Join" for b in buttons(table_message(channel)))
        else await bert.slash(channel, "doko join")
    )
    assert reply(back) == "You take your seat back from the AI. Press **My cards**."
    await simcord_env.advance_time(2)
    assert "bert (AI plays)" not in table_message(channel).content


async def test_a_manager_gives_an_idle_seat_to_another_user(simcord_env: Any) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("doppelkopf")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    anna = guild.add_member(simcord_env.create_user("anna"))
    bert = guild.add_member(simcord_env.create_user("bert"))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    carla = guild.add_member(simcord_env.create_user("carla"))
    await anna.slash(channel, "doko new")
    await bert.slash(channel, "doko join")
    await anna.slash(channel, "doko start")
    refused = await carla.slash(channel, "doko kick", seat=2)
    assert reply(refused) == "Only the table's owner (anna) can do that."
    handed = await mod.slash(channel, "doko kick", seat=2, replacement=carla)
    assert reply(handed) == "carla takes seat 2."
    assert "2. carla" in table_message(channel).content
    cards = simcord_env.bot.tables.panel(channel.id, carla.id).cards
    assert len(cards) == 12  # bert's hand, now carla's


async def test_the_panel_follows_the_player_when_it_scrolls_away(simcord_env: Any) -> None:
    _guild, channel, (anna,) = world(simcord_env, "anna")
    bot = simcord_env.bot
    await anna.slash(channel, "doko new")
    await anna.click(table_message(channel), label="Start")
    panel = answer(await anna.click(table_message(channel), label="My cards"))
    first = panel.id

    def newest_panel() -> Any:
        return [
            m
            for m in channel.history(viewer=anna)
            if m.flags.ephemeral and any(a.filename == "hand.png" for a in m.attachments)
        ][-1]

    for _ in range(200):
        snapshot = bot.tables.snapshot(channel.id)
        if snapshot is None or snapshot.game_number is None or snapshot.tricks_played >= 11:
            break
        if snapshot.to_act != 0:
            await simcord_env.advance_time(2)
            continue
        panel = newest_panel()  # she always uses the newest panel
        enabled = [
            b
            for b in buttons(panel)
            if b["custom_id"].startswith(("doko:c:", "doko:b:")) and not b.get("disabled")
        ]
        assert enabled, panel.content
        await anna.click(panel, custom_id=enabled[0]["custom_id"])
    panel = newest_panel()
    assert panel.id != first, "after 8 public posts a fresh panel came below them"
    later = [m for m in public_messages(channel) if m.id > first]
    assert len(later) >= 8
    # Nobody but anna sees her panel.
    assert all(m.id != panel.id for m in public_messages(channel))


async def test_the_request_budget_keeps_under_the_global_limit() -> None:
    loop = asyncio.get_running_loop()
    budget = RequestBudget(5)
    times = []
    for _ in range(12):
        await budget.acquire()
        times.append(loop.time())
    # Never more than five requests in any one second.
    for i in range(len(times) - 5):
        assert times[i + 5] - times[i] >= 0.95


def test_exports_are_compressed_and_split_under_the_upload_limit() -> None:
    rng = random.Random(5)
    lines = [json.dumps({"game": i, "actions": rng.choices("ABCDEFGH", k=300)}) for i in range(400)]
    whole = export_parts(lines, 10**9)
    assert len(whole) == 1 and len(whole[0]) < len("\n".join(lines)) / 3
    parts = export_parts(lines, 8_000)
    assert len(parts) > 1 and all(len(p) <= 8_000 for p in parts)
    back = [line for p in parts for line in gzip.decompress(p).decode().splitlines()]
    assert back == lines


async def test_a_slowly_drawn_panel_never_overwrites_a_newer_one(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anna's click takes 5 s to draw (a busy renderer, a slow request) while the three
    AI seats play on (1.2 s a move) and the turn comes back to her: the older picture of
    her click must not land after the newer one, so her panel ends on her turn."""
    import cogs.doko
    import cogs.presenter

    drawn = cogs.presenter.hand_panel

    async def slow(*args: Any, **kwargs: Any) -> Any:
        out = await drawn(*args, **kwargs)
        await virtual_sleep(5.0, "slow drawing")
        return out

    _, channel, (anna,) = world(simcord_env, "anna")
    await anna.slash(channel, "doko new")
    await anna.click(table_message(channel), label="Start")
    panel = await open_panel(anna, channel)
    await simcord_env.advance_time(10)
    monkeypatch.setattr(cogs.presenter, "hand_panel", slow)
    monkeypatch.setattr(cogs.doko, "hand_panel", slow)
    turns = 0
    for _ in range(3):  # the bid and two cards
        current = message(channel, anna, panel.id)
        assert whose_turn(channel) == anna.id
        assert "**Your turn:**" in current.content
        await take_turn(anna, current)
        for _ in range(20):  # the AIs' moves, their redraw, then the click's own picture
            await simcord_env.advance_time(0.5)
        turns += 1
    assert turns == 3
    assert whose_turn(channel) == anna.id
    assert "**Your turn:**" in message(channel, anna, panel.id).content
