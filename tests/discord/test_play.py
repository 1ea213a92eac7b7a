"""Playing through Discord: slash commands, mistakes, poverty, timeouts, restarts, failures."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import discord
import pytest

from dokobot.engine import NORMAL_ORDER, RuleSet, Session, settle, trump_count

from .conftest import close_storage, make_bot
from .helpers import (
    answer,
    buttons,
    message,
    open_panel,
    public_messages,
    reply,
    table_message,
    take_turn,
    whose_turn,
    world,
)
from .openapi_check import problems, spec

pytestmark = pytest.mark.usefixtures("bodies_match_discords_schema")


async def seat_everyone(channel: Any, owner: Any, others: list[Any]) -> None:
    await owner.slash(channel, "doko new")
    for other in others:
        await other.click(table_message(channel), label="Join")


async def test_four_humans_play_with_slash_commands(simcord_env: Any) -> None:
    _, channel, players = world(simcord_env, "anna", "bert", "carla", "dirk")
    by_id = {p.id: p for p in players}
    await seat_everyone(channel, players[0], players[1:])
    await players[0].slash(channel, "doko start")
    turns = 0
    while not any(m.content.startswith("Game 1:") for m in public_messages(channel)):
        player = by_id[whose_turn(channel)]  # type: ignore[index]
        hand = await player.slash(channel, "doko hand")
        assert hand.ephemeral and [a.filename for a in hand.response.attachments] == ["hand.png"]
        if "healthy, or a reservation" in hand.response.content:
            offered = await player.autocomplete(channel, "doko bid", "what", "")
            assert "healthy" in [c["value"] for c in offered]
            result = await player.slash(channel, "doko bid", what="healthy")
        else:
            offered = await player.autocomplete(channel, "doko play", "card", "")
            assert offered, "autocomplete offers the legal cards"
            result = await player.slash(channel, "doko play", card=offered[0]["value"])
        assert result.ephemeral
        turns += 1
        assert turns <= 52
    assert turns == 4 + 48
    # Every hand went only to its owner: nobody sees another player's panel.
    for viewer in players:
        for m in channel.history(viewer=viewer):
            if any(a.filename == "hand.png" for a in m.attachments):
                assert m.flags.ephemeral
    assert len([m for m in public_messages(channel) if m.content.startswith("Trick ")]) == 12
    sheet = await players[1].slash(channel, "doko scores")
    assert [a.filename for a in answer(sheet).attachments] == ["score-sheet.png"]
    board = await players[1].slash(channel, "doko leaderboard", period="month")
    assert [a.filename for a in answer(board).attachments] == ["leaderboard.png"]


async def test_mistakes_get_specific_private_answers(simcord_env: Any) -> None:
    bot = simcord_env.bot
    _, channel, (anna,) = world(simcord_env, "anna")
    await anna.slash(channel, "doko new")
    await anna.click(table_message(channel), label="Start")
    first = await open_panel(anna, channel)
    second = await open_panel(anna, channel)  # an older copy of the panel stays around
    await anna.click(second, label="Healthy")
    # The same button on the older copy is out of date: refused, the panel redrawn.
    stale = await anna.click(first, label="Healthy")
    assert "That button is out of date" in stale.response.content
    # Play until anna has a card she may not play, then try it.
    for _ in range(12):
        panel = bot.tables.panel(channel.id, anna.id)
        illegal = [c for c in panel.cards if c not in panel.playable]
        if whose_turn(channel) == anna.id and illegal:
            refused = await anna.slash(channel, "doko play", card=illegal[0].name)
            assert reply(refused).startswith(("You must follow", "You must play a trump"))
            break
        card = sorted(panel.playable)[0]
        await anna.slash(channel, "doko play", card=card.name)
    else:
        pytest.fail("anna always could play every card")
    # Her partner announced Kontra at the start; after her third card no 90 is too late.
    assert bot.tables.snapshot(channel.id).announcements == ((2, "kontra"),)
    while len(bot.tables.panel(channel.id, anna.id).cards) > 9:
        card = sorted(bot.tables.panel(channel.id, anna.id).playable)[0]
        await anna.slash(channel, "doko play", card=card.name)
    late = await anna.slash(channel, "doko announce", what="no90")
    assert reply(late) == "Too late for no 90: you have 9 cards, no 90 needs 10"
    again = await anna.slash(channel, "doko announce", what="kontra")
    assert reply(again) == "Kontra has already been announced"
    unknown = await anna.slash(channel, "doko play", card="X7")
    assert reply(unknown) == "I don't know the card 'X7': write it like ♣Q, ♥10 or CQ."


async def test_reservation_buttons(simcord_env: Any) -> None:
    _, channel, (anna,) = world(simcord_env, "anna")
    await anna.slash(channel, "doko new")
    await anna.slash(channel, "doko start", ai_level="random")  # random AIs always say healthy
    panel = await open_panel(anna, channel)
    labels = [b["label"] for b in buttons(panel)]
    assert labels[:3] == ["Healthy", "Queen solo", "Jack solo"]
    result = await anna.click(panel, label="Queen solo")
    assert "Queen solo" in result.response.content
    assert "Contract: Queen solo (Damensolo) (anna)" in table_message(channel).content


def poverty_seed() -> int:
    """A session seed whose first deal gives seat 0 (anna, the dealer) at most three trumps."""
    rules = RuleSet(poverty=True)
    for seed in range(1000):
        setup = Session.start(rules).next_setup(random.Random(f"{seed}:0"))
        if trump_count(setup.hands[0]) <= 3:
            return seed
    raise AssertionError("no poverty deal found")


@pytest.fixture
async def simcord_bot(db_path: Path, request: Any) -> Any:
    seed = poverty_seed() if request.node.name.startswith("test_poverty") else 7
    if request.node.name.startswith("test_marriage"):
        seed = 37  # both queens of clubs for anna (seat 0)
    bot = make_bot(db_path, seed_source=lambda: seed)
    yield bot
    await close_storage(bot)


async def test_poverty_exchange_with_a_select_menu(simcord_env: Any) -> None:
    _, channel, (anna,) = world(simcord_env, "anna", manager=True)
    changed = await anna.slash(channel, "doko-admin rules", key="poverty", value="true")
    assert "Rule **poverty** is now `true`" in reply(changed)
    await anna.slash(channel, "doko new")
    await anna.slash(channel, "doko start", ai_level="random")
    panel = await open_panel(anna, channel)
    assert "Poverty" in [b["label"] for b in buttons(panel)]
    result = await anna.click(panel, label="Poverty")
    panel = result.response
    assert "put down 3 cards, all your trumps among them" in panel.content
    select = next(c for row in panel.components for c in row["components"] if c["type"] == 3)
    # Put down the trumps (the options are numbered in the hand's order, trumps first).
    trumps = sum(
        1
        for c in simcord_env.bot.tables.panel(channel.id, anna.id).cards
        if NORMAL_ORDER.is_trump(c)
    )
    values = [o["value"] for o in select["options"]][: max(3, trumps)][:3]
    assert len(values) == 3
    await anna.select(panel, values, custom_id=select["custom_id"])
    texts = [m.content for m in public_messages(channel)]
    assert any("**anna** is poor (Armut) and puts down 3 cards" in t for t in texts)
    assert any("takes the poverty" in t or "declines the poverty" in t for t in texts)


async def test_marriage_names_the_partner_to_the_channel(simcord_env: Any) -> None:
    _, channel, (anna,) = world(simcord_env, "anna")
    await anna.slash(channel, "doko new")
    await anna.slash(channel, "doko start", ai_level="random")
    panel = await open_panel(anna, channel)
    result = await anna.click(panel, label="Marriage")
    panel = result.response
    for _ in range(12):
        texts = [m.content for m in public_messages(channel)]
        said = [t for t in texts if t.startswith("💍")]
        if said:
            break
        panel = (await take_turn(anna, message(channel, anna, panel.id))).response
    assert len(said) == 1
    partner = re.fullmatch(
        r"💍 \*\*(Bot \w+)\*\* won trick ([123]) and plays with \*\*anna\*\* \(marriage\)\.",
        said[0],
    )
    alone = "💍 **anna** won the first three tricks and plays the marriage alone."
    assert partner or said[0] == alone, said[0]


async def test_turn_timeout_hands_the_seat_to_the_ai(simcord_env: Any) -> None:
    _, channel, (anna,) = world(simcord_env, "anna")
    await anna.slash(channel, "doko new")
    await anna.click(table_message(channel), label="Start")
    assert whose_turn(channel) == anna.id
    await simcord_env.advance_time(60)
    assert any(
        m.content == f"⏰ <@{anna.id}>, 30 seconds left for your turn."
        for m in public_messages(channel)
    )
    await simcord_env.advance_time(30)
    assert any(
        m.content[2:] == "anna ran out of time: the AI said healthy for them."
        for m in public_messages(channel)
    )
    for _ in range(3):
        if any("The AI plays for anna" in m.content for m in public_messages(channel)):
            break
        await simcord_env.advance_time(90)
    assert any(
        "The AI plays for anna until they return" in m.content for m in public_messages(channel)
    )
    assert (
        "anna ★ (AI plays)" in table_message(channel).content
        or "(AI plays)" in table_message(channel).content
    )
    mine = await anna.click(table_message(channel), label="My cards")
    panel = answer(mine)
    assert "I'm back" in [b["label"] for b in buttons(panel)]
    back = await anna.click(panel, label="I'm back")
    assert back.response is not None
    assert "(AI plays)" not in table_message(channel).content


async def test_restart_mid_trick_loses_nothing(simcord_env: Any, db_path: Path) -> None:
    _, channel, (anna,) = world(simcord_env, "anna")
    await anna.slash(channel, "doko new")
    await anna.click(table_message(channel), label="Start")
    await anna.slash(channel, "doko bid", what="healthy")
    bot = simcord_env.bot
    # Play until it is anna's turn in the middle of a trick.
    for _ in range(12):
        snapshot = bot.tables.snapshot(channel.id)
        if snapshot.trick and snapshot.to_act == 0:
            break
        card = sorted(bot.tables.panel(channel.id, anna.id).playable)[0]
        await anna.slash(channel, "doko play", card=card.name)
    before = bot.tables.panel(channel.id, anna.id)
    assert before.view.trick
    panel = await open_panel(anna, channel)
    await close_storage(bot)
    await simcord_env.restart_bot(make_bot(db_path))
    fresh = simcord_env.bot
    assert fresh is not bot
    after = fresh.tables.panel(channel.id, anna.id)
    assert (after.cards, after.playable, after.action_no) == (
        before.cards,
        before.playable,
        before.action_no,
    )
    assert any("DokoBot restarted" in m.content for m in public_messages(channel))
    # The buttons of the panel opened before the restart still work.
    playable = [
        b for b in buttons(panel) if b["custom_id"].startswith("doko:c:") and not b.get("disabled")
    ]
    result = await anna.click(panel, custom_id=playable[0]["custom_id"])
    assert result.response is not None and "out of date" not in result.response.content
    assert fresh.tables.snapshot(channel.id).action_no > before.action_no
    await close_storage(fresh)


async def test_missing_channel_permissions_are_explained(simcord_env: Any) -> None:
    guild = simcord_env.create_guild()
    anna = guild.add_member(simcord_env.create_user("anna"))
    channel = guild.create_text_channel(
        "no-files", overwrites={guild.me: discord.PermissionOverwrite(attach_files=False)}
    )
    result = await anna.slash(channel, "doko new")
    assert reply(result) == "I can't run a table in this channel: I need Attach Files here."
    assert public_messages(channel) == []


async def test_a_failed_post_does_not_stop_the_game(simcord_env: Any) -> None:
    _, channel, (anna,) = world(simcord_env, "anna")
    await anna.slash(channel, "doko new")
    await anna.click(table_message(channel), label="Start")
    simcord_env.inject_error("POST", "/channels/*/messages", status=500, times=2)
    await anna.slash(channel, "doko bid", what="healthy")
    bot = simcord_env.bot
    for _ in range(12):
        if (
            bot.tables.snapshot(channel.id).game_number is None
            or bot.tables.snapshot(channel.id).to_act != 0
        ):
            break
        card = sorted(bot.tables.panel(channel.id, anna.id).playable)[0]
        await anna.slash(channel, "doko play", card=card.name)
    assert any(m.content.startswith("Game 1:") for m in public_messages(channel))
    tricks = [m for m in public_messages(channel) if m.content.startswith("Trick ")]
    assert 10 <= len(tricks) < 12  # posts lost to the injected failures, the game went on


def test_the_schema_check_finds_a_broken_body() -> None:
    if spec() is None:
        pytest.skip("no OpenAPI file")

    from types import SimpleNamespace

    too_long = SimpleNamespace(
        method="POST", path="/channels/1/messages", json={"content": "x" * 5000}
    )
    assert problems([too_long]) == [
        "POST /channels/1/messages at content: " + problems([too_long])[0].split("content: ", 1)[1]
    ]
    fine = SimpleNamespace(method="POST", path="/channels/1/messages", json={"content": "Re!"})
    assert problems([fine]) == []


async def test_fixed_rounds_with_a_stake_end_with_the_final_sheet(simcord_env: Any) -> None:
    _, channel, (anna,) = world(simcord_env, "anna")
    opened = await anna.slash(channel, "doko new", mode="rounds", rounds=1, stake=5)
    assert "Fixed rounds: 1 rounds (4 games) · Stake 0.05 € per point" in reply(opened)
    table = table_message(channel)
    assert "Fixed rounds: 1 rounds (4 games) · Stake 0.05 € per point" in table.content
    await anna.click(table, label="Start")
    assert "round 1 of 1" in table_message(channel).content
    assert "Rules: DDV" in table_message(channel).content
    await play_until(
        simcord_env,
        channel,
        [anna],
        lambda: any("The session is over" in m.content for m in public_messages(channel)),
    )
    final = next(m for m in public_messages(channel) if "The session is over" in m.content)
    assert [a.filename for a in final.attachments] == ["score-sheet.png"]
    games = [m for m in public_messages(channel) if re.match(r"Game \d+: ", m.content)]
    assert len(games) >= 4
    # Who pays whom, in cents at 5 per point, as few transfers as it takes.
    storage = simcord_env.bot.storage
    (session_id,) = await storage.db.row("SELECT max(session_id) FROM sessions")
    sheet = await storage.stats.score_sheet(session_id)
    names = [n.removesuffix(" (heuristic)") for n in sheet.players]  # as the table shows them
    expected = [
        f"💶 {names[a]} pays {names[b]} {cents / 100:.2f} €"
        for a, b, cents in settle(sheet.totals, 5)
    ]
    assert final.content.splitlines()[1:] == expected
    assert sum(sheet.totals) == 0 and len(expected) <= 3
    assert "table closed (the session is over)" in table_message(channel).content


async def play_until(simcord_env: Any, channel: Any, players: list[Any], done: Any) -> None:
    """Each player takes their turns (the pause between games passes) until ``done()``."""
    for _ in range(400):
        if done():
            return
        turn = whose_turn(channel)
        player = next((p for p in players if p.id == turn), None)
        if player is None:
            await simcord_env.advance_time(601)
            continue
        await take_turn(player, await open_panel(player, channel))
    raise AssertionError("the table did not get there")


async def test_a_points_target_ends_the_session_on_discord(simcord_env: Any) -> None:
    _, channel, (anna,) = world(simcord_env, "anna")
    await anna.slash(channel, "doko new", mode="target", target=3)
    await anna.click(table_message(channel), label="Start")
    assert "Points target: 3 points · 0 of 3 points" in table_message(channel).content
    await play_until(
        simcord_env,
        channel,
        [anna],
        lambda: any("The session is over" in m.content for m in public_messages(channel)),
    )
    assert "table closed (the session is over)" in table_message(channel).content


async def test_a_duel_seats_two_friends_opposite_on_discord(simcord_env: Any) -> None:
    _, channel, (anna, bert) = world(simcord_env, "anna", "bert")
    await anna.slash(channel, "doko new", mode="duel", ai_announces=False)
    await bert.click(table_message(channel), label="Join")
    await anna.click(table_message(channel), label="Start")
    seats = table_message(channel).content.splitlines()[1]
    assert seats.startswith("1. anna ★") and "| 3. bert" in seats
    assert "Duel · the AI does not announce or play solos" in table_message(channel).content
    await play_until(
        simcord_env,
        channel,
        [anna, bert],
        lambda: (
            sum(bool(re.match(r"Game \d+: ", m.content)) for m in public_messages(channel)) >= 2
        ),
    )
    assert not [m for m in public_messages(channel) if m.content.startswith("📣 **Bot")]


async def test_a_wrong_rule_value_names_the_values_the_rule_takes(simcord_env: Any) -> None:
    _, channel, (anna,) = world(simcord_env, "anna", manager=True)
    wrong = await anna.slash(channel, "doko-admin rules", key="dullen", value="third")
    assert reply(wrong) == (
        "'third' is not a value of **dullen**; it takes `first_wins`, `second_wins`, "
        "`second_wins_except_last`, `second_wins_only_last` (docs/rules.md §9)."
    )
    wrong = await anna.slash(channel, "doko-admin rules", key="poverty", value="maybe")
    assert "it takes `true`, `false`" in reply(wrong)


async def test_the_table_shows_each_ai_seats_level(simcord_env: Any) -> None:
    _, channel, (anna,) = world(simcord_env, "anna")
    # The level chosen when the table opens is the one Start and Add AI use.
    await anna.slash(channel, "doko new", ai_level="easy")
    await anna.click(table_message(channel), label="Add AI")
    assert "2. Bot Berta (AI · easy)" in table_message(channel).content
    await anna.click(table_message(channel), label="Start")
    text = table_message(channel).content
    assert "2. Bot Berta (AI · easy) | 3. Bot Cäsar (AI · easy) | 4. Bot Dora (AI · easy)" in text
