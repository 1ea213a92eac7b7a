"""House rules drawn at random, for tests that must hold under any rule set."""

from __future__ import annotations

import random
from typing import Any

from dokobot.engine import RuleSet
from dokobot.engine.rules import NUMBER_CHOICES, RULE_DEFAULTS, RuleError, rule_values


def house_rules(rng: random.Random) -> RuleSet:
    """A rule set with about half of the house rules (docs/rules.md §9) drawn at random."""
    while True:
        values: dict[str, Any] = {}
        for key, default in RULE_DEFAULTS.items():
            if rng.random() < 0.5:
                continue
            if isinstance(default, bool):
                values[key] = rng.random() < 0.5
            elif key in NUMBER_CHOICES:
                values[key] = rng.choice(NUMBER_CHOICES[key])
            elif isinstance(default, int):
                values[key] = rng.choice((0, 1))  # compulsory_solos: a tournament list or not
            elif isinstance(default, frozenset):
                values[key] = [v for v in rule_values(key) or () if rng.random() < 0.5]
            else:
                values[key] = rng.choice(rule_values(key) or ())
        try:
            return RuleSet.from_dict(values)
        except RuleError:
            continue  # an impossible mix (say, no solo at all): draw again
