"""Whole games under every preset and every house rule: zero sum, parity, records replay."""

from __future__ import annotations

import json
import random

import pytest

from dokobot.ai import make_strategy
from dokobot.ai.arena import play_deal
from dokobot.engine import (
    PRESETS,
    GameSetup,
    RuleSet,
    Session,
    deal,
    outcome,
    replay,
    score,
    to_record,
)

#: Every house rule at once (where two exclude each other, the one less like DDV).
EVERYTHING = {
    "nines": True,
    "dullen": "second_wins_only_last",
    "solos": ["clubs", "diamonds", "hearts", "jack", "king", "meatless", "queen", "spades"],
    "poverty": True,
    "poverty_fox_counts": False,
    "poverty_cards": 4,
    "poverty_return_trumps": False,
    "poverty_refused": "schwarze_sau",
    "redeal_on": ["five_kings", "five_nines", "four_nines_four_kings", "low_trumps", "seven_full"],
    "solo_overbid": True,
    "schweinchen": "on_first_play",
    "superschweinchen": True,
    "half_chicken": True,
    "genscher": True,
    "kaiser": True,
    "announcement_doubles": True,
    "compulsory_announcement": "first_trick_30_renew",
    "doppelkopf_needs_pairs": True,
    "extra_dulle_caught": True,
    "extra_aces_kings_trick": True,
    "fox_last_trick": 2,
    "fox_first_trick": 2,
    "karlchen_caught": True,
    "lieschen_mueller": True,
    "solo_value_doubled": True,
    "bock_after": ["hearts_trick", "lost_kontra", "lost_re", "lost_solo", "tie_120"],
    "bock_stacking": "double",
}
OTHER_WAY = {
    "nines": False,
    "dulle_trump": False,
    "team_queen": "diamonds",
    "poverty": True,
    "poverty_refused": "ramsch",
    "schweinchen": "at_once",
    "announcement_deadline": "before_first_card",
    "announce_on_turn_only": True,
    "announcement_limit": "no60",
    "compulsory_announcement": "first_trick_30",
    "marriage_clarification": "first_plain_trick",
    "reservation_priority": "last",
    "soloist_leads": True,
    "redeal_on": ["seven_full", "low_trumps"],
}
RULE_SETS = {**{name: {"preset": name} for name in PRESETS}, "everything": EVERYTHING}
RULE_SETS["other_way"] = OTHER_WAY


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_every_game_sums_to_zero_keeps_parity_and_replays(name: str) -> None:
    rules = RuleSet.from_dict(RULE_SETS[name])
    seen_contracts: set[str] = set()
    for index in range(200):
        rng = random.Random(f"{name}:{index}")
        # Half the seats play the heuristic, half random: both must play every rule.
        levels = ["heuristic", "random"] if index % 2 else ["random", "heuristic"]
        players = [make_strategy(levels[s % 2]) for s in range(4)]
        bock = (1, 2, 4)[index % 3] if rules.bock_after else 1
        setup = GameSetup(
            rules=rules,
            dealer=index % 4,
            hands=deal(rng, nines=rules.nines),
            bock=bock,
        )
        state, _ = play_deal(setup, players, rng)
        result = outcome(state)
        seen_contracts.add(str(result["contract"]))
        scores = result["scores"]
        assert sum(scores) == 0, (index, result)
        assert len({s % 2 for s in scores}) == 1, (index, result)
        record = json.loads(json.dumps(to_record(state)))
        again = replay(record)
        assert again == state, index
        assert outcome(again) == result
    # The rule sets are played, not skipped: solos, normal games and more occur.
    assert "normal" in seen_contracts


def test_bock_rounds_follow_through_a_session() -> None:
    """Each Bock trigger queues four games at double value; redeals do not count."""
    rules = RuleSet.from_dict({"bock_after": ["tie_120", "lost_re", "lost_kontra", "lost_solo"]})
    session = Session.start(rules)
    rng = random.Random(5)
    players = [make_strategy("heuristic") for _ in range(4)]
    for _ in range(40):
        setup = session.next_setup(rng)
        assert setup.bock == session.bock
        state, _ = play_deal(setup, players, rng)
        result = None if state.is_redeal else score(state)
        before = session.bock_queue
        session = session.record(state, result)
        if result is not None:
            # Under Bock every score is a multiple of the factor.
            assert all(s % setup.bock == 0 for s in result.scores)
            # The running round counts down by one and new rounds join the queue.
            expected = list(before)
            if expected:
                expected[0] -= 1
            expected = [n for n in expected if n] + [4] * result.bock_rounds
            assert list(session.bock_queue) == expected
    assert any(g.bock == 2 for g in session.games)
    assert sum(session.totals) == 0
