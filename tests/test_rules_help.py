"""The rules as /doko rules explains them: every key, its values, what users type."""

from __future__ import annotations

import pytest

from cogs.rules_help import (
    RULE_HELP,
    RULE_KEYS,
    explained,
    parse_value,
    rules_line,
    suggestions,
    values_of,
)
from dokobot.engine import RULE_DEFAULTS, RuleSet, preset
from dokobot.i18n import T


def test_every_key_is_explained_in_both_languages() -> None:
    assert set(RULE_HELP) == set(RULE_DEFAULTS)
    for text in RULE_HELP.values():
        assert T("de", text) != text, text
    assert len(explained(RuleSet(), "de")) == len(RULE_DEFAULTS)


@pytest.mark.parametrize("key", RULE_KEYS)
def test_every_value_offered_is_accepted(key: str) -> None:
    for value in values_of(key):
        parsed = parse_value(key, value)
        spec = {"preset": parsed} if key == "preset" else {key: parsed}
        if key == "superschweinchen" and parsed is True:
            spec["schweinchen"] = "at_once"
        RuleSet.from_dict(spec)


def test_typed_values() -> None:
    assert parse_value("nines", "Nein") is False
    assert parse_value("genscher", "on") is True
    assert parse_value("redeal_on", "five_nines; seven_full") == ["five_nines", "seven_full"]
    assert parse_value("bock_after", "none") == []
    assert parse_value("poverty_cards", "4") == 4
    for key, text in (("poverty_cards", "5"), ("schweinchen", "maybe"), ("solos", "poker")):
        with pytest.raises(ValueError):
            parse_value(key, text)


def test_the_rules_line_names_the_preset_and_what_differs() -> None:
    assert rules_line(RuleSet(), "en") == "Rules: DDV"
    assert rules_line(preset("pub"), "de") == "Regeln: pub"
    rules = RuleSet.from_dict({"preset": "pub", "nines": True, "fox_last_trick": 2})
    assert rules_line(rules, "en") == "Rules: pub + fox_last_trick 2, nines"


def test_suggestions() -> None:
    assert suggestions(None, "poverty_r") == ["poverty_return_trumps", "poverty_refused"]
    assert suggestions("poverty_refused", "") == ["redeal", "schwarze_sau", "ramsch"]
    assert suggestions("solos", "queen, j") == ["queen, jack"]
    assert len(suggestions(None, "")) == 25  # Discord shows at most 25
