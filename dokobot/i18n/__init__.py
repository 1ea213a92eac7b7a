"""Every text a user reads, in German and English: one gettext catalogue per language.

The English text is the message id (``T(lang, "Your turn, {name}.", name=…)``);
``dokobot/i18n/de.po`` and ``en.po`` hold the catalogues, read with Babel. Where a
text is made before its reader's language is known (a refused move, a table
error), it is kept as its id and parameters and translated when it is shown.

Parameters named in ``TERMS`` (an announcement, a phase …) are words, not
names: they are looked up as terms (message context ``term``), so a sentence and
the words in it come out in one language. Player names are never translated.
"""

from __future__ import annotations

import io
import string
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LANGS = ("en", "de")
#: Parameters whose values are words of the game, translated with the sentence.
TERMS = frozenset({"announcement", "phase", "solo", "doing", "party_word", "word", "call", "limit"})
DEFAULT = "en"
CATALOGUES = Path(__file__).resolve().parent


def N_(message: str) -> str:
    """Mark a text for the catalogue; it is translated later, where it is shown."""
    return message


@cache
def translations(lang: str) -> Translations:
    """The catalogue of ``lang`` (``en`` or ``de``), compiled once per process."""
    with open(CATALOGUES / f"{lang}.po", "rb") as handle:
        catalog = read_po(handle, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled)


def lang_of(locale: object) -> str:
    """``de``, ``de-AT`` or ``discord.Locale.german`` → ``de``; everything else English."""
    value = str(getattr(locale, "value", locale) or "")
    return "de" if value.lower().startswith("de") else DEFAULT


def term(lang: str, word: str) -> str:
    """A word used inside sentences (an announcement, a phase, a solo) in ``lang``."""
    return str(translations(lang).pgettext("term", word))


def T(lang: str, message: str, /, **params: Any) -> str:
    """``message`` in ``lang``, its ``{placeholders}`` filled (terms translated too)."""
    text = translations(lang).gettext(message)
    if not params:
        return text
    return text.format(**_filled(lang, params))


def _filled(lang: str, params: Mapping[str, Any]) -> dict[str, Any]:
    out = {}
    for key, value in params.items():
        if key in TERMS and isinstance(value, str):
            value = term(lang, value)
        elif key == "card" and isinstance(value, str):
            value = _card_label(value, lang)
        out[key] = value
    return out


def _card_label(name: str, lang: str) -> str:
    from dokobot.engine import Card

    try:
        return card_label(Card.parse(name), lang)
    except ValueError:
        return name


#: German rank letters: B (Bube) for the jack, D (Dame) for the queen.
_GERMAN_RANKS = {"J": "B", "Q": "D"}


def card_label(card: Any, lang: str) -> str:
    """``♣Q`` in English, ``♣D`` in German: on screen cards carry their suit symbol
    (records keep their names, ``CQ``)."""
    label = str(card.label)
    if lang == "de":
        return label[0] + _GERMAN_RANKS.get(label[1:], label[1:])
    return label


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a text fills in."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


__all__ = [
    "DEFAULT",
    "LANGS",
    "N_",
    "T",
    "card_label",
    "lang_of",
    "placeholders",
    "term",
]
