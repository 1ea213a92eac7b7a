"""House rules in play, on concrete cards (docs/rules.md §9.1-§9.4)."""

from __future__ import annotations

import dataclasses

import pytest

from dokobot.engine import (
    Announce,
    Announcement,
    Bid,
    Card,
    Contract,
    Declaration,
    Declare,
    Dullen,
    GameState,
    Genscher,
    IllegalActionError,
    Party,
    PassCards,
    Phase,
    Play,
    PovertyReply,
    RedealHand,
    Reservation,
    ReturnCards,
    RuleSet,
    Trick,
    apply,
    known_parties,
    legal_cards,
    make_deck,
    may_announce,
    order_for,
    outcome,
    owed_announcement,
    parse_cards,
    replay,
    score,
    throw_reasons,
    to_record,
    trick_winner,
)

from .helpers import DEAL_MARRIAGE, DEAL_NORMAL, DEAL_POOR, announce, bid, healthy, new, play
from .test_house_rules_scoring import DULLE_CAUGHT

# DEAL_NORMAL with both DA to seat 0, both D9 to seat 3, both D10 to seat 1 and both DK
# to seat 1. Re: seats 0 and 2 (the CQ).
DEAL_PIGS = (
    "CQ H10 SQ DJ DA DA CA C10 SA S9 HA HK",
    "H10 HQ CJ D10 D10 DK DK C9 S10 SK HA H9",
    "CQ SQ HQ SJ HJ DJ DQ CA C9 SA H9 HK",
    "DQ CJ SJ HJ D9 CK D9 C10 CK S10 SK S9",
)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text.split()))


def refused(state: GameState, action: object) -> str:
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)  # type: ignore[arg-type]
    return str(caught.value)


# --------------------------------------------------------------------------- card order


def test_second_dulle_wins_only_in_the_last_trick() -> None:
    rule = Dullen.SECOND_WINS_ONLY_LAST
    assert (rule.second_wins(last_trick=False), rule.second_wins(last_trick=True)) == (False, True)
    order = order_for(RuleSet(), Contract.NORMAL)
    two_tens = cards("H10 SQ H10 D10")
    assert trick_winner(two_tens, 0, order, rule.second_wins(last_trick=True)) == 2
    # In trick 1 of a real game the first H10 (seat 0) still wins.
    hands, lines = DULLE_CAUGHT
    state = play(healthy(new(hands, rules=RuleSet(dullen=rule))), lines[0])
    assert state.tricks[0].winner == 0


def test_dulle_not_trump_is_a_plain_heart() -> None:
    rules = RuleSet(dulle_trump=False)
    order = order_for(rules, Contract.NORMAL)
    assert order.trumps[:2] == (Card.CQ, Card.SQ)
    assert not order.is_trump(Card.H10)
    hearts = sorted([Card.H9, Card.HK, Card.H10, Card.HA], key=order.sort_key)
    assert hearts == [Card.HA, Card.H10, Card.HK, Card.H9]
    # Seat 0 leads HA: seat 1 must follow hearts, and its H10 is a heart now.
    state = play(healthy(new(DEAL_NORMAL, rules=rules)), "HA")
    assert set(legal_cards(state)) == {Card.H10, Card.HA, Card.H9}
    assert set(legal_cards(play(healthy(new(DEAL_NORMAL)), "HA"))) == {Card.HA, Card.H9}
    # In the hearts solo the H10 ranks as a heart too: HA H10 HK H9 below the jacks.
    solo = order_for(rules, Contract.HEARTS_SOLO)
    assert solo.trumps[-4:] == (Card.HA, Card.H10, Card.HK, Card.H9)


def test_kaiser_diamonds_king_above_all_trumps() -> None:
    rules = RuleSet(kaiser=True)
    assert order_for(rules, Contract.NORMAL).trumps[:2] == (Card.DK, Card.H10)
    assert order_for(rules, Contract.KING_SOLO).trumps[0] is Card.DK
    state = play(healthy(new(DEAL_NORMAL, rules=rules)), "H10 DK SQ D9")
    assert state.tricks[0].winner == 1
    assert play(healthy(new(DEAL_NORMAL)), "H10 DK SQ D9").tricks[0].winner == 0


def test_team_queen_diamonds_decides_the_parties() -> None:
    rules = RuleSet.from_dict({"team_queen": "diamonds"})
    state = healthy(new(DEAL_NORMAL, rules=rules))
    assert state.contract is Contract.NORMAL
    assert state.parties.seats(Party.RE) == (1, 3)
    marriage = new(DEAL_MARRIAGE, rules=rules)
    assert refused(marriage, Bid(0, Reservation.MARRIAGE)) == (
        "A marriage needs both queens of diamonds"
    )


def test_schweinchen_at_once() -> None:
    rules = RuleSet.from_dict({"schweinchen": "at_once", "superschweinchen": True})
    state = healthy(new(DEAL_PIGS, rules=rules))
    assert refused(state, Declare(3, Declaration.SUPERSCHWEINCHEN)) == (
        "Superschweinchen comes only after Schweinchen"
    )
    assert refused(state, Declare(1, Declaration.SCHWEINCHEN)) == "Schweinchen needs both DA"
    state = apply(state, Declare(0, Declaration.SCHWEINCHEN))
    assert state.parties.order.trumps[:2] == (Card.DA, Card.H10)
    state = apply(state, Declare(3, Declaration.SUPERSCHWEINCHEN))
    assert state.parties.order.trumps[:3] == (Card.D9, Card.DA, Card.H10)
    state = play(state, "DA H10 DQ SJ")
    assert state.tricks[0].winner == 0  # the Schweinchen beats the Dulle
    assert refused(state, Declare(1, Declaration.HALF_CHICKEN)) == (
        "Half chicken is not played under these rules"
    )
    # The record keeps the declarations and replays to the same game.
    record = to_record(state)
    assert {"seat": 0, "declare": "schweinchen"} in record["actions"]
    assert replay(record) == state


def test_schweinchen_too_late_after_the_first_card() -> None:
    rules = RuleSet.from_dict({"schweinchen": "at_once"})
    state = play(healthy(new(DEAL_PIGS, rules=rules)), "CA")
    assert refused(state, Declare(0, Declaration.SCHWEINCHEN)) == (
        "Too late for Schweinchen: under these rules it is declared before your first card"
    )
    # Before one's own first card it is in time, even after others have played.
    late = play(healthy(new(DEAL_PIGS, rules=rules, dealer=1)), "C9 C10")
    assert (late.to_act, late.cards_played(0)) == (0, 0)
    assert apply(late, Declare(0, Declaration.SCHWEINCHEN)).parties.order.trumps[0] is Card.DA


def test_schweinchen_on_first_play_comes_with_the_first_fox() -> None:
    rules = RuleSet.from_dict({"schweinchen": "on_first_play"})
    state = healthy(new(DEAL_PIGS, rules=rules))
    # Seat 0 leads; it declares as it plays the first DA, and must then play it.
    state = apply(state, Declare(0, Declaration.SCHWEINCHEN))
    assert legal_cards(state) == (Card.DA,)
    assert refused(state, Play(0, Card.H10)) == "You declared with DA: play DA now"
    state = play(state, "DA H10 DQ SJ")
    assert state.tricks[0].winner == 0
    # Not the holder's turn: no declaration.
    other = play(healthy(new(DEAL_PIGS, rules=rules)), "CA")
    assert refused(other, Declare(0, Declaration.SCHWEINCHEN)) == (
        "Declare Schweinchen on your turn, as you play the first DA"
    )


def test_schweinchen_only_where_the_diamonds_ace_is_a_trump() -> None:
    rules = RuleSet.from_dict({"schweinchen": "at_once"})
    state = bid(new(DEAL_PIGS, rules=rules), "solo:queen", "healthy", "healthy", "healthy")
    assert refused(state, Declare(0, Declaration.SCHWEINCHEN)) == "DA is not a trump in this game"
    diamonds = bid(new(DEAL_PIGS, rules=rules), "solo:diamonds", "healthy", "healthy", "healthy")
    assert apply(diamonds, Declare(0, Declaration.SCHWEINCHEN)).parties.order.trumps[0] is Card.DA


def test_half_chicken_is_shown_and_changes_nothing() -> None:
    rules = RuleSet(half_chicken=True)
    state = healthy(new(DEAL_PIGS, rules=rules))
    after = apply(state, Declare(1, Declaration.HALF_CHICKEN))
    assert after.calls.declared[0].what == "half_chicken"
    assert after.parties.order == state.parties.order
    assert refused(after, Declare(1, Declaration.HALF_CHICKEN)) == (
        "Half chicken has already been declared"
    )


def test_genscher_names_a_new_partner() -> None:
    rules = RuleSet(genscher=True)
    state = healthy(new(DEAL_PIGS, rules=rules))
    state = announce(state, 2, "re")  # Re: seats 0 and 2
    state = play(state, "DJ")
    # Seat 1 holds both DK and must play a trump: it names seat 0 and plays the DK.
    assert refused(state, Genscher(1, 1)) == "Name another seat as your partner"
    state = apply(state, Genscher(1, 0))
    assert refused(state, Play(1, Card.D10)) == "You declared with DK: play DK now"
    state = play(state, "DK")
    # Seats 0 and 1 now play together; Seat 1 was Kontra, so they are Kontra.
    assert state.parties.seats(Party.KONTRA) == (0, 1)
    assert state.parties.seats(Party.RE) == (2, 3)
    # The Re announced so far stays with Re.
    assert state.calls.re_level == 0
    assert known_parties(state, 3) == (Party.KONTRA, Party.KONTRA, Party.RE, Party.RE)
    record = to_record(state)
    assert {"seat": 1, "genscher": 0} in record["actions"]
    assert replay(record) == state


# --------------------------------------------------------------------------- announcements


def test_announcements_before_the_first_card() -> None:
    rules = RuleSet.from_dict({"announcement_deadline": "before_first_card"})
    state = play(healthy(new(DEAL_NORMAL, rules=rules)), "CA")
    assert refused(state, Announce(0, Announcement.PARTY)) == (
        "Too late for Re: under these rules every announcement comes before your first card"
    )
    assert may_announce(state, 0) == ()
    assert may_announce(state, 1)[0] is Announcement.PARTY
    assert may_announce(healthy(new(DEAL_NORMAL)), 0)[0] is Announcement.PARTY


def test_announce_only_on_your_turn() -> None:
    rules = RuleSet(announce_on_turn_only=True)
    state = healthy(new(DEAL_NORMAL, rules=rules))
    assert refused(state, Announce(2, Announcement.PARTY)) == (
        "Under these rules you may announce only when it is your turn"
    )
    assert may_announce(state, 2) == ()
    assert Announcement.PARTY in may_announce(state, 0)


def test_announcement_limit_no90() -> None:
    state = healthy(new(DEAL_NORMAL, rules=RuleSet.from_dict({"preset": "beginners"})))
    assert may_announce(state, 0) == (Announcement.PARTY, Announcement.NO90)
    assert refused(state, Announce(0, Announcement.NO60)) == (
        "These rules allow no announcement above no 90: no 60 is not played"
    )


def test_compulsory_announcement_after_a_first_trick_of_30() -> None:
    hands, lines = DULLE_CAUGHT  # trick 1 (33 points) goes to seat 0, Kontra
    rules = RuleSet.from_dict({"compulsory_announcement": "first_trick_30"})
    state = play(healthy(new(hands, rules=rules)), lines[0])
    assert owed_announcement(state) == (0, Announcement.PARTY)
    assert legal_cards(state) == ()
    assert refused(state, Play(0, Card.HJ)) == (
        "You won a first trick of 30 or more: announce Kontra before you lead (Zwingen)"
    )
    state = announce(state, 0, "kontra")
    assert owed_announcement(state) is None
    state = play(state, lines[1])
    assert len(state.tricks) == 2


def test_compulsory_announcement_renew_goes_one_level_up() -> None:
    hands, lines = DULLE_CAUGHT
    rules = RuleSet.from_dict({"compulsory_announcement": "first_trick_30_renew"})
    state = healthy(new(hands, rules=rules))
    state = announce(state, 3, "kontra")  # seat 0's partner announced already
    state = play(state, lines[0])
    assert owed_announcement(state) == (0, Announcement.NO90)
    plain = RuleSet.from_dict({"compulsory_announcement": "first_trick_30"})
    again = play(announce(healthy(new(hands, rules=plain)), 3, "kontra"), lines[0])
    assert owed_announcement(again) is None


# --------------------------------------------------------------------------- reservations


def test_solo_overbid_the_later_solo_plays_with_no_90() -> None:
    words = ("solo:queen", "healthy", "solo:jack", "healthy")
    plain = bid(new(DEAL_NORMAL), *words)
    assert (plain.contract, plain.parties.declarer) == (Contract.QUEEN_SOLO, 0)
    state = bid(new(DEAL_NORMAL, rules=RuleSet(solo_overbid=True)), *words)
    assert (state.contract, state.parties.declarer) == (Contract.JACK_SOLO, 2)
    assert state.calls.re_level == Announcement.NO90
    # The no 90 comes from the rules, not from an action: the record has no announcement.
    record = to_record(state)
    assert all("announce" not in a for a in record["actions"])
    assert replay(record) == state
    # A single solo bid is no overbid.
    single = bid(new(DEAL_NORMAL, rules=RuleSet(solo_overbid=True)), "solo:queen", *["healthy"] * 3)
    assert single.calls.re_level == -1


def complete(first: str) -> tuple[str, ...]:
    """Seat 0 holds ``first``; the rest of the deck goes to seats 1-3 in deck order."""
    rest = make_deck()
    for card in cards(first):
        rest.remove(card)
    rest.sort()
    return (first, *(" ".join(c.name for c in rest[i * 12 : i * 12 + 12]) for i in range(3)))


@pytest.mark.parametrize(
    ("hand", "reasons"),
    [
        ("C9 C9 S9 S9 H9 CQ H10 SQ DJ DA CA HA", [RedealHand.FIVE_NINES]),
        ("CK CK SK SK HK CQ H10 SQ DJ DA CA HA", [RedealHand.FIVE_KINGS]),
        ("C9 C9 S9 S9 CK CK SK SK CQ H10 DA HA", [RedealHand.FOUR_NINES_FOUR_KINGS]),
        ("CA CA C10 C10 SA SA S10 CQ DJ D9 H9 HK", [RedealHand.SEVEN_FULL]),
        ("CA CA C10 S10 SA SA HA HA DK D9 C9 S9", [RedealHand.SEVEN_FULL, RedealHand.LOW_TRUMPS]),
        ("CQ H10 SQ DJ DA D9 CA C10 SA S9 HA HK", []),
    ],
)
def test_throw_reasons(hand: str, reasons: list[RedealHand]) -> None:
    every = RuleSet(redeal_on=frozenset(RedealHand))
    assert list(throw_reasons(cards(hand), every)) == reasons


def test_a_thrown_in_hand_is_redealt_by_the_same_dealer() -> None:
    rules = RuleSet.from_dict({"redeal_on": ["five_nines"]})
    hands = complete("C9 C9 S9 S9 H9 CQ H10 SQ DJ DA CA HA")
    state = bid(new(hands, rules=rules), "throw")
    assert state.is_finished and state.is_redeal and state.thrown_by == 0
    result = outcome(state)
    assert (result["redeal"], result["thrown_by"], result["thrown_for"]) == (
        True,
        0,
        ["five_nines"],
    )
    assert replay(to_record(state)) == state
    normal = new(DEAL_NORMAL, rules=rules)
    assert refused(normal, Bid(0, Reservation.THROW)) == (
        "This hand may not be thrown in; these rules allow it for five_nines"
    )
    assert refused(new(hands), Bid(0, Reservation.THROW)) == (
        "Throwing in the cards is not allowed under these rules"
    )


# --------------------------------------------------------------------------- poverty


def poor(rules: RuleSet) -> GameState:
    return bid(new(DEAL_POOR, rules=rules), "healthy", "poverty", "healthy", "healthy")


def test_poverty_with_four_cards() -> None:
    state = poor(RuleSet(poverty=True, poverty_cards=4))
    assert refused(state, PassCards(1, cards("D9 DK DA"))) == "Put down exactly 4 cards, not 3"
    state = apply(state, PassCards(1, cards("D9 DK DA CA")))
    state = apply(state, PovertyReply(2, True))
    assert len(state.hands[2]) == 16
    state = apply(state, ReturnCards(2, cards("C9 S10 HK HA")))
    assert state.phase is Phase.PLAY and len(state.hands[1]) == 12


def test_poverty_four_trumps_allowed_only_with_four_cards() -> None:
    # Seat 1 holds four trumps: D9 D10 DK DA.
    hands = (
        DEAL_POOR[0],
        DEAL_POOR[1].replace("HA", "D10"),
        DEAL_POOR[2],
        DEAL_POOR[3].replace("D10", "HA"),
    )
    three = bid(new(hands, rules=RuleSet(poverty=True)), "healthy")
    assert (
        refused(three, Bid(1, Reservation.POVERTY)) == "Poverty needs at most 3 trumps; you hold 4"
    )
    four = bid(new(hands, rules=RuleSet(poverty=True, poverty_cards=4)), "healthy", "poverty")
    assert four.phase is Phase.BIDDING and four.to_act == 2
    four = bid(four, "healthy", "healthy")
    assert (four.phase, four.contract) == (Phase.POVERTY, Contract.POVERTY)


def test_poverty_acceptor_may_not_return_trumps() -> None:
    rules = RuleSet(poverty=True, poverty_return_trumps=False)
    state = apply(poor(rules), PassCards(1, cards("D9 DK DA")))
    state = apply(state, PovertyReply(2, True))
    assert refused(state, ReturnCards(2, cards("DA C9 S10"))) == (
        "Under these rules you may not give trumps back: DA is a trump"
    )
    state = apply(state, ReturnCards(2, cards("C9 S10 HK")))
    assert state.phase is Phase.PLAY


def first_legal_to_the_end(state: GameState) -> GameState:
    while not state.is_finished:
        state = apply(state, Play(state.to_act, legal_cards(state)[0]))  # type: ignore[arg-type]
    return state


def refuse_poverty(rules: RuleSet) -> GameState:
    state = apply(poor(rules), PassCards(1, cards("D9 DK DA")))
    for seat in (2, 3, 0):
        state = apply(state, PovertyReply(seat, False))
    return state


def test_schwarze_sau_the_second_queen_of_spades_decides() -> None:
    state = refuse_poverty(RuleSet.from_dict({"poverty": True, "poverty_refused": "schwarze_sau"}))
    assert (state.phase, state.contract, state.to_act) == (Phase.PLAY, Contract.SCHWARZE_SAU, 0)
    assert state.hands[1] == tuple(sorted(cards(DEAL_POOR[1])))  # the cards came back
    assert refused(state, Announce(0, Announcement.PARTY)) == (
        "Nobody may announce before the second SQ decides who plays alone"
    )
    end = first_legal_to_the_end(state)
    second = next(
        i
        for i, _ in enumerate(end.tricks)
        if sum(t.cards.count(Card.SQ) for t in end.tricks[: i + 1]) == 2
    )
    alone = end.tricks[second].winner
    # Trick 7 (HJ HJ SQ DA) holds the second SQ; seat 0 wins it and plays alone.
    assert (second, alone, end.parties.clarified_in) == (6, 0, 7)
    result = score(end)
    assert result.soloist == 0 and result.re == (0,)
    # Seat 0's tricks 7, 9 and 12 count for it: 71 points, a lost solo under 90.
    assert (result.re_points, result.winner, result.game_value) == (71, Party.KONTRA, 2)
    assert result.scores == (-6, 2, 2, 2)
    assert replay(to_record(end)) == end


def test_ramsch_the_most_card_points_lose() -> None:
    state = refuse_poverty(RuleSet.from_dict({"poverty": True, "poverty_refused": "ramsch"}))
    assert state.contract is Contract.RAMSCH
    assert refused(state, Announce(0, Announcement.PARTY)) == "Nobody announces in a Ramsch"
    end = first_legal_to_the_end(state)
    points = [sum(t.points for t in end.tricks if t.winner == s) for s in range(4)]
    assert points == [71, 14, 128, 27]
    result = score(end)
    # Seat 2 took the most card points: it pays each of the others 1.
    assert (result.re, result.re_points) == ((2,), 128)
    assert result.scores == (1, 1, -3, 1)
    assert not end.is_redeal


def test_before_first_card_after_a_marriage_is_decided() -> None:
    rules = RuleSet.from_dict({"announcement_deadline": "before_first_card"})
    state = bid(new(DEAL_MARRIAGE, rules=rules), "marriage", "healthy", "healthy", "healthy")
    state = play(state, "C10 C9 CA CK")  # seat 2's ace finds the partner in trick 1
    assert state.parties.partner == 2
    assert Announcement.PARTY in may_announce(state, 0)
    state = play(state, "HK")  # seat 2 leads trick 2
    assert may_announce(state, 2) == ()
    assert Announcement.PARTY in may_announce(state, 3)


def test_compulsory_announcement_is_met_by_the_partner() -> None:
    hands, lines = DULLE_CAUGHT  # seat 0 (Kontra, with seat 3) wins trick 1
    rules = RuleSet.from_dict({"compulsory_announcement": "first_trick_30_renew"})
    state = play(healthy(new(hands, rules=rules)), lines[0])
    assert owed_announcement(state) == (0, Announcement.PARTY)
    # Seat 3 announces Kontra for the party after the trick: the duty is met.
    state = announce(state, 3, "kontra")
    assert owed_announcement(state) is None
    assert legal_cards(state)


def test_ramsch_ties_share_the_loss() -> None:
    """Two seats with the most card points: each pays each of the other two 1."""
    end = first_legal_to_the_end(
        refuse_poverty(RuleSet.from_dict({"poverty": True, "poverty_refused": "ramsch"}))
    )
    tied = (
        Trick(0, cards("CA CA C10 C10"), 0, 42),
        Trick(0, cards("SA SA S10 S10"), 1, 42),
        Trick(0, cards("HA HA HK HK"), 2, 30),
    )
    result = score(dataclasses.replace(end, tricks=tied))
    assert (result.re, result.scores) == ((0, 1), (-2, -2, 2, 2))
    everyone = tuple(Trick(0, cards("D9 D9 HJ HJ"), s, 4) for s in range(4))
    assert score(dataclasses.replace(end, tricks=everyone)).scores == (0, 0, 0, 0)
