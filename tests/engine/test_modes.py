"""Session modes (docs/rules.md §10): fixed rounds, points target, tournament list, duel,
and the stake's settlement."""

from __future__ import annotations

import random

import pytest

from dokobot.engine import (
    DUEL_SEATS,
    Card,
    Contract,
    GameState,
    Mode,
    Plan,
    RuleSet,
    Session,
    apply,
    legal_actions,
    score,
    settle,
)
from dokobot.engine.actions import Announce, Bid, Reservation


def play_session(session: Session, seed: int, *, limit: int = 200) -> Session:
    """Random legal play (healthy bids except a seat's owed or forced solo) to the end."""
    rng = random.Random(seed)
    for _ in range(limit):
        if session.is_over:
            return session
        state = GameState.new(session.next_setup(rng))
        while not state.is_finished:
            seat = state.to_act
            actions = [a for a in legal_actions(state, seat) if not isinstance(a, Announce)]
            bids = [a for a in actions if isinstance(a, Bid)]
            if bids:
                # A seat that owes its Pflichtsolo plays it at once; else everybody is healthy.
                solos = [b for b in bids if b.reservation.is_solo]
                owed = seat is not None and state.setup.solo_owed[seat]
                action = (
                    solos[0]
                    if (owed or len(solos) == len(bids)) and solos
                    else next(b for b in bids if b.reservation is Reservation.HEALTHY)
                )
            else:
                action = rng.choice(actions)
            state = apply(state, action)
        session = session.record(state, None if state.is_redeal else score(state))
    raise AssertionError("the session did not end")


def test_fixed_rounds_end_after_four_deals_per_round_and_everyone_deals_equally() -> None:
    session = play_session(Plan(mode=Mode.ROUNDS, rounds=2).session(RuleSet()), seed=3)
    dealers = [g.dealer for g in session.games if not g.redeal]
    assert len(dealers) == 8
    assert sorted(dealers) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert session.is_over


def test_a_points_target_ends_after_the_game_that_reaches_it() -> None:
    session = play_session(Plan(mode=Mode.TARGET, target=6).session(RuleSet()), seed=11)
    before = Session(rules=session.rules, games=session.games[:-1]).totals
    assert max(session.totals) >= 6 > max(before)


def test_a_tournament_list_has_24_deals_and_one_compulsory_solo_each() -> None:
    session = play_session(Plan(mode=Mode.TOURNAMENT).session(RuleSet()), seed=5)
    assert session.deals == 24 and session.deals_played == 24
    compulsory = [g.soloist for g in session.games if g.compulsory]
    assert sorted(compulsory) == [0, 1, 2, 3]
    # A compulsory solo does not use up a deal: 24 deals plus the Pflichtsoli.
    assert len([g for g in session.games if not g.redeal]) == 24 + sum(
        1 for g in session.games if g.compulsory and not g.forced
    )


@pytest.mark.parametrize("seed", range(300))
@pytest.mark.parametrize("queen", ["clubs", "diamonds"])
def test_in_a_duel_the_two_humans_are_never_partners_in_a_normal_game(
    seed: int, queen: str
) -> None:
    # With team_queen: diamonds the queens of diamonds make the parties (docs/rules.md §9.1).
    session = Plan(mode=Mode.DUEL).session(RuleSet.from_dict({"team_queen": queen}))
    setup = session.next_setup(random.Random(seed))
    a, b = DUEL_SEATS
    team = Card.CQ if queen == "clubs" else Card.DQ
    # One team queen each (both Re) or none (both Kontra) would make them partners.
    assert setup.hands[a].count(team) != setup.hands[b].count(team)
    state = GameState.new(setup)
    for _ in range(4):
        state = apply(state, Bid(state.to_act, Reservation.HEALTHY))  # type: ignore[arg-type]
    if state.contract is Contract.NORMAL:
        assert state.parties.re[a] != state.parties.re[b]  # type: ignore[index]


def test_a_duel_redeals_deterministically() -> None:
    session = Plan(mode=Mode.DUEL).session(RuleSet())
    first = session.next_setup(random.Random(42)).hands
    assert session.next_setup(random.Random(42)).hands == first


@pytest.mark.parametrize(
    ("totals", "cents", "transfers"),
    [
        ((-13, 33, 9, -29), 5, [(3, 1, 145), (0, 2, 45), (0, 1, 20)]),
        ((10, -10, 0, 0), 10, [(1, 0, 100)]),
        ((0, 0, 0, 0), 5, []),
    ],
)
def test_stakes_settle_in_few_transfers_and_balance_to_zero(
    totals: tuple[int, ...], cents: int, transfers: list[tuple[int, int, int]]
) -> None:
    assert settle(totals, cents) == transfers
    balance = [t * cents for t in totals]
    for payer, payee, amount in settle(totals, cents):
        balance[payer] += amount
        balance[payee] -= amount
    assert balance == [0, 0, 0, 0]
    assert len(transfers) <= 3


def test_plans_refuse_what_cannot_be_played_and_survive_storage() -> None:
    with pytest.raises(ValueError, match="number of rounds"):
        Plan(mode=Mode.ROUNDS)
    with pytest.raises(ValueError, match="target"):
        Plan(mode=Mode.TARGET, target=0)
    plan = Plan(mode=Mode.DUEL, stake_cents=5, currency="€", ai_announces=False)
    assert Plan.from_dict(plan.to_dict()) == plan
    assert plan.to_dict() == {
        "mode": "duel",
        "stake_cents": 5,
        "currency": "€",
        "ai_announces": False,
    }
