"""Judging how well each player played, once the game is over (``dokobot.ai.skill``)."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from dokobot.ai import make_strategy
from dokobot.ai.arena import deal_results, play_deal
from dokobot.ai.skill import Judged, Skill, judge, table_noise
from dokobot.ai.strong import StrongStrategy
from dokobot.engine import (
    DDV,
    Action,
    Bid,
    Card,
    GameSetup,
    GameState,
    PlayerView,
    deal,
    player_view,
)
from dokobot.engine.rules import Dullen


def _game(players: list[str], index: int) -> GameState:
    setup = GameSetup(rules=DDV, dealer=index % 4, hands=deal(random.Random(f"skill:{index}")))
    final, _ = play_deal(setup, [make_strategy(p) for p in players], random.Random(index))
    return final


def test_the_last_card_of_each_trick_is_judged_against_the_best_one_there() -> None:
    """Every trick whose last player had a choice gives one judged card: what its party
    lost in that trick against the best legal card, and what a random one loses."""
    from dokobot.engine import trick_winner
    from dokobot.engine.cards import CARD_POINTS

    final = _game(["random"] * 4, 3)
    judged = judge(final)
    order, re = final.parties.order, final.parties.re
    assert re is not None
    expected = []
    for i, trick in enumerate(final.tricks):
        seat = trick.seat_of(3)
        hand = [t.card_of(seat) for t in final.tricks[i:]]
        led = order.suit_class[trick.cards[0]]
        legal = {c for c in hand if order.suit_class[c] == led} or set(hand)
        if len(legal) > 1:
            expected.append(seat)
            # The card it played, as the engine scored the trick: its party's points.
            mine = trick.points if re[trick.winner] == re[seat] else -trick.points
            second = final.rules.dullen.second_wins(i + 1 == final.rules.tricks)

            def value(card: int, i: int = i, seat: int = seat, second: bool = second) -> int:
                cards = (*final.tricks[i].cards[:3], card)
                won = trick_winner(cards, final.tricks[i].leader, order, second)
                points = sum(CARD_POINTS[c] for c in cards)
                return points if re[won] == re[seat] else -points

            assert value(trick.cards[3]) == mine
            better = [c for c in legal if value(c) > mine]
            j = judged[len(expected) - 1]
            assert (j.loss > 0) == bool(better), (i, trick.cards, sorted(legal))
    assert [j.seat for j in judged] == expected
    assert all(j.loss >= 0 and j.chance > 0 for j in judged)


def test_random_players_are_judged_far_more_random_than_the_heuristic() -> None:
    """Over 40 games at one table (heuristic, random, easy, random): the random
    players' last cards look like ε ≈ 1, the heuristic's like ε ≈ 0.25 and the easy
    AI's, the heuristic with deliberate mistakes, in between."""
    skills = [Skill() for _ in range(4)]
    players = ["heuristic", "random", "easy", "random"]
    for index in range(40):
        for j in judge(_game(players, index)):
            skills[j.seat].add([j])
    eps = [k.loss / k.chance for k in skills]
    assert all(k.cards > 50 for k in skills)
    assert eps[0] < 0.35
    assert eps[0] < eps[2] < min(eps[1], eps[3])
    assert min(eps[1], eps[3]) > 0.8


def test_a_player_not_judged_yet_keeps_the_prior_and_few_cards_move_it_little() -> None:
    skill = Skill()
    assert skill.noise(0.5) == 0.5
    skill.add([])
    assert skill.noise(0.5) == 0.5
    skill.add([Judged(1, 8.0, 4.0)])  # one card twice as bad as a random one
    assert 0.5 < skill.noise(0.5) < 0.75  # one card moves it less than halfway
    skill.add([Judged(1, 8.0, 4.0)] * 200)
    assert skill.noise(0.5) == 1.0  # capped: no player is worse than chance
    assert Skill(*skill.as_list()).noise(0.5) == skill.noise(0.5)


def test_a_session_at_one_table_learns_the_players_and_the_strong_ai_takes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``dokobot simulate --session``: each deal's games are judged into the table's
    sheet, per player, whichever seat the rotation gave them; the strong AI of the
    next deal sees each seat's judgement, the first deal's sees none."""
    seen: list[tuple[float | None, ...] | None] = []
    choose = StrongStrategy.choose

    def spy(self: StrongStrategy, view: PlayerView, rng: random.Random) -> Action:
        seen.append(self.table_noise)
        return choose(self, view, rng)

    monkeypatch.setattr(StrongStrategy, "choose", spy)
    skills = [Skill() for _ in range(4)]
    players = ("strong", "random", "random", "random")
    deal_results(0, 5, players, DDV, True, (4, None), skills)
    assert all(k.cards >= 4 for k in skills)
    assert set(seen) == {(None, None, None, None)}
    after_first = copy.deepcopy(skills)
    seen.clear()
    deal_results(1, 5, players, DDV, True, (4, None), skills)
    assert all(k.cards > n.cards for k, n in zip(skills, after_first, strict=True))
    # Rotation 0 seats the players in order; each later one moves them a seat on.
    noise = table_noise(after_first, StrongStrategy.model_noise)
    assert seen[0] == noise
    assert set(seen) == {noise[-shift:] + noise[:-shift] for shift in range(4)}
    assert all(e is not None and 0 < e <= 1 for e in noise)


def test_the_strong_ai_takes_the_tables_judgement_as_its_prior() -> None:
    """Before a card of theirs is seen, each other seat plays in the strong AI's
    simulations as the table judged it; an unjudged seat with the model's prior."""
    view = player_view(GameState.new(GameSetup(dealer=3, hands=deal(random.Random(2)))), 0)
    strategy = StrongStrategy(table_noise=(0.9, 1.0, None, 0.25))
    # A player judged better than the prior is still simulated at the prior (0.5).
    assert strategy._fit(view, []) == [0.0, 1.0, 0.5, 0.5]
    assert dataclasses.replace(strategy, table_noise=None)._fit(view, []) == [
        0.0,
        *[StrongStrategy.model_noise] * 3,
    ]


def test_against_a_table_judged_random_the_strong_ai_plays_a_solo_it_would_not_risk_else() -> None:
    """♣10 ♣J ♣K ♠9 ♠J ♠Q ♥10 ♥Q ♥K ♦Q ♦A ♦A: healthy against players it knows nothing
    of, or judged as careful as the heuristic; a clubs solo against three players the
    table judged random, whose defence it then simulates as chance."""
    setup = GameSetup(rules=DDV, dealer=3, hands=deal(random.Random("solo:12")))
    view = player_view(GameState.new(setup), 0)

    def bid(noise: tuple[float | None, ...] | None) -> str:
        action = StrongStrategy(samples=16, table_noise=noise).choose(view, random.Random(1))
        assert isinstance(action, Bid)
        return action.reservation.value

    assert bid(None) == "healthy"
    assert bid((None, 0.25, 0.25, 0.25)) == "healthy"
    assert bid((None, 1.0, 1.0, 1.0)) == "solo:clubs"


def _chance_tables(players: list[str], seed: int, deals: int = 25) -> int:
    """Of a session's games, how many a strong AI in player 0's seat would play as
    against three chance players, the table judging each player from the deals before
    (player 0 plays at random here: how it plays hardly moves how the others are judged,
    and the strong AI's search would take minutes)."""
    skills = [Skill() for _ in range(4)]
    start = GameState.new(GameSetup(dealer=3, hands=deal(random.Random(2))))
    tables = 0
    for index in range(deals):
        for shift in range(4):
            seated = [skills[(s - shift) % 4] for s in range(4)]
            known = table_noise(seated, StrongStrategy.model_noise)
            minded = StrongStrategy(table_noise=known)._minded(player_view(start, shift))
            tables += not minded
        deal_results(index, seed, players, DDV, True, skills=skills)
    return tables


def test_a_session_against_random_players_is_mostly_played_as_against_chance_players() -> None:
    """A table's judgement of a random player strays far from 1 (in 12 sessions of 25
    deals the lowest of 48 random players ended at 0.76): at 0.7 (``chance_noise``) the
    strong AI takes three random players for chance players in 64 and 84 of a session's
    100 games, where at 0.9 it did in 0 and 56; three easy players it never takes for
    them."""
    assert StrongStrategy.chance_noise == 0.7
    assert _chance_tables(["random"] * 4, 2) == 64
    assert _chance_tables(["random"] * 4, 3) == 84
    assert _chance_tables(["random", "easy", "easy", "easy"], 2) == 0


def test_the_judge_knows_the_second_dulle_beats_the_first_where_the_table_says_so() -> None:
    """docs/rules.md §3, house rule ``dullen: second_wins``: Re leads ♥10, then ♦K, ♥J,
    and Kontra's last player adds ♠Q although it holds the other ♥10, which would have
    taken the trick: 26 points for Kontra lost, 19 given to Re — 45 points."""
    rules = dataclasses.replace(DDV, dullen=Dullen.SECOND_WINS)
    setup = GameSetup(rules=rules, dealer=9 % 4, hands=deal(random.Random("skill:9")))
    final, _ = play_deal(setup, [make_strategy("random")] * 4, random.Random(9))
    trick = final.tricks[3]
    assert trick.cards == (Card.H10, Card.DK, Card.HJ, Card.SQ) and trick.seat_of(3) == 1
    assert final.parties.re == (True, False, True, False)
    assert Card.H10 in [t.card_of(1) for t in final.tricks[4:]]
    judged = next(j for j in judge(final) if j.trick == 3)
    assert judged.seat == 1 and judged.loss == 45
