"""The strong AI under the poverty house rule (docs/rules.md §4): its deals during the
exchange, its reservation, its answer and the cards it gives back."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from dokobot.ai import HeuristicStrategy, poverty
from dokobot.ai.arena import play_deal
from dokobot.ai.heuristic import accepts_poverty, poverty_pass, poverty_return
from dokobot.ai.model import CallReplays
from dokobot.ai.strong import StrongStrategy
from dokobot.ai.worlds import world
from dokobot.engine import (
    Action,
    Bid,
    Card,
    Contract,
    GameSetup,
    GameState,
    PassCards,
    Phase,
    PovertyReply,
    Reservation,
    ReturnCards,
    RuleSet,
    apply,
    deal,
    legal_actions,
    player_view,
)

from .benchmarks import load

RULES = RuleSet.from_dict({"poverty": True})
FOUR = RuleSet.from_dict(
    {
        "poverty": True,
        "poverty_cards": 4,
        "poverty_fox_counts": False,
        "poverty_return_trumps": False,
    }
)


def poor_deal(seed: int, rules: RuleSet = RULES) -> tuple[tuple[Card, ...], ...]:
    """The first deal from ``seed`` on in which seat 0 may announce a poverty."""
    rng = random.Random(seed)
    counted = poverty.counts_as_trump(rules)
    while True:
        hands = deal(rng)
        if sum(c in counted for c in hands[0]) <= rules.poverty_cards:
            return hands


def put_down(seed: int, rules: RuleSet = RULES) -> GameState:
    """Seat 0's poverty (dealer 3, so seat 0 is asked first), its cards put down."""
    hands = poor_deal(seed, rules)
    state = poverty.bid_poverty(GameSetup(rules=rules, dealer=3, hands=hands), 0)
    return apply(state, PassCards(0, poverty_pass(hands[0], rules)))


@pytest.mark.parametrize("rules", [RULES, FOUR], ids=["three", "four"])
def test_the_deals_of_an_exchange_under_way_are_the_ones_the_seat_sees(rules: RuleSet) -> None:
    """Each deal is a game the engine got to by the same exchange: the seat's view of it
    is its view of the real game, and the poor player put down all its trumps."""
    counted = poverty.counts_as_trump(rules)
    for seed in range(6):
        state = put_down(seed, rules)
        # Seat 1 declines, seat 2 is asked; then seat 2 takes the cards and gives back.
        asked = apply(state, PovertyReply(1, False))
        took = apply(asked, PovertyReply(2, True))
        for real in (state, asked, took):
            seat = real.to_act
            assert seat is not None
            view = player_view(real, seat)
            rng = random.Random(seed)
            for _ in range(8):
                sample = poverty.world(view, rng)
                assert sample is not None
                mine = player_view(sample, seat)
                assert mine.hand == view.hand
                assert mine.legal == view.legal
                assert mine.poverty_cards == view.poverty_cards
                original = sample.setup.hands[0]
                assert sum(c in counted for c in original) <= rules.poverty_cards
                pov = sample.poverty
                assert pov is not None
                left = Counter(original) - Counter(pov.passed)
                assert not any(c in counted for c in left.elements())
                if seat == 2 and real is took:
                    assert pov.passed == real.poverty.passed  # type: ignore[union-attr]


def test_a_poverty_nobody_takes_is_dealt_again_or_played_on_by_the_house_rule() -> None:
    """With every seat declining (chance players here, seed chosen so), the exchange
    ends the game under the redeal rule; under Schwarze Sau and Ramsch play starts."""
    outcomes = {}
    for refused in ("redeal", "schwarze_sau", "ramsch"):
        rules = RuleSet.from_dict({"poverty": True, "poverty_refused": refused})
        state = put_down(3, rules)
        for seed in range(40):
            after = poverty.exchange(state, random.Random(seed), [False, True, True, True])
            assert after.poverty is not None
            if len(after.poverty.declined) == 3:
                break
        else:
            pytest.fail("nobody declined all three times in 40 tries")
        outcomes[refused] = (poverty.redealt(after), after.phase, after.parties.contract)
    assert outcomes == {
        "redeal": (True, Phase.FINISHED, Contract.POVERTY),
        "schwarze_sau": (False, Phase.PLAY, Contract.SCHWARZE_SAU),
        "ramsch": (False, Phase.PLAY, Contract.RAMSCH),
    }


class Simulated(StrongStrategy):
    """The bid's playouts replaced by fixed values, by contract (``None``: healthy)."""

    values: dict[Contract | None, float]

    def _simulate(self, view, hands, contract, rng):  # type: ignore[no-untyped-def]
        return self.values.get(contract, -9.0), -9.0


def test_a_poverty_is_announced_when_it_simulates_better_than_healthy() -> None:
    """The heuristic always announces a poverty it may; the strong AI weighs it against
    healthy (and the solos) like every other reservation."""
    hands = poor_deal(7)
    view = player_view(GameState.new(GameSetup(rules=RULES, dealer=3, hands=hands)), 0)
    assert Bid(0, Reservation.POVERTY) in view.legal
    assert HeuristicStrategy().choose(view, random.Random(1)) == Bid(0, Reservation.POVERTY)

    def bid(healthy: float, poor: float, **options: Any) -> str:
        strategy = Simulated(samples=4, **options)
        strategy.values = {None: healthy, Contract.POVERTY: poor}
        action = strategy.choose(view, random.Random(1))
        assert isinstance(action, Bid)
        return action.reservation.value

    assert bid(-1.0, 0.5) == "poverty"
    assert bid(0.5, -1.0) == "healthy"
    assert bid(0.5, -1.0, poverty_bids=False) == "poverty"  # the heuristic's rule
    assert bid(0.5, -1.0, poverty_margin=2.0) == "poverty"
    assert bid(1.5, -1.0, poverty_margin=2.0) == "healthy"


def test_a_simulated_poverty_runs_through_the_exchange_and_counts_a_redeal_as_nothing() -> None:
    """The bid's poverty: the heuristic players take it with seven trumps, two of them
    high; when none does, the deal is dealt again and scores 0 for everyone."""
    taken = redealt = 0
    strategy = StrongStrategy(samples=4)
    for seed in range(60):
        hands = poor_deal(seed)
        view = player_view(GameState.new(GameSetup(rules=RULES, dealer=3, hands=hands)), 0)
        final = strategy._play_deal(view, hands, Contract.POVERTY, random.Random(seed))
        takers = [s for s in (1, 2, 3) if accepts_poverty(hands[s], RULES)]
        if takers:
            taken += 1
            assert final.phase is Phase.FINISHED and len(final.tricks) == 12
            assert final.poverty is not None and final.poverty.acceptor == takers[0]
        else:
            redealt += 1
            assert poverty.redealt(final)
            assert strategy._simulate(view, hands, Contract.POVERTY, random.Random(seed)) == (
                0.0,
                0.0,
            )
    assert taken and redealt


class Fixed(StrongStrategy):
    """The exchange's playouts replaced by fixed scores per option on four deals."""

    pick: dict[Action, list[float]]

    def _exchange_values(self, view, options, rng):  # type: ignore[no-untyped-def]
        self.offered = list(options)
        return {o: self.pick.get(o, [0.0, 0.0, 0.0, 0.0]) for o in options}


def test_a_poverty_is_taken_or_declined_against_the_heuristics_rule_only_on_clear_gains() -> None:
    """Seat 1 of deal 5 has too few trumps for the heuristic to take the poverty. Taking
    it must play out better than declining by more than two standard errors."""
    state = put_down(5)
    view = player_view(state, 1)
    assert not accepts_poverty(view.hand, RULES)
    strategy = Fixed(samples=4)
    take, decline = PovertyReply(1, True), PovertyReply(1, False)
    strategy.pick = {take: [1.0, 1.2, 0.8, 1.0]}  # +1.0 ± 0.08 on every deal
    assert strategy.choose(view, random.Random(1)) == take
    assert strategy.offered == [decline, take]  # the heuristic's choice first
    strategy.pick = {take: [3.0, -2.0, 3.0, -2.0]}  # +0.5 ± 1.4: noise
    assert strategy.choose(view, random.Random(1)) == decline
    strategy.pick = {take: [-1.0, -1.0, -1.0, -1.0]}
    assert strategy.choose(view, random.Random(1)) == decline


@pytest.mark.parametrize("rules", [RULES, FOUR], ids=["three", "four"])
def test_the_acceptor_gives_back_the_legal_cards_that_play_out_clearly_best(
    rules: RuleSet,
) -> None:
    """The options are legal and the heuristic's is first; another set of cards is given
    back only if it plays out clearly better, the clearly best of them."""
    for seed in range(6):
        state = apply(put_down(seed, rules), PovertyReply(1, True))
        view = player_view(state, 1)
        legal = set(legal_actions(state, 1))
        strategy = Fixed(samples=4)
        strategy.pick = {}
        first = strategy.choose(view, random.Random(1))
        assert first == ReturnCards(1, tuple(sorted(poverty_return(view.hand, rules))))
        if len(legal) == 1:
            # Four plain cards under "no trumps back": nothing to weigh.
            assert not hasattr(strategy, "offered") and first in legal
            continue
        assert len(strategy.offered) >= 2 and strategy.offered[0] == first
        assert all(o in legal for o in strategy.offered)
        best = strategy.offered[-1]
        strategy.pick = {best: [2.0, 2.5, 1.5, 2.0]}
        if len(strategy.offered) > 2:
            strategy.pick[strategy.offered[1]] = [1.0, 1.0, 1.0, 1.0]
        assert strategy.choose(view, random.Random(1)) == best
        strategy.pick = {best: [4.0, -3.0, 4.0, -3.0]}
        assert strategy.choose(view, random.Random(1)) == first


def test_the_poor_player_puts_down_what_plays_out_clearly_best() -> None:
    """With two trumps or fewer the poor player chooses what fills up its cards; the
    heuristic's (its plain cards of most points) unless another is clearly better."""
    for seed in range(40):
        hands = poor_deal(seed)
        state = poverty.bid_poverty(GameSetup(rules=RULES, dealer=3, hands=hands), 0)
        if len(legal_actions(state, 0)) > 1:
            break
    view = player_view(state, 0)
    strategy = Fixed(samples=4)
    strategy.pick = {}
    first = strategy.choose(view, random.Random(1))
    assert first == PassCards(0, poverty_pass(view.hand, RULES))
    assert set(strategy.offered) <= set(view.legal) and len(strategy.offered) >= 2
    other = strategy.offered[1]
    strategy.pick = {other: [0.5, 0.6, 0.4, 0.5]}
    assert strategy.choose(view, random.Random(1)) == other


def test_a_game_with_a_poverty_plays_to_its_end_with_the_strong_ai_in_every_part() -> None:
    """Deal 14: seat 0 may announce a poverty, and with the heuristic's rules seat 1
    declines it and seat 2 takes it. The strong AI in each seat in turn (the poor
    player, the one asked first, the acceptor, the last one asked): the poverty is
    announced and taken every time, and the game is played to its end."""
    hands = poor_deal(14)
    setup = GameSetup(rules=RULES, dealer=3, hands=hands)
    assert not accepts_poverty(hands[1], RULES) and accepts_poverty(hands[2], RULES)
    for seat in range(4):
        players = [
            StrongStrategy(samples=4) if s == seat else HeuristicStrategy() for s in range(4)
        ]
        state, _ = play_deal(setup, players, random.Random(seat))
        assert state.phase is Phase.FINISHED and len(state.tricks) == 12
        assert state.poverty is not None and state.poverty.poor == 0
        assert state.poverty.acceptor in (1, 2, 3)
        assert state.parties.contract is Contract.POVERTY


@pytest.mark.parametrize("refused", ["schwarze_sau", "ramsch"])
def test_the_bid_simulates_a_poverty_nobody_takes_as_the_house_rule_plays_it(
    refused: str,
) -> None:
    """Against three chance players (each takes a poverty half the time) some simulated
    poverties go untaken: they are played on as Schwarze Sau (the one who wins the
    second ♠Q alone, so Re can still be announced) or as Ramsch (no parties, no
    announcements: the same score with or without)."""
    rules = RuleSet.from_dict({"poverty": True, "poverty_refused": refused})
    strategy = StrongStrategy(samples=4, table_noise=(None, 1.0, 1.0, 1.0))
    untaken = 0
    for seed in range(60):
        hands = poor_deal(seed, rules)
        view = player_view(GameState.new(GameSetup(rules=rules, dealer=3, hands=hands)), 0)
        final = strategy._play_deal(view, hands, Contract.POVERTY, random.Random(seed))
        assert final.phase is Phase.FINISHED and len(final.tricks) == 12
        if final.parties.contract is not Contract.POVERTY:
            untaken += 1
            assert final.parties.contract is Contract(refused)
            plain, called = strategy._simulate(view, hands, Contract.POVERTY, random.Random(seed))
            if refused == "ramsch":
                assert plain == called
    assert untaken >= 3


def test_a_poverty_partners_healthy_is_not_replayed_with_its_new_cards() -> None:
    """Seat 2 is poor and seat 1, asked after it, takes the cards; both bid with other
    cards than they hold in play. Seat 3's worlds replay only seat 0's healthy."""
    rng = random.Random(2)
    counted = poverty.counts_as_trump(RULES)
    while True:
        hands = deal(rng)
        if sum(c in counted for c in hands[2]) <= 3:
            break
    state = GameState.new(GameSetup(rules=RULES, dealer=3, hands=hands))
    for seat, word in enumerate(["healthy", "healthy", "poverty", "healthy"]):
        state = apply(state, Bid(seat, Reservation(word)))
    state = apply(state, PassCards(2, poverty_pass(hands[2], RULES)))
    state = apply(apply(state, PovertyReply(3, False)), PovertyReply(0, False))
    state = apply(state, PovertyReply(1, True))
    state = apply(state, ReturnCards(1, poverty_return(state.hands[1], RULES)))
    assert state.phase is Phase.PLAY and state.parties.contract is Contract.POVERTY
    view = player_view(state, 3)
    sample = world(view, state.hands)
    assert [o.seat for o in CallReplays(view).bids(sample)] == [0]


def test_the_timing_benchmark_asks_every_poverty_decision_in_its_positions() -> None:
    """benchmarks/poverty.py: per deal the bid, the answer and the cards given back,
    and putting down where the poor player has a choice (two trumps or fewer)."""
    steps = load("poverty").positions(12, RULES, 1)
    assert len(steps) == 12
    for position in steps:
        names = [name for name, _, _ in position]
        assert names in (
            ["bid", "answer", "give back"],
            ["bid", "put down", "answer", "give back"],
        )
        for name, state, seat in position:
            view = player_view(state, seat)
            assert view.to_act == seat and len(view.legal) > 1, name
    assert any(len(position) == 4 for position in steps)
