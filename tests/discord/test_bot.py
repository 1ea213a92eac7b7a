"""The Discord bot in SimCord: real discord.py against a simulated Discord."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import pytest

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

pytestmark = pytest.mark.usefixtures("bodies_match_discords_schema")


async def test_a_full_game_against_three_ai_players(
    simcord_env: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    _, channel, (anna,) = world(simcord_env, "anna")
    opened = await anna.slash(channel, "doko new")
    assert opened.ephemeral and "Table opened" in opened.response.content
    table = table_message(channel)
    assert "1. anna ★" in table.content
    assert [b["label"] for b in buttons(table)] == ["Join", "Leave", "Add AI", "Start"]
    started = await anna.click(table, label="Start")
    assert started.ephemeral
    assert [b["label"] for b in buttons(table_message(channel))] == [
        "My cards",
        "Announce",
        "Leave",
    ]

    panel = await open_panel(anna, channel)
    assert panel.ephemeral
    assert [a.filename for a in panel.attachments] == ["hand.png"]
    moves = 0
    # The AI seats think in a thread and panels are redrawn in tasks of their own, so a
    # click can answer before they are done: let the bot finish before each look.
    await simcord_env.settle()
    while not any("Game 1:" in m.content for m in public_messages(channel)):
        assert whose_turn(channel) == anna.id
        # The bot redrew the open panel when the turn came back to anna (under load the
        # redraw may still be on its way when the table message already shows her turn).
        current = message(channel, anna, panel.id)
        for _ in range(40):
            if "**Your turn:**" in current.content:
                break
            await asyncio.sleep(0.05)
            await simcord_env.settle()
            current = message(channel, anna, panel.id)
        assert "**Your turn:**" in current.content
        result = await take_turn(anna, current)
        # A click updates the panel in place: the same private message.
        assert result.response is not None and result.response.id == panel.id
        moves += 1
        assert moves < 20
        await simcord_env.settle()
    assert moves >= 12  # a bid and twelve cards
    assert "No game is running right now" in message(channel, anna, panel.id).content
    public = public_messages(channel)
    tricks = [m for m in public if m.content.startswith("Trick ")]
    assert len(tricks) == 12
    assert all(a.filename.startswith("trick-") for m in tricks for a in m.attachments)
    result = next(m for m in public if m.content.startswith("Game 1:"))
    assert [a.filename for a in result.attachments] == ["game-1.png"]
    # No hand was ever shown publicly.
    assert not any(a.filename == "hand.png" for m in public for a in m.attachments)
    board = await anna.slash(channel, "doko leaderboard")
    assert [a.filename for a in answer(board).attachments] == ["leaderboard.png"]
    stats = await anna.slash(channel, "doko stats")
    assert stats.response.embeds[0].fields[1].value == "1"  # one game played
    rows = await simcord_env.bot.storage.stats.leaderboard(channel.guild.id)
    assert [(r.name, r.games) for r in rows] == [("anna", 1)]  # AI seats stay off the board
    # The log has a line per event with its ids, and never a card.
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("dokobot")]
    tricks = [line for line in lines if line.startswith("TrickCompleted guild=")]
    assert len(tricks) == 12 and all(" game=1 trick=" in line for line in tricks)
    assert any(line.startswith("GameOver guild=") and " game=1" in line for line in lines)
    assert not [line for line in lines if re.search(r"\b[CSHD](9|10|J|Q|K|A)\b|[♣♠♥♦]", line)]


async def test_strangers_and_wrong_turns_get_private_answers(simcord_env: Any) -> None:
    guild, channel, (anna, bert, carla) = world(simcord_env, "anna", "bert", "carla")
    await anna.slash(channel, "doko new")
    await bert.click(table_message(channel), label="Join")
    await anna.click(table_message(channel), label="Start")
    stranger = await carla.click(table_message(channel), label="My cards")
    assert stranger.ephemeral and stranger.response.content == "You are not sitting at this table."
    refused = await bert.slash(channel, "doko start")
    assert reply(refused) == "Only the table's owner (anna) can do that."
    # Bidding starts left of the dealer (anna deals): bert is asked first.
    assert whose_turn(channel) == bert.id
    out_of_turn = await anna.slash(channel, "doko bid", what="healthy")
    assert out_of_turn.ephemeral and out_of_turn.response.content == "It's bert's turn."
    no_table = await anna.slash(guild.create_text_channel("other"), "doko hand")
    assert "There is no table in this channel" in no_table.response.content
