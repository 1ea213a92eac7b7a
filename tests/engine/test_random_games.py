"""Seeded self-play: invariants over hundreds of random complete games (OpenSpiel style)."""

from __future__ import annotations

import json
import random

from dokobot.engine import (
    Announce,
    Announcement,
    Bid,
    Card,
    Dullen,
    GameSetup,
    GameState,
    IllegalActionError,
    MarriageClarification,
    Phase,
    Play,
    Reservation,
    ReservationPriority,
    RuleSet,
    SoloType,
    apply,
    deal,
    legal_actions,
    legal_cards,
    may_announce,
    outcome,
    replay,
    score,
    to_record,
)
from dokobot.engine.game import _announce_refusal
from dokobot.engine.rules import DDV_SOLOS

RULE_VARIANTS = [
    RuleSet(),
    RuleSet(poverty=True),
    RuleSet(nines=False, dullen=Dullen.SECOND_WINS, solos=DDV_SOLOS | {SoloType.KING}),
    RuleSet(dullen=Dullen.SECOND_WINS_EXCEPT_LAST, announcement_doubles=True),
    RuleSet(
        marriage_clarification=MarriageClarification.FIRST_TRUMP_TRICK,
        poverty=True,
        poverty_fox_counts=False,
    ),
    RuleSet(marriage_clarification=MarriageClarification.FIRST_PLAIN_TRICK, soloist_leads=True),
    RuleSet(reservation_priority=ReservationPriority.LAST, compulsory_solos=1),
]


def choose(state: GameState, rng: random.Random) -> object:
    """A random legal action: mostly healthy bids, sometimes an announcement."""
    actions = legal_actions(state)
    if state.phase is Phase.BIDDING:
        bids = {a.reservation: a for a in actions if isinstance(a, Bid)}
        for rare in (Reservation.POVERTY, Reservation.MARRIAGE):
            if rare in bids and rng.random() < 0.7:
                return bids[rare]
        if Reservation.HEALTHY in bids and rng.random() < 0.8:
            return bids[Reservation.HEALTHY]
    announces = [a for a in actions if isinstance(a, Announce)]
    if announces and rng.random() < 0.08:
        return rng.choice(announces)
    turn = [a for a in actions if not isinstance(a, Announce)]
    return rng.choice(turn or actions)


def random_game(seed: int) -> GameState:
    rng = random.Random(seed)
    rules = RULE_VARIANTS[seed % len(RULE_VARIANTS)]
    owed = tuple(rng.random() < 0.5 for _ in range(4)) if rules.compulsory_solos else (False,) * 4
    setup = GameSetup(
        rules=rules, dealer=rng.randrange(4), hands=deal(rng, nines=rules.nines), solo_owed=owed
    )
    state = GameState.new(setup)
    while not state.is_finished:
        if state.phase is Phase.PLAY:
            # Every card the rules forbid is refused; every one they allow is accepted.
            seat = state.to_act
            assert seat is not None
            allowed = set(legal_cards(state))
            for card in set(state.hands[seat]):
                try:
                    apply(state, Play(seat, Card(card)))
                    assert card in allowed
                except IllegalActionError:
                    assert card not in allowed
        for action in legal_actions(state):
            apply(state, action)  # never refused
        for seat in range(4):
            # The fast announcement list agrees with the rule-by-rule refusal reasons.
            expected = tuple(
                lv for lv in Announcement if _announce_refusal(state, seat, lv) is None
            )
            assert may_announce(state, seat) == (expected if state.phase is Phase.PLAY else ())
        state = apply(state, choose(state, rng))  # type: ignore[arg-type]
    return state


def test_five_hundred_random_games_keep_the_invariants() -> None:
    contracts: dict[str, int] = {}
    for seed in range(560):
        state = random_game(seed)
        record = json.loads(json.dumps(to_record(state)))
        replayed = replay(record)
        assert replayed == state
        assert outcome(replayed) == outcome(state)
        if state.is_redeal:
            contracts["redeal"] = contracts.get("redeal", 0) + 1
            continue
        result = score(state)
        contracts[result.contract.value] = contracts.get(result.contract.value, 0) + 1
        assert result.re_points + result.kontra_points == 240
        assert sum(t.points for t in state.tricks) == 240
        assert result.re_tricks + result.kontra_tricks == state.rules.tricks
        assert all(len(hand) == 0 for hand in state.hands)
        assert sum(result.scores) == 0
        assert len({s % 2 for s in result.scores}) == 1
        assert set(result.re) | set(result.kontra) == {0, 1, 2, 3}
        if result.winner is not None and result.game_value > 0:
            winners = result.re if result.winner.value == "re" else result.kontra
            assert all(result.scores[s] > 0 for s in winners)
    # The sample covers the contracts the engine knows.
    for name in (
        "normal",
        "silent_marriage",
        "marriage",
        "marriage_alone",
        "poverty",
        "redeal",
        "solo:queen",
        "solo:jack",
        "solo:king",
        "solo:meatless",
        "solo:clubs",
        "solo:diamonds",
    ):
        assert contracts.get(name, 0) > 0, contracts
