"""House rules on Discord: presets, a table's own rules, calls and a thrown-in hand."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from dokobot.engine import Card

from .conftest import close_storage, make_bot
from .helpers import (
    answer,
    buttons,
    open_panel,
    public_messages,
    reply,
    table_message,
    whose_turn,
    world,
)

pytestmark = pytest.mark.usefixtures("bodies_match_discords_schema")

#: Seeds of the first deal (found by search): anna (seat 0) holds both ♦A with seed 12,
#: five nines with seed 246.
PIGS, FIVE_NINES = 12, 246


@pytest.fixture
async def simcord_bot(db_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    seed = getattr(request, "param", 1)
    bot = make_bot(db_path, seed_source=lambda: seed)
    yield bot
    await close_storage(bot)


async def test_a_server_picks_a_preset_and_changes_one_key(simcord_env: Any) -> None:
    _, channel, (anna, bert) = world(simcord_env, "anna", "bert", manager=True)
    picked = await anna.slash(channel, "doko-admin rules", key="preset", value="pub")
    assert reply(picked) == "Rule **preset** is now `pub` (from the next session on).\nRules: pub"
    changed = await anna.slash(channel, "doko-admin rules", key="nines", value="true")
    assert reply(changed).endswith("Rules: pub + nines")
    await anna.slash(channel, "doko new")
    assert "Rules: pub + nines" in table_message(channel).content
    joined = await bert.click(table_message(channel), label="Join")
    # Everybody who joins sees the rules before the first card.
    assert reply(joined) == (
        "You sit at the table.\nRules: pub + nines · /doko rules explains each of them."
    )


async def test_the_owner_changes_the_tables_rules_before_start(simcord_env: Any) -> None:
    _, channel, (anna, bert) = world(simcord_env, "anna", "bert")
    await anna.slash(channel, "doko new")
    await bert.click(table_message(channel), label="Join")
    changed = await anna.slash(channel, "doko rules", key="schweinchen", value="at_once")
    assert reply(changed) == (
        "Rule **schweinchen** is now `at_once` at this table.\nRules: DDV + schweinchen at_once"
    )
    assert "Rules: DDV + schweinchen at_once" in table_message(channel).content
    refused = await bert.slash(channel, "doko rules", key="nines", value="false")
    assert reply(refused) == "Only the table's owner (anna) can do that."
    wrong = await anna.slash(channel, "doko rules", key="poverty_cards", value="5")
    assert reply(wrong) == (
        "'5' is not a value of **poverty_cards**; it takes `3`, `4` (docs/rules.md §9)."
    )
    unknown = await anna.slash(channel, "doko rules", key="bock", value="true")
    assert reply(unknown) == (
        "There is no rule 'bock'; /doko rules lists them all (docs/rules.md §9)."
    )
    explained = await anna.slash(channel, "doko rules", key="genscher")
    assert reply(explained).startswith("**genscher**: Genscher: the holder of both ♦K")
    await anna.slash(channel, "doko start", ai_level="random")
    late = await anna.slash(channel, "doko rules", key="nines", value="false")
    assert reply(late) == (
        "The rules are fixed once the first card is dealt; change them before Start."
    )
    shown = await bert.slash(channel, "doko rules")
    first = answer(shown).embeds[0]
    assert first.title == "Doppelkopf rules at this table"
    assert "`schweinchen` **at_once** — Schweinchen: the holder of both ♦A" in (
        first.description or ""
    )


async def test_rules_autocomplete_offers_only_keys_and_their_values(simcord_env: Any) -> None:
    _, channel, (anna,) = world(simcord_env, "anna", manager=True)
    keys = await anna.autocomplete(channel, "doko rules", "key", "schw")
    assert [c["value"] for c in keys] == ["schweinchen", "superschweinchen"]
    values = await anna.autocomplete(channel, "doko rules", "value", "", key="dullen")
    assert [c["value"] for c in values] == [
        "first_wins",
        "second_wins",
        "second_wins_except_last",
        "second_wins_only_last",
    ]
    lists = await anna.autocomplete(
        channel, "doko-admin rules", "value", "tie_120, lost", key="bock_after"
    )
    assert [c["value"] for c in lists] == [
        "tie_120, lost_re",
        "tie_120, lost_kontra",
        "tie_120, lost_solo",
    ]
    assert await anna.autocomplete(channel, "doko rules", "value", "", key="nonsense") == []


@pytest.mark.parametrize("simcord_bot", [PIGS], indirect=True)
async def test_schweinchen_is_declared_with_a_button(simcord_env: Any) -> None:
    _, channel, (anna,) = world(simcord_env, "anna")
    await anna.slash(channel, "doko new")
    await anna.slash(channel, "doko rules", key="schweinchen", value="at_once")
    await anna.slash(channel, "doko start", ai_level="random")
    panel = await open_panel(anna, channel)
    assert simcord_env.bot.tables.panel(channel.id, anna.id).cards.count(Card.DA) == 2
    result = await anna.click(panel, label="Healthy")
    panel = result.response
    assert "Schweinchen 🐷" in [b.get("label") for b in buttons(panel)]
    assert "You may call: Schweinchen 🐷" in panel.content
    result = await anna.click(panel, label="Schweinchen 🐷")
    assert any(
        m.content == "🐷 **anna** declares Schweinchen 🐷: the highest trumps from now on."
        for m in public_messages(channel)
    )
    assert "Schweinchen 🐷" not in [b.get("label") for b in buttons(result.response)]


@pytest.mark.parametrize("simcord_bot", [FIVE_NINES], indirect=True)
async def test_a_hand_of_five_nines_is_thrown_in_and_shown(simcord_env: Any) -> None:
    _, channel, (anna,) = world(simcord_env, "anna")
    await anna.slash(channel, "doko new")
    await anna.slash(channel, "doko rules", key="redeal_on", value="five_nines")
    await anna.slash(channel, "doko start", ai_level="random")
    panel = await open_panel(anna, channel)
    hand = simcord_env.bot.tables.panel(channel.id, anna.id).cards
    assert sum(1 for c in hand if c.rank.code == "9") >= 5
    await anna.click(panel, label="Throw in")
    posts = [m.content for m in public_messages(channel) if m.content.startswith("🃏")]
    assert len(posts) == 1 and posts[0].startswith("🃏 **anna** throws the hand in (five nines): ")
    assert posts[0].endswith("The same dealer deals again.")
    assert posts[0].count("9") >= 5  # the hand is shown to everybody


#: Seed 0: anna (seat 0) holds both ♦K.
GENSCHER = 0


@pytest.mark.parametrize("simcord_bot", [GENSCHER], indirect=True)
async def test_genscher_names_a_partner_with_a_button(simcord_env: Any) -> None:
    _, channel, (anna,) = world(simcord_env, "anna")
    await anna.slash(channel, "doko new")
    await anna.slash(channel, "doko rules", key="genscher", value="true")
    await anna.slash(channel, "doko start", ai_level="random")
    tables = simcord_env.bot.tables
    assert tables.panel(channel.id, anna.id).cards.count(Card.DK) == 2
    for _ in range(60):
        if whose_turn(channel) != anna.id:
            await simcord_env.advance_time(5)
            continue
        panel = await open_panel(anna, channel)
        labels = [b.get("label") for b in buttons(panel)]
        if "Genscher: Bot Dora" in labels:
            break
        # Keep the two ♦K: play any other card (or say healthy).
        choices = [
            b
            for b in buttons(panel)
            if not b.get("disabled")
            and (b.get("label") == "Healthy" or b["custom_id"].startswith("doko:c:"))
            and "♦K" not in b.get("label", "")
        ]
        assert choices, (panel.content, [b.get("label") for b in buttons(panel)])
        await anna.click(panel, custom_id=choices[0]["custom_id"])
    else:
        raise AssertionError("Genscher was never offered")
    assert "Genscher: you hold both ♦K" in panel.content
    result = await anna.click(panel, label="Genscher: Bot Dora")
    assert any(
        m.content == "🔄 **anna** plays Genscher and takes **Bot Dora** as partner."
        for m in public_messages(channel)
    )
    # Now the first ♦K must follow: it is the only card she can play.
    playable = [
        b["label"]
        for b in buttons(result.response)
        if b["custom_id"].startswith("doko:c:") and not b.get("disabled")
    ]
    assert {label.split(" · ")[-1] for label in playable} == {"♦K"}
    parties = tables.panel(channel.id, anna.id).view.parties
    assert parties[0] is parties[3]
