"""Sessions: dealer rotation, compulsory solos, Vorführen, running totals (docs/rules.md §5)."""

from __future__ import annotations

import random

import pytest

from dokobot.engine import (
    Bid,
    GameState,
    PassCards,
    PovertyReply,
    Reservation,
    RuleSet,
    Session,
    apply,
    legal_actions,
    score,
)
from dokobot.engine.game import poverty_trumps_required

COMPULSORY = RuleSet(compulsory_solos=1)


def play_out(state: GameState, rng: random.Random) -> GameState:
    """Finish a game with random legal card plays (no announcements)."""
    while not state.is_finished:
        state = apply(state, rng.choice(legal_actions(state, state.to_act)))
    return state


def play_game(session: Session, rng: random.Random, *bids: str) -> Session:
    """Deal the session's next game, say ``bids`` (healthy by default) and play it out."""
    state = GameState.new(session.next_setup(rng))
    words = list(bids) or ["healthy"] * 4
    for word in words:
        state = apply(state, Bid(state.to_act, Reservation(word)))  # type: ignore[arg-type]
    state = play_out(state, rng)
    return session.record(state, None if state.is_redeal else score(state))


def test_free_play_passes_the_deal_left_and_adds_up_totals() -> None:
    rng = random.Random(7)
    session = Session.start(first_dealer=2)
    assert (session.dealer, session.deals, session.is_over) == (2, None, False)
    dealers = []
    for _ in range(5):
        dealers.append(session.dealer)
        session = play_game(session, rng)
    assert dealers == [2, 3, 0, 1, 2]
    assert session.totals == tuple(sum(g.scores[s] for g in session.games) for s in range(4))
    assert sum(session.totals) == 0


def test_tournament_list_has_24_deals_and_one_compulsory_solo_each() -> None:
    session = Session.start(COMPULSORY)
    assert session.deals == 24
    assert [session.solos_owed(s) for s in range(4)] == [1, 1, 1, 1]
    assert session.next_setup(random.Random(1)).solo_owed == (True, True, True, True)


def test_compulsory_solo_does_not_use_up_a_deal() -> None:
    rng = random.Random(3)
    session = Session.start(COMPULSORY, first_dealer=0)
    # Seat 1 is asked first and plays its compulsory solo.
    session = play_game(session, rng, "solo:jack", "healthy", "healthy", "healthy")
    game = session.games[0]
    assert (game.compulsory, game.soloist, game.contract) == (True, 1, "solo:jack")
    assert (session.dealer, session.deals_played, session.solos_owed(1)) == (0, 0, 0)
    # A second solo by seat 1 is voluntary: the deal passes on.
    session = play_game(session, rng, "solo:queen", "healthy", "healthy", "healthy")
    assert session.games[1].compulsory is False
    assert (session.dealer, session.deals_played) == (1, 1)


def test_vorfuehren_when_owed_solos_fill_the_deals_left() -> None:
    rng = random.Random(5)
    session = Session.start(COMPULSORY, first_dealer=0, deals=5)
    assert session.forced is None  # 4 owed, 5 deals left
    session = play_game(session, rng)
    assert (session.dealer, session.deals_left, session.forced) == (1, 4, 2)
    setup = session.next_setup(rng)
    assert (setup.forced, setup.dealer) == (2, 1)
    state = GameState.new(setup)
    assert state.to_act == 2
    state = apply(state, Bid(2, Reservation.CLUBS_SOLO))
    assert state.parties.compulsory and state.to_act == 2  # the soloist leads
    state = play_out(state, rng)
    session = session.record(state, score(state))
    # A forced solo uses up its deal: the deal passes on, next owing seat left of dealer 2.
    assert (session.dealer, session.deals_left, session.solos_owed(2)) == (2, 3, 0)
    assert session.forced == 3


def test_redeal_keeps_the_dealer_and_the_deal() -> None:
    rules = RuleSet(poverty=True)
    rng = random.Random(11)
    session = Session.start(rules, first_dealer=1)
    # Find a deal with a poverty hand, then everybody declines.
    while True:
        setup = session.next_setup(rng)
        state = GameState.new(setup)
        seat = state.to_act
        if Reservation.POVERTY in [
            a.reservation for a in legal_actions(state) if isinstance(a, Bid)
        ]:
            break
    state = apply(state, Bid(seat, Reservation.POVERTY))  # type: ignore[arg-type]
    for _ in range(3):
        state = apply(state, Bid(state.to_act, Reservation.HEALTHY))  # type: ignore[arg-type]
    must = poverty_trumps_required(state, state.hands[seat])  # type: ignore[index]
    extra = [c for c in state.hands[seat] if c not in must]  # type: ignore[index]
    state = apply(state, PassCards(seat, tuple(must + extra)[:3]))  # type: ignore[arg-type]
    for _ in range(3):
        state = apply(state, PovertyReply(state.to_act, False))  # type: ignore[arg-type]
    assert state.is_redeal
    session = session.record(state, None)
    assert (session.dealer, session.deals_played, session.games[0].redeal) == (1, 0, True)
    assert session.totals == (0, 0, 0, 0)


def test_session_ends_after_its_deals() -> None:
    rng = random.Random(2)
    session = Session.start(first_dealer=0, deals=2)
    session = play_game(play_game(session, rng), rng)
    assert session.is_over
    with pytest.raises(ValueError, match="the session is over"):
        session.next_setup(rng)


def test_recording_a_game_of_the_wrong_dealer_is_refused() -> None:
    rng = random.Random(4)
    session = Session.start(first_dealer=0)
    state = play_out(GameState.new(Session.start(first_dealer=3).next_setup(rng)), rng)
    with pytest.raises(ValueError, match="seat 0 deals this game"):
        session.record(state, score(state) if not state.is_redeal else None)
