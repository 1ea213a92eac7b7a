from __future__ import annotations

from typing import Any


async def test_new_table_and_start(simcord_env: Any) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("doko")
    anna = guild.add_member(simcord_env.create_user("anna"))
    result = await anna.slash(channel, "doko new")
    print(result, result.response.content if result.response else None)
    print(channel.last_message.content)
    table = channel.last_message
    r = await anna.click(table, label="Start")
    print(r, r.followups)
    r = await anna.click(channel.last_message if False else table, label="My cards")
    print(r, r.response.content, r.ephemeral)
    print(simcord_env.transcript()[-3000:])
