"""Auf Deutsch: a whole game with a German Discord client on a German server."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import simcord.interactions as sim_interactions

from dokobot.i18n import translations

from .helpers import buttons, message, public_messages

pytestmark = pytest.mark.usefixtures("bodies_match_discords_schema")


@pytest.fixture
def german_clients(monkeypatch: pytest.MonkeyPatch) -> None:
    """SimCord's interactions come from an en-US client; these come from a German one."""
    original = sim_interactions.base_payload

    def german(*args: Any, **kwargs: Any) -> Any:
        record, payload = original(*args, **kwargs)
        payload["locale"] = "de"
        if "guild_locale" in payload:
            payload["guild_locale"] = "de"
        return record, payload

    monkeypatch.setattr(sim_interactions, "base_payload", german)


def english_fragments() -> list[str]:
    """Pieces of English catalogue texts that a German message must never contain."""
    german = translations("de")
    fragments = []
    from babel.messages.pofile import read_po

    from dokobot.i18n import CATALOGUES

    with open(CATALOGUES / "en.po", "rb") as handle:
        catalog = read_po(handle)
    for entry in catalog:
        if not entry.id or entry.context or isinstance(entry.id, tuple):
            continue
        translated = german.gettext(entry.id)
        for piece in re.split(r"\{[a-z_]+\}", entry.id):
            piece = piece.strip(" .,:;*()\n")
            # Long enough to be English prose, and not the same in German.
            if len(piece) >= 10 and " " in piece and piece not in translated:
                fragments.append(piece)
    return fragments


def texts_sent(env: Any, channel: Any) -> Iterator[str]:
    """Every text the bot showed: message contents, button labels, embeds."""
    for posted in channel.history():
        if posted.author.bot:
            yield posted.content
            for button in buttons(posted):
                yield button.get("label", "")
    for request in env.http_requests:
        body = request.json if isinstance(request.json, dict) else {}
        data = body.get("data", body) if isinstance(body.get("data"), dict) else body
        if isinstance(data.get("content"), str):
            yield data["content"]
        for row in data.get("components") or []:
            for item in row.get("components", []):
                yield item.get("label", "") or item.get("placeholder", "")
        for embed in data.get("embeds") or []:
            yield embed.get("title", "") or ""
            yield embed.get("description", "") or ""


async def test_a_whole_game_in_german(simcord_env: Any, german_clients: None) -> None:
    guild = simcord_env.create_guild(preferred_locale="de")
    channel = guild.create_text_channel("doppelkopf")
    anna = guild.add_member(simcord_env.create_user("anna"))
    opened = await anna.slash(channel, "doko new")
    assert opened.response.content.startswith("Tisch eröffnet.")
    table = next(m for m in public_messages(channel) if m.content.startswith("**Doppelkopf**"))
    assert [b["label"] for b in buttons(table)] == ["Hinsetzen", "Aufstehen", "KI dazu", "Starten"]
    started = await anna.click(table, label="Starten")
    assert "Das Spiel beginnt" in started.response.content
    table = next(m for m in public_messages(channel) if m.content.startswith("**Doppelkopf**"))
    panel = (await anna.click(table, label="Meine Karten")).response
    moves = 0
    while not any(m.content.startswith("Spiel 1:") for m in public_messages(channel)):
        current = message(channel, anna, panel.id)
        enabled = [b for b in buttons(current) if not b.get("disabled")]
        healthy = [b for b in enabled if b.get("label") == "Gesund"]
        cards = [b for b in enabled if b["custom_id"].startswith("doko:c:")]
        choice = healthy or cards
        assert choice, current.content
        result = await anna.click(current, custom_id=choice[0]["custom_id"])
        panel = result.response or panel
        moves += 1
        assert moves < 30
    contents = [m.content for m in public_messages(channel)]
    assert any(re.match(r"Stich 1 → \*\*.+\*\* \(\d+ Augen\)", c) for c in contents)
    assert any(
        re.match(r"Spiel 1: (\*\*(Re|Kontra)\*\* gewinnt|niemand gewinnt)", c) for c in contents
    )
    english = english_fragments()
    assert len(english) > 100  # the check has teeth
    for text in texts_sent(simcord_env, channel):
        slipped = [piece for piece in english if piece in text]
        assert not slipped, f"English in a German message: {slipped[0]!r} in {text!r}"


async def test_slash_commands_carry_german_names_and_descriptions(
    simcord_env: Any,
) -> None:
    simcord_env.create_guild()
    synced = [
        r for r in simcord_env.http_requests if r.method == "PUT" and r.path.endswith("/commands")
    ]
    assert synced, "the commands were never synced"
    commands = {c["name"]: c for c in synced[-1].json}
    doko = commands["doko"]
    assert doko["description_localizations"]["de"] == "Doppelkopf spielen"
    subs = {o["name"]: o for o in doko["options"]}
    assert subs["new"]["name_localizations"]["de"] == "neu"
    assert subs["new"]["description_localizations"]["de"] == (
        "In diesem Kanal einen Doppelkopf-Tisch eröffnen"
    )
    play = subs["play"]
    assert play["name_localizations"]["de"] == "spielen"
    assert play["options"][0]["name_localizations"]["de"] == "karte"
    for sub in subs.values():
        # A name that is the same in German (hand, sync) needs no localisation.
        name = (sub.get("name_localizations") or {}).get("de", sub["name"])
        assert re.fullmatch(r"[-_\w]{1,32}", name) and name == name.lower(), name
        assert 1 <= len(sub["description_localizations"]["de"]) <= 100
