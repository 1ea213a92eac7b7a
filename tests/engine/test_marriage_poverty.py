"""Marriage clarification and the poverty exchange (docs/rules.md §4)."""

from __future__ import annotations

import pytest

from dokobot.engine import (
    Card,
    Contract,
    GameState,
    IllegalActionError,
    MarriageClarification,
    PassCards,
    Phase,
    Play,
    PovertyReply,
    ReturnCards,
    RuleSet,
    apply,
    legal_actions,
    legal_cards,
    outcome,
    parse_cards,
    player_view,
    score,
)

from .helpers import DEAL_MARRIAGE, DEAL_POOR, announce, bid, new, play

CLUBS_TO_SEAT_2 = "C10 C9 CA CK"  # seat 0 leads clubs, seat 2's ace wins (plain trick)
SPADES_TO_SEAT_0 = "SA S10 SA S9"  # seat 0's first ace wins (plain trick)
HEARTS_TO_SEAT_0 = "HA H9 HK CK"
TRUMP_TO_SEAT_0 = "H10 DK SJ DQ"


def marriage(rule: MarriageClarification = MarriageClarification.FIRST_TRICK) -> GameState:
    rules = RuleSet(marriage_clarification=rule)
    return bid(new(DEAL_MARRIAGE, rules=rules), "marriage", "healthy", "healthy", "healthy")


def test_marriage_partner_found_in_the_first_trick() -> None:
    state = marriage()
    assert (state.contract, state.parties.re) == (Contract.MARRIAGE, None)
    state = play(state, CLUBS_TO_SEAT_2)
    assert state.parties.re == (True, False, True, False)
    assert (state.parties.partner, state.parties.clarified_in, state.parties.shift) == (2, 1, 0)


def test_marriage_partner_found_in_the_second_trick() -> None:
    state = play(marriage(), SPADES_TO_SEAT_0)
    assert state.parties.re is None
    state = play(state, CLUBS_TO_SEAT_2)
    assert (state.parties.partner, state.parties.clarified_in, state.parties.shift) == (2, 2, 1)


def test_marriage_player_winning_three_tricks_plays_alone() -> None:
    state = play(marriage(), SPADES_TO_SEAT_0, HEARTS_TO_SEAT_0)
    assert state.contract is Contract.MARRIAGE
    state = play(state, TRUMP_TO_SEAT_0)
    assert state.contract is Contract.MARRIAGE_ALONE
    assert state.parties.re == (True, False, False, False)
    assert (state.parties.clarified_in, state.parties.shift) == (3, 2)


def test_first_trump_trick_rule_ignores_plain_tricks() -> None:
    state = play(marriage(MarriageClarification.FIRST_TRUMP_TRICK), CLUBS_TO_SEAT_2)
    assert state.parties.re is None  # seat 2 won a plain trick: it does not count
    state = play(state, "D10 DK D9 DQ")  # seat 2 leads trump, seat 1's DQ wins
    assert (state.parties.partner, state.parties.clarified_in) == (1, 2)


def test_first_plain_trick_rule_ignores_trump_tricks() -> None:
    state = play(marriage(MarriageClarification.FIRST_PLAIN_TRICK), "D9 D10 DA DK")
    assert state.tricks[0].winner == 2 and state.parties.re is None
    state = play(state, "C9 C10 CA CK")  # seat 2 leads clubs, seat 0's ace wins
    assert state.parties.re is None
    state = play(state, "S9 SK SA S10")  # seat 0 leads spades, seat 2's ace wins
    assert (state.parties.partner, state.parties.clarified_in, state.parties.shift) == (2, 3, 2)


def test_no_announcement_before_the_marriage_is_clarified() -> None:
    state = marriage()
    with pytest.raises(IllegalActionError, match="before the marriage partner is found"):
        announce(state, 0, "re")
    assert all(isinstance(a, Play) for a in legal_actions(state))


@pytest.mark.parametrize(
    ("tricks", "latest_played"),
    [
        ((CLUBS_TO_SEAT_2,), 1),
        ((SPADES_TO_SEAT_0, CLUBS_TO_SEAT_2), 2),
        ((SPADES_TO_SEAT_0, HEARTS_TO_SEAT_0, TRUMP_TO_SEAT_0), 3),
    ],
)
def test_marriage_deadlines_move_back_with_the_clarification_trick(
    tricks: tuple[str, ...], latest_played: int
) -> None:
    """§6: clarified in trick 2 (3), every deadline moves back by 1 (2) cards."""
    state = play(marriage(), *tricks)
    assert [state.cards_played(s) for s in range(4)] == [latest_played] * 4
    leader = state.to_act
    assert leader is not None
    word = "re" if state.parties.re[leader] else "kontra"  # type: ignore[index]
    assert announce(state, leader, word).calls.log[-1].seat == leader
    # Once the leader plays another card it is too late for them, not for the others.
    later = play(state, legal_cards(state)[0].name)
    with pytest.raises(IllegalActionError, match=f"Too late for {word.capitalize()}"):
        announce(later, leader, word)
    other = (leader + 1) % 4
    other_word = "re" if later.parties.re[other] else "kontra"  # type: ignore[index]
    assert announce(later, other, other_word).calls.log[-1].seat == other


def test_marriage_alone_is_scored_as_a_solo_without_extras() -> None:
    state = play(marriage(), SPADES_TO_SEAT_0, HEARTS_TO_SEAT_0, TRUMP_TO_SEAT_0)
    # Seat 0 keeps leading from the top and the others follow as they must.
    while not state.is_finished:
        legal = [a for a in legal_actions(state) if isinstance(a, Play)]
        state = apply(state, legal[0])
    result = score(state)
    assert result.contract is Contract.MARRIAGE_ALONE
    assert result.soloist == 0
    assert all(i.item not in ("doppelkopf", "fox_caught", "karlchen") for i in result.breakdown)
    assert result.scores[0] == -3 * result.scores[1]
    assert result.compulsory is False


# --------------------------------------------------------------------------- poverty


POVERTY = RuleSet(poverty=True)


def poverty(rules: RuleSet = POVERTY) -> GameState:
    return bid(new(DEAL_POOR, rules=rules), "healthy", "poverty", "healthy", "healthy")


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text.split()))


def test_poverty_exchange() -> None:
    state = poverty()
    assert (state.phase, state.to_act) == (Phase.POVERTY, 1)
    with pytest.raises(IllegalActionError, match="Nobody may announce before the game type"):
        announce(state, 0, "re")
    with pytest.raises(IllegalActionError, match="put down all your trumps: DA is missing"):
        apply(state, PassCards(1, cards("D9 DK CA")))
    with pytest.raises(IllegalActionError, match="Put down exactly 3 cards, not 2"):
        apply(state, PassCards(1, cards("D9 DK")))
    state = apply(state, PassCards(1, cards("D9 DK DA")))
    assert len(state.hands[1]) == 9 and state.to_act == 2
    state = apply(state, PovertyReply(2, False))
    with pytest.raises(IllegalActionError, match="It is seat 3's turn"):
        apply(state, PovertyReply(0, True))
    state = apply(state, PovertyReply(3, True))
    assert len(state.hands[3]) == 15 and state.to_act == 3
    with pytest.raises(IllegalActionError, match="You do not hold HA"):
        apply(state, ReturnCards(3, cards("HA CK S9")))
    state = apply(state, ReturnCards(3, cards("DA CK S9")))
    assert state.phase is Phase.PLAY
    assert state.parties.re == (False, True, False, True)
    assert (state.parties.declarer, state.parties.partner) == (1, 3)
    assert state.to_act == 0  # left of the dealer leads
    assert state.hands[1] == tuple(sorted(cards("CA CA C10 CK CK SA S10 S9 HA HK H9 DA")))
    assert len(state.hands[3]) == 12
    # The poor player sees what came back; the others only how many trumps it held.
    assert player_view(state, 1).poverty_cards == cards("D9 DK DA DA CK S9")
    assert player_view(state, 0).poverty_cards == ()
    assert player_view(state, 0).poverty_trumps_returned == 1


def test_the_poor_player_may_choose_only_cards_of_a_legal_set() -> None:
    # Seat 1 holds exactly three trumps, so those three are the only legal set.
    state = poverty()
    assert outcome(state)["legal"] == ["DA", "DK", "D9"]
    rich = apply(apply(state, PassCards(1, cards("D9 DK DA"))), PovertyReply(2, False))
    rich = apply(rich, PovertyReply(3, True))
    # The acceptor may give back any three of its fifteen cards, trumps included.
    assert len(outcome(rich)["legal"]) == len(set(rich.hands[3]))


def test_everyone_declines_the_poverty_and_the_hand_is_redealt() -> None:
    state = apply(poverty(), PassCards(1, cards("D9 DK DA")))
    for seat in (2, 3, 0):
        state = apply(state, PovertyReply(seat, False))
    assert state.is_finished and state.is_redeal


def test_poverty_without_the_fox_keeps_the_diamonds_ace() -> None:
    hands = (
        DEAL_POOR[0],
        DEAL_POOR[1].replace("HA", "D10"),
        DEAL_POOR[2],
        DEAL_POOR[3].replace("D10", "HA"),
    )
    rules = RuleSet(poverty=True, poverty_fox_counts=False)
    state = bid(new(hands, rules=rules), "healthy", "poverty", "healthy", "healthy")
    with pytest.raises(IllegalActionError, match="D10 is missing"):
        apply(state, PassCards(1, cards("D9 DK DA")))
    state = apply(state, PassCards(1, cards("D9 DK D10")))
    assert Card.DA in state.hands[1]


def test_silent_marriage_is_scored_as_a_solo_without_extras() -> None:
    state = bid(new(DEAL_MARRIAGE), "healthy", "healthy", "healthy", "healthy")
    while not state.is_finished:
        state = apply(state, next(a for a in legal_actions(state) if isinstance(a, Play)))
    result = score(state)
    assert (result.contract, result.soloist, result.re) == (Contract.SILENT_MARRIAGE, 0, (0,))
    assert all(
        i.item not in ("doppelkopf", "fox_caught", "karlchen", "against_the_queens")
        for i in result.breakdown
    )
    value = (
        result.game_value if result.winner and result.winner.value == "re" else -result.game_value
    )
    assert result.scores == (3 * value, -value, -value, -value)
    assert value != 0
