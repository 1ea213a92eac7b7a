"""Sampled worlds of a marriage and of a poverty hold what the view knows of them."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dokobot.ai.strong import StrongStrategy, playout
from dokobot.ai.worlds import deal_leaning, deal_unseen, played_by, voids, world
from dokobot.engine import (
    TRUMP,
    Action,
    Announce,
    Announcement,
    Bid,
    Card,
    Contract,
    GameSetup,
    GameState,
    Phase,
    Play,
    PovertyReply,
    Reservation,
    RuleSet,
    apply,
    deal,
    legal_actions,
    legal_cards,
    order_for,
    player_view,
    score,
)

POVERTY_RULES = {
    "poverty": RuleSet.from_dict({"poverty": True}),
    "fox not counted": RuleSet.from_dict({"poverty": True, "poverty_fox_counts": False}),
    "four cards": RuleSet.from_dict({"poverty": True, "poverty_cards": 4}),
}


def marriage(seed: int, cards_played: int) -> GameState:
    """A marriage of seat 0 (the first deal from ``seed`` on that gives it both ♣Q),
    played randomly for ``cards_played`` cards."""
    rng = random.Random(seed)
    while True:
        hands = deal(rng)
        if hands[0].count(Card.CQ) == 2:
            break
    state = GameState.new(GameSetup(rules=RuleSet(), dealer=3, hands=hands))
    state = apply(state, Bid(0, Reservation.MARRIAGE))
    for seat in (1, 2, 3):
        state = apply(state, Bid(seat, Reservation.HEALTHY))
    return _play(state, rng, cards_played)


def poverty(seed: int, rules: RuleSet, cards_played: int) -> GameState:
    """A poverty of seat 0 (the first deal from ``seed`` on where it may announce one),
    its cards and the returned ones chosen at random, taken by seat 1 or 2 (by the
    seed), then played randomly for ``cards_played`` cards."""
    rng = random.Random(seed)
    while True:
        state = GameState.new(GameSetup(rules=rules, dealer=3, hands=deal(rng)))
        if Bid(0, Reservation.POVERTY) in legal_actions(state, 0):
            break
    state = apply(state, Bid(0, Reservation.POVERTY))
    for seat in (1, 2, 3):
        state = apply(state, Bid(seat, Reservation.HEALTHY))
    state = apply(state, rng.choice(legal_actions(state, 0)))  # the cards put down
    taker = 1 + seed % 2
    for seat in range(1, taker + 1):
        state = apply(state, PovertyReply(seat, seat == taker))
    state = apply(state, rng.choice(legal_actions(state, taker)))  # the cards given back
    assert state.phase is Phase.PLAY and state.parties.contract is Contract.POVERTY
    return _play(state, rng, cards_played)


def _play(state: GameState, rng: random.Random, cards_played: int) -> GameState:
    for _ in range(cards_played):
        seat = state.to_act
        assert seat is not None
        state = apply(state, Play(seat, rng.choice(legal_cards(state))))
    return state


def worlds_of(state: GameState, seat: int, count: int = 6) -> list[list[list[Card]]]:
    """``count`` worlds of ``seat``'s view, uniform and leaning hard each way, each
    checked for what every world must hold and played to a valid end."""
    view = player_view(state, seat)
    rng = random.Random(seat)
    lean = [{c: rng.choice((0.05, 1.0, 20.0)) for c in Card} for _ in range(4)]
    out = []
    for i in range(count):
        if i % 2:
            dealt = deal_leaning(view, rng, lean)
            hands = None if dealt is None else dealt[0]
        else:
            hands = deal_unseen(view, rng)
        assert hands is not None, (seat, len(state.tricks))
        assert sorted(hands[seat]) == sorted(view.hand)
        assert [len(h) for h in hands] == list(view.hand_sizes)
        # Every card of the deck once: the hands, the tricks, the trick in progress.
        dealt_now = Counter(c for h in hands for c in h)
        assert dealt_now + Counter(c for h in played_by(view) for c in h) == Counter(
            c for h in state.setup.hands for c in h
        )
        void = voids(view)
        cls = view.order.suit_class
        for s in range(4):
            assert not any(cls[c] in void[s] for c in hands[s])
        finished = playout(world(view, hands), random.Random(i))
        assert sum(score(finished).scores) == 0
        out.append(hands)
    return out


@pytest.mark.parametrize("cards_played", [0, 1, 3, 6, 9])
def test_in_every_world_the_marriage_player_holds_the_queens_of_clubs_it_has_not_played(
    cards_played: int,
) -> None:
    for seed in range(10):
        state = marriage(seed, cards_played)
        unplayed = state.hands[0].count(Card.CQ)
        for seat in (1, 2, 3):
            for hands in worlds_of(state, seat):
                assert hands[0].count(Card.CQ) == unplayed, (seed, seat)


def trumps(hand: list[Card] | tuple[Card, ...], rules: RuleSet) -> int:
    """The trumps that count for poverty (docs/rules.md §4)."""
    cls = order_for(rules, Contract.NORMAL).suit_class
    return sum(1 for c in hand if cls[c] == TRUMP and (rules.poverty_fox_counts or c != Card.DA))


@pytest.mark.parametrize("name", list(POVERTY_RULES))
@pytest.mark.parametrize("cards_played", [0, 4, 9, 22])
def test_in_every_world_of_a_poverty_the_poor_player_holds_the_trumps_that_came_back(
    name: str, cards_played: int
) -> None:
    """The poor player put down every trump it had and holds only those that came back
    (a public count); it holds exactly the cards given back, the acceptor the cards
    put down, less what each has played since (docs/rules.md §4)."""
    rules = POVERTY_RULES[name]
    n = rules.poverty_cards
    for seed in range(8):
        state = poverty(seed, rules, cards_played)
        pov = state.poverty
        assert pov is not None and pov.acceptor is not None
        acceptor = pov.acceptor
        back = sum(1 for c in pov.returned if state.parties.order.suit_class[c] == TRUMP)
        assert player_view(state, 3).poverty_trumps_returned == back
        poor_now = trumps(state.hands[0], rules)
        played = played_by(player_view(state, 0))
        for seat in (1, 2, 3):
            for hands in worlds_of(state, seat):
                held = trumps(hands[0], rules)
                if rules.poverty_fox_counts or seat == acceptor:
                    # Exactly as many trumps as the poor player really holds.
                    assert held == poor_now, (name, seed, seat)
                else:
                    # Two of those that came back may be a ♦A, which do not count.
                    assert poor_now - 2 <= held <= poor_now + 2, (name, seed, seat)
                    assert held <= back - trumps(played[0], rules), (name, seed, seat)
                if seat == acceptor:
                    given = Counter(pov.returned) - Counter(played[0])
                    assert not given - Counter(hands[0]), (name, seed)
        kept = Counter(pov.passed) - Counter(pov.returned) - Counter(played[acceptor])
        for hands in worlds_of(state, 0):
            assert not kept - Counter(hands[acceptor]), (name, seed)
        assert len(pov.passed) == n


#: House rules under which a world must settle what the actions alone used to tell:
#: Zwingen (§9.4), a marriage clarified in trick 2 or 3 (its deadline shift, §4, §6),
#: a late reply that bars its party (§6), a Schwarze Sau (§9.3), declarations (§9.1).
HOUSE_RULES = [
    RuleSet.from_dict({"compulsory_announcement": "first_trick_30_renew"}),
    RuleSet.from_dict({"compulsory_announcement": "first_trick_30", "announce_on_turn_only": True}),
    RuleSet.from_dict(
        {"marriage_clarification": "first_trump_trick", "announcement_doubles": True}
    ),
    RuleSet.from_dict({"marriage_clarification": "first_plain_trick", "schweinchen": "at_once"}),
    RuleSet.from_dict({"poverty": True, "poverty_refused": "schwarze_sau", "genscher": True}),
    RuleSet.from_dict({"preset": "pub", "solo_overbid": True}),
]


def _random_game(seed: int) -> tuple[list[tuple[GameState, Action]], GameState]:
    """A game under one of ``HOUSE_RULES`` played by chance, announcing often and
    announcing a marriage or a poverty where it may: each state with the action taken
    there, and the end."""
    rng = random.Random(seed)
    rules = HOUSE_RULES[seed % len(HOUSE_RULES)]
    state = GameState.new(
        GameSetup(rules=rules, dealer=seed % 4, hands=deal(rng, nines=rules.nines))
    )
    steps: list[tuple[GameState, Action]] = []
    while not state.is_finished:
        actions = legal_actions(state)
        bids = {a.reservation: a for a in actions if isinstance(a, Bid)}
        calls = [a for a in actions if not isinstance(a, Play | Bid | PovertyReply)]
        rare = [bids[r] for r in (Reservation.MARRIAGE, Reservation.POVERTY) if r in bids]
        action: Action
        if rare:
            action = rare[0]
        elif Reservation.HEALTHY in bids:
            action = bids[Reservation.HEALTHY]
        elif calls and rng.random() < 0.2:
            action = rng.choice(calls)
        else:
            action = rng.choice([a for a in actions if a not in calls] or actions)
        steps.append((state, action))
        state = apply(state, action)
    return steps, state


@pytest.mark.parametrize("seed", range(0, 240, 20))
def test_a_world_of_the_true_hands_allows_what_the_game_allows_and_scores_as_it_did(
    seed: int,
) -> None:
    """Rebuilt from a seat's view with the true hands, the game is the game: the same
    legal actions (duties, late replies and deadline shifts included) and, played on
    as it was, the same scores. Before, a world had no actions (so a Zwingen duty met
    looked owed), no late-reply bar, no shift, and a silent marriage shown by its
    queens scored as a normal game."""
    checked = 0
    for game in range(seed, seed + 20):
        steps, final = _random_game(game)
        if not final.tricks:
            continue  # dealt again: nothing to score
        scores = score(final).scores
        for index, (state, _) in enumerate(steps):
            if state.phase is not Phase.PLAY:
                continue
            seat = state.to_act
            assert seat is not None
            view = player_view(state, seat)
            rebuilt = world(view, state.hands)
            assert set(legal_actions(rebuilt, seat)) == set(view.legal), (game, index)
            for _, action in steps[index:]:
                rebuilt = apply(rebuilt, action)
            assert score(rebuilt).scores == scores, (game, index)
            checked += 1
    assert checked > 300


def test_the_strong_ai_leads_after_its_party_met_the_zwingen_duty() -> None:
    """Under first_trick_30_renew (docs/rules.md §9.4): seat 2 wins a first trick of 31
    (♣10 ♣10 ♣A ♣9), its partner seat 0 then says Kontra, so the duty is met and seat 2
    simply leads. The strong AI's worlds used to owe the duty again and raised
    'announce no 90 before you lead' on every card."""
    rules = RuleSet.from_dict({"compulsory_announcement": "first_trick_30_renew"})
    state = GameState.new(GameSetup(rules=rules, dealer=3, hands=deal(random.Random(25))))
    for seat in range(4):
        state = apply(state, Bid(seat, Reservation.HEALTHY))
    for seat in (0, 1, 2, 3):  # seat 0, left of the dealer, leads
        state = apply(state, Play(seat, legal_cards(state)[0]))
    assert state.tricks[0].cards == (Card.C10, Card.C10, Card.CA, Card.C9)
    assert (state.tricks[0].winner, state.tricks[0].points) == (2, 31)
    state = apply(state, Announce(0, Announcement.PARTY))
    view = player_view(state, 2)
    assert any(isinstance(a, Play) for a in view.legal)
    action = StrongStrategy(samples=6).choose(view, random.Random(1))
    assert isinstance(action, Play | Announce)
    apply(state, action)
