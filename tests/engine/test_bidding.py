"""The reservation round: what may be said, priorities, who leads (docs/rules.md §4, §5)."""

from __future__ import annotations

import pytest

from dokobot.engine import (
    Contract,
    IllegalActionError,
    Phase,
    Reservation,
    ReservationPriority,
    RuleSet,
    SoloType,
    legal_bids,
)

from .helpers import DEAL_MARRIAGE, DEAL_POOR, bid, healthy, new

POVERTY = RuleSet(poverty=True)


def test_all_healthy_is_a_normal_game_with_the_queens_of_clubs_as_re() -> None:
    state = healthy(new())
    assert state.contract is Contract.NORMAL
    assert state.parties.seats(state.party(0)) == (0, 2)  # type: ignore[arg-type]
    assert state.party(1).value == "kontra"  # type: ignore[union-attr]
    assert (state.phase, state.to_act) == (Phase.PLAY, 0)  # left of dealer 3 leads


def test_bidding_starts_left_of_the_dealer() -> None:
    state = new(dealer=1)
    assert state.to_act == 2
    state = bid(state, "healthy")
    assert state.to_act == 3


def test_both_queens_and_healthy_is_a_silent_marriage() -> None:
    state = healthy(new(DEAL_MARRIAGE))
    assert state.contract is Contract.SILENT_MARRIAGE
    assert state.parties.re == (True, False, False, False)
    assert state.to_act == 0


def test_marriage_needs_both_queens_of_clubs() -> None:
    state = new()
    assert Reservation.MARRIAGE not in legal_bids(state)
    with pytest.raises(IllegalActionError, match="A marriage needs both queens of clubs"):
        bid(state, "marriage")
    assert Reservation.MARRIAGE in legal_bids(new(DEAL_MARRIAGE))


def test_default_bids_are_healthy_and_the_ddv_solos() -> None:
    assert [b.value for b in legal_bids(new())] == [
        "healthy",
        "solo:queen",
        "solo:jack",
        "solo:meatless",
        "solo:clubs",
        "solo:spades",
        "solo:hearts",
        "solo:diamonds",
    ]


def test_king_solo_only_when_allowed() -> None:
    with pytest.raises(IllegalActionError, match="The king solo is not allowed"):
        bid(new(), "solo:king")
    rules = RuleSet(solos=frozenset({SoloType.KING, SoloType.QUEEN}))
    state = bid(new(rules=rules), "solo:king", "healthy", "healthy", "healthy")
    assert state.contract is Contract.KING_SOLO
    with pytest.raises(IllegalActionError, match="The jack solo is not allowed"):
        bid(new(rules=rules), "solo:jack")


def test_throwing_in_is_refused_without_a_house_rule() -> None:
    with pytest.raises(IllegalActionError, match="Throwing in the cards is not allowed"):
        bid(new(), "throw")


def test_poverty_needs_the_house_rule_and_at_most_three_trumps() -> None:
    # Seat 1 is asked second (dealer 3).
    with pytest.raises(IllegalActionError, match="Poverty is not played under these rules"):
        bid(new(DEAL_POOR), "healthy", "poverty")
    assert Reservation.POVERTY in legal_bids(bid(new(DEAL_POOR, rules=POVERTY), "healthy"))
    with pytest.raises(IllegalActionError, match="Poverty needs at most 3 trumps; you hold 7"):
        bid(new(DEAL_POOR, rules=POVERTY), "poverty")


# Seat 1 holds D9 DK DA D10: four trumps, three if the fox does not count.
DEAL_POOR_FOX = (
    DEAL_POOR[0],
    DEAL_POOR[1].replace("HA", "D10"),
    DEAL_POOR[2],
    DEAL_POOR[3].replace("D10", "HA"),
)


def test_poverty_fox_counts_house_rule() -> None:
    with pytest.raises(IllegalActionError, match="Poverty needs at most 3 trumps; you hold 4"):
        bid(new(DEAL_POOR_FOX, rules=POVERTY), "healthy", "poverty")
    rules = RuleSet(poverty=True, poverty_fox_counts=False)
    state = bid(new(DEAL_POOR_FOX, rules=rules), "healthy", "poverty", "healthy", "healthy")
    assert (state.contract, state.phase, state.to_act) == (Contract.POVERTY, Phase.POVERTY, 1)


def test_solo_beats_marriage_and_is_announced_by_contract() -> None:
    # Seat 0 (first) says marriage, seat 2 a queen solo: the solo wins.
    state = bid(new(DEAL_MARRIAGE), "marriage", "healthy", "solo:queen", "healthy")
    assert state.contract is Contract.QUEEN_SOLO
    assert state.parties.declarer == 2
    assert state.parties.re == (False, False, True, False)


def test_poverty_beats_marriage() -> None:
    rules = RuleSet(poverty=True)
    hands = DEAL_POOR
    # Give seat 0 both queens: swap seat 0's H9 with seat 2's CQ.
    hands = (
        hands[0].replace("H9", "CQ"),
        hands[1],
        hands[2].replace("CQ", "H9"),
        hands[3],
    )
    state = bid(new(hands, rules=rules), "marriage", "poverty", "healthy", "healthy")
    assert state.contract is Contract.POVERTY
    assert (state.phase, state.to_act) == (Phase.POVERTY, 1)


@pytest.mark.parametrize(
    ("priority", "winner"), [(ReservationPriority.FIRST, 1), (ReservationPriority.LAST, 3)]
)
def test_equal_reservations_first_or_last_asked(priority: ReservationPriority, winner: int) -> None:
    rules = RuleSet(reservation_priority=priority)
    state = bid(new(rules=rules), "healthy", "solo:jack", "healthy", "solo:clubs")
    assert state.parties.declarer == winner
    assert state.contract is (Contract.JACK_SOLO if winner == 1 else Contract.CLUBS_SOLO)


def test_voluntary_solo_left_of_dealer_leads() -> None:
    state = bid(new(dealer=0), "healthy", "solo:jack", "healthy", "healthy")
    # Seat 2 is the soloist; seat 1 (left of the dealer) leads.
    assert (state.parties.declarer, state.to_act, state.parties.compulsory) == (2, 1, False)


def test_soloist_leads_house_rule() -> None:
    rules = RuleSet(soloist_leads=True)
    state = bid(new(dealer=0, rules=rules), "healthy", "solo:jack", "healthy", "healthy")
    assert state.to_act == 2


def test_compulsory_solo_beats_an_earlier_voluntary_one_and_the_soloist_leads() -> None:
    rules = RuleSet(compulsory_solos=1)
    # Seat 1 has played its compulsory solo already; seat 3 still owes one.
    state = new(dealer=0, rules=rules, solo_owed=(True, False, True, True))
    state = bid(state, "solo:queen", "healthy", "solo:hearts", "healthy")
    assert state.contract is Contract.HEARTS_SOLO
    assert (state.parties.declarer, state.parties.compulsory, state.to_act) == (3, True, 3)


def test_first_of_two_compulsory_solos_wins() -> None:
    rules = RuleSet(compulsory_solos=1)
    state = new(dealer=0, rules=rules, solo_owed=(True, True, True, True))
    state = bid(state, "solo:queen", "healthy", "solo:hearts", "healthy")
    assert (state.parties.declarer, state.contract) == (1, Contract.QUEEN_SOLO)


def test_without_compulsory_solos_every_solo_is_voluntary() -> None:
    state = new(dealer=0, solo_owed=(True, True, True, True))
    state = bid(state, "solo:queen", "healthy", "solo:hearts", "healthy")
    assert (state.parties.declarer, state.parties.compulsory, state.to_act) == (1, False, 1)


def test_vorfuehren_forced_seat_only_chooses_the_solo_type() -> None:
    rules = RuleSet(compulsory_solos=1)
    state = new(dealer=0, rules=rules, solo_owed=(False, False, True, False), forced=2)
    assert state.to_act == 2
    assert Reservation.HEALTHY not in legal_bids(state)
    with pytest.raises(IllegalActionError, match="You must play your compulsory solo now"):
        bid(state, "healthy")
    state = bid(state, "solo:spades")
    assert (state.contract, state.parties.compulsory, state.to_act) == (
        Contract.SPADES_SOLO,
        True,
        2,
    )
    assert len(state.bids) == 1


def test_bidding_out_of_turn_is_refused() -> None:
    from dokobot.engine import Bid, apply

    with pytest.raises(IllegalActionError, match="It is seat 0's turn"):
        apply(new(), Bid(2, Reservation.HEALTHY))
