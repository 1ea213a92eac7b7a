"""The message catalogues: every text in both languages, placeholders alike, cards typed in
German or English."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from dokobot.i18n import CATALOGUES, T, lang_of, placeholders, term
from dokobot.i18n.cards import card_from_text

ROOT = Path(__file__).resolve().parents[1]


def catalogue(lang: str) -> dict[tuple[str | None, str], str]:
    with open(CATALOGUES / f"{lang}.po", "rb") as handle:
        return {
            (m.context, m.id if isinstance(m.id, str) else m.id[0]): m.string
            for m in read_po(handle)
            if m.id
        }


def source_messages() -> set[tuple[str | None, str]]:
    spec = importlib.util.spec_from_file_location("catalogues", ROOT / "scripts" / "catalogues.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return set(module.source_messages())


def test_every_text_of_the_source_is_in_both_catalogues_and_translated() -> None:
    wanted = source_messages()
    assert len(wanted) > 300
    for lang in ("en", "de"):
        have = catalogue(lang)
        assert set(have) == wanted, f"{lang}.po is stale: run python scripts/catalogues.py"
        for key, text in have.items():
            assert text, f"{lang}.po has no text for {key}"


def test_placeholders_match_in_every_translation() -> None:
    german = catalogue("de")
    for (context, message), text in catalogue("en").items():
        if isinstance(text, str):
            assert placeholders(text) == placeholders(message)
            assert placeholders(german[(context, message)]) == placeholders(message), message


def test_sentences_and_their_words_come_out_in_one_language() -> None:
    text = "Too late for {announcement}: you have {have} cards, {announcement} needs {need}"
    assert T("de", text, announcement="no 90", have=9, need=10) == (
        "Zu spät für keine 90: du hast 9 Karten, keine 90 braucht 10"
    )
    assert T("en", text, announcement="no 90", have=9, need=10) == (
        "Too late for no 90: you have 9 cards, no 90 needs 10"
    )
    # Cards are shown with their suit symbols; player names are never translated.
    assert T("de", "You must follow {suit}: you hold {card}", suit="♠", card="S10") == (
        "Du musst ♠ bedienen: du hast ♠10"
    )
    assert T("de", "Waiting for {name}.", name="play") == "Warte auf play."
    assert term("de", "queen") == "Damen"


@pytest.mark.parametrize(
    ("locale", "lang"), [("de", "de"), ("de-AT", "de"), ("en-US", "en"), ("fr", "en"), (None, "en")]
)
def test_locales_map_to_german_or_english(locale: str | None, lang: str) -> None:
    assert lang_of(locale) == lang


@pytest.mark.parametrize(
    ("typed", "card"),
    [
        ("Kreuz Dame", "CQ"),
        ("kreuz dame", "CQ"),
        ("Herz 10", "H10"),
        ("Dulle", "H10"),
        ("♣D", "CQ"),
        ("KD", "CQ"),
        ("♣Q", "CQ"),
        ("CQ", "CQ"),
        ("Pik Bube", "SJ"),
        ("Karo Ass", "DA"),
        ("Fuchs", "DA"),
        ("♥10", "H10"),
        ("Karo 9", "D9"),
    ],
)
def test_cards_are_typed_in_german_or_english(typed: str, card: str) -> None:
    assert card_from_text(typed).name == card


def test_a_card_that_does_not_exist_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown card"):
        card_from_text("Kreuz Elf")
