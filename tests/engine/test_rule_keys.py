"""Every rule key: accepted in a record, refused with the valid values, and the presets."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from dokobot.engine import (
    PRESETS,
    RULE_DEFAULTS,
    Dullen,
    RecordError,
    RuleError,
    RuleSet,
    Schweinchen,
    deal,
    describe,
    preset,
    replay,
)

DOCS = Path(__file__).resolve().parents[2] / "docs/rules.md"


def examples() -> dict[str, dict[str, object]]:
    """The example of every key in docs/rules.md §9, as JSON."""
    table = DOCS.read_text(encoding="utf-8").split("## §9 House rules", 1)[1].split("## §10")[0]
    out = {}
    for line in table.splitlines():
        match = re.match(r"\| `(\w+)` \|.*\| `(\{.*\})` \|$", line)
        if match:
            out[match[1]] = json.loads(match[2])
    return out


def record(rules: dict[str, object]) -> dict[str, object]:
    nines = rules.get("nines", True)
    hands = deal(random.Random(3), nines=bool(nines))
    return {
        "format": "doko-record/1",
        "rules": rules,
        "dealer": 0,
        "hands": [[c.name for c in h] for h in hands],
        "actions": [],
    }


def test_every_key_has_a_documented_example_that_a_record_accepts() -> None:
    found = examples()
    assert set(found) == set(RULE_DEFAULTS)
    for key, rules in found.items():
        state = replay(record(rules))
        assert getattr(state.rules, key) != RULE_DEFAULTS[key], key


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (
            {"schweinchen": "sometimes"},
            "rule 'schweinchen': invalid value 'sometimes'; valid: off, at_once, on_first_play",
        ),
        ({"poverty_cards": 5}, "rule 'poverty_cards': invalid value 5; valid: 3, 4"),
        ({"fox_last_trick": True}, "rule 'fox_last_trick': invalid value True; valid: 1, 2"),
        (
            {"bock_after": ["rain"]},
            "rule 'bock_after': invalid value ['rain']; valid: a list out "
            "of tie_120, lost_re, lost_kontra, lost_solo, hearts_trick",
        ),
        ({"genscher": "yes"}, "rule 'genscher': invalid value 'yes'; valid: true, false"),
        (
            {"superschweinchen": True},
            "superschweinchen needs schweinchen (at_once or on_first_play)",
        ),
        ({"preset": "casino"}, "rule 'preset': invalid value 'casino'; valid: ddv, pub, beginners"),
        ({"zwingen": True}, "unknown rule 'zwingen'"),
    ],
)
def test_a_record_with_a_bad_rule_is_refused_in_one_line(
    rules: dict[str, object], message: str
) -> None:
    with pytest.raises(RecordError) as caught:
        replay(record(rules))
    assert str(caught.value) == message


def test_presets() -> None:
    assert preset("ddv") == RuleSet()
    pub = preset("pub")
    assert (pub.dullen, pub.poverty, pub.schweinchen) == (
        Dullen.SECOND_WINS,
        True,
        Schweinchen.AT_ONCE,
    )
    assert (pub.nines, pub.announcement_doubles) == (False, True)
    assert sorted(pub.bock_after) == ["lost_kontra", "lost_re", "tie_120"]
    beginners = preset("beginners")
    assert sorted(beginners.solos) == ["diamonds", "jack", "queen"]
    assert beginners.announcement_limit.level == 1
    with pytest.raises(RuleError, match="unknown preset 'casino'; choose ddv, pub, beginners"):
        preset("casino")
    # A preset with single keys changed reads as the preset plus those keys.
    changed = RuleSet.from_dict({"preset": "pub", "nines": True, "kaiser": True})
    assert describe(changed) == ("pub", {"nines": True, "kaiser": True})
    assert describe(RuleSet(poverty=True)) == ("ddv", {"poverty": True})
    assert describe(preset("beginners")) == ("beginners", {})
    assert set(PRESETS) == {"ddv", "pub", "beginners"}


def test_plain_text_values_become_their_enums() -> None:
    rules = RuleSet(schweinchen="at_once", bock_after=frozenset({"tie_120"}))  # type: ignore[arg-type]
    assert rules.schweinchen is Schweinchen.AT_ONCE
    assert rules == RuleSet.from_dict({"schweinchen": "at_once", "bock_after": ["tie_120"]})
    with pytest.raises(RuleError, match="rule 'dullen': invalid value 'third'"):
        RuleSet(dullen="third")  # type: ignore[arg-type]
