"""Driving the bot as players would: slash commands and button clicks in SimCord."""

from __future__ import annotations

import re
from typing import Any

import discord


def buttons(message: Any) -> list[dict[str, Any]]:
    """Every button of a message (components of a ResponseMessage or a discord.Message)."""
    rows = message.components if isinstance(message.components, list) else []
    out: list[dict[str, Any]] = []
    for row in rows:
        row = row if isinstance(row, dict) else row.to_dict()
        out.extend(c for c in row.get("components", []) if c.get("type") == 2)
    return out


def public_messages(channel: Any) -> list[discord.Message]:
    return [m for m in channel.history() if not m.flags.ephemeral]


def table_message(channel: Any) -> discord.Message:
    return next(
        m for m in reversed(public_messages(channel)) if m.content.startswith("**Doppelkopf**")
    )


def whose_turn(channel: Any) -> int | None:
    match = re.search(r"Your turn, <@(\d+)>", table_message(channel).content)
    return int(match.group(1)) if match else None


async def open_panel(player: Any, channel: Any) -> Any:
    """Press My cards on the table message: the private hand panel."""
    result = await player.click(table_message(channel), label="My cards")
    assert result.ephemeral, "a hand must only be shown to its owner"
    return result.response


async def take_turn(player: Any, panel: Any) -> Any:
    """On the panel: say healthy, or play the first playable card. Returns the result."""
    ids = [b for b in buttons(panel) if not b.get("disabled")]
    healthy = [b for b in ids if b.get("label") == "Healthy"]
    if healthy:
        return await player.click(panel, custom_id=healthy[0]["custom_id"])
    cards = [b for b in ids if b["custom_id"].startswith("doko:c:")]
    assert cards, f"nothing to do on the panel: {panel.content}"
    return await player.click(panel, custom_id=cards[0]["custom_id"])


def message(channel: Any, viewer: Any, message_id: int) -> discord.Message:
    """A message as ``viewer`` sees it now (ephemeral ones only for their owner)."""
    return next(m for m in channel.history(viewer=viewer) if m.id == message_id)


def answer(result: Any) -> Any:
    """The message the bot answered with (after a defer it may come as a follow-up)."""
    return result.followups[-1] if result.followups else result.response


def reply(result: Any) -> str:
    """The private text the bot answered with."""
    assert result.ephemeral
    return str(answer(result).content)


def world(env: Any, *names: str, manager: bool = False) -> tuple[Any, Any, list[Any]]:
    """A server with a #doppelkopf channel and members; ``manager``: the first may
    Manage Server."""
    guild = env.create_guild()
    channel = guild.create_text_channel("doppelkopf")
    roles = (
        [guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))]
        if manager
        else []
    )
    members = [
        guild.add_member(env.create_user(name), roles=roles if i == 0 else [])
        for i, name in enumerate(names)
    ]
    return guild, channel, members


async def started_tables(env: Any, *names: str) -> list[tuple[Any, Any]]:
    """One server with a channel per player, each with a table that player started
    (empty seats get AI players): the (player, channel) pairs."""
    guild = env.create_guild()
    tables = []
    for name in names:
        channel = guild.create_text_channel(f"table-{name}")
        player = guild.add_member(env.create_user(name))
        await player.slash(channel, "doko new")
        await player.click(table_message(channel), label="Start")
        tables.append((player, channel))
    return tables
