"""Trump orders (docs/rules.md §2), following suit and trick winners (§3) for every contract."""

from __future__ import annotations

import pytest

from dokobot.engine import (
    Card,
    Contract,
    Dullen,
    IllegalActionError,
    Play,
    RuleSet,
    apply,
    card_order,
    legal_cards,
    parse_cards,
    trick_winner,
)

from .helpers import bid, healthy, new, play


def order_names(contract: Contract) -> str:
    return " ".join(c.name for c in card_order(contract).trumps)


def winner(contract: Contract, cards: str, *, leader: int = 0, second: bool = False) -> int:
    return trick_winner(tuple(parse_cards(cards.split())), leader, card_order(contract), second)


NORMAL_TRUMPS = "H10 CQ SQ HQ DQ CJ SJ HJ DJ DA D10 DK D9"


@pytest.mark.parametrize(
    ("contract", "trumps"),
    [
        (Contract.NORMAL, NORMAL_TRUMPS),
        (Contract.MARRIAGE, NORMAL_TRUMPS),
        (Contract.POVERTY, NORMAL_TRUMPS),
        (Contract.SILENT_MARRIAGE, NORMAL_TRUMPS),
        (Contract.DIAMONDS_SOLO, NORMAL_TRUMPS),
        (Contract.CLUBS_SOLO, "H10 CQ SQ HQ DQ CJ SJ HJ DJ CA C10 CK C9"),
        (Contract.SPADES_SOLO, "H10 CQ SQ HQ DQ CJ SJ HJ DJ SA S10 SK S9"),
        (Contract.HEARTS_SOLO, "H10 CQ SQ HQ DQ CJ SJ HJ DJ HA HK H9"),
        (Contract.QUEEN_SOLO, "CQ SQ HQ DQ"),
        (Contract.JACK_SOLO, "CJ SJ HJ DJ"),
        (Contract.KING_SOLO, "CK SK HK DK"),
        (Contract.MEATLESS, ""),
    ],
)
def test_trump_order(contract: Contract, trumps: str) -> None:
    assert order_names(contract) == trumps


def test_normal_game_has_26_trumps() -> None:
    order = card_order(Contract.NORMAL)
    assert sum(2 for c in Card if order.is_trump(c)) == 26


@pytest.mark.parametrize(
    ("contract", "cards", "won_by"),
    [
        # Normal: H10 is the highest trump; a low trump beats a plain ace.
        (Contract.NORMAL, "CQ H10 D9 DA", 1),
        (Contract.NORMAL, "SA S10 D9 SK", 2),
        (Contract.NORMAL, "HA HK H9 HA", 0),  # equal cards: the first one wins
        (Contract.NORMAL, "C10 CA SA CK", 1),  # off-suit ace does not win
        (Contract.NORMAL, "DJ SJ HJ CJ", 3),
        # Clubs solo: CA is a trump below DJ; diamonds are a plain suit.
        (Contract.CLUBS_SOLO, "DA D10 C9 DK", 2),
        (Contract.CLUBS_SOLO, "CA DJ CK C10", 1),
        (Contract.SPADES_SOLO, "HA S9 HK H9", 1),
        (Contract.HEARTS_SOLO, "HA CA H9 HK", 0),  # all trumps in a hearts solo
        (Contract.HEARTS_SOLO, "DA DK D9 H9", 3),
        # Queen solo: jacks are plain, H10 is a plain heart below HA.
        (Contract.QUEEN_SOLO, "H10 HA HJ HK", 1),
        (Contract.QUEEN_SOLO, "SJ SK DQ S9", 2),
        (Contract.QUEEN_SOLO, "CK CJ C9 CA", 3),
        # Jack solo: queens are plain between K and 9.
        (Contract.JACK_SOLO, "CQ CK C9 DJ", 3),
        (Contract.JACK_SOLO, "SQ S9 SK SA", 3),
        # King solo: kings are the only trumps.
        (Contract.KING_SOLO, "SA DK S10 SQ", 1),
        (Contract.KING_SOLO, "HQ HJ H9 H10", 3),
        # Meatless: no trumps, A 10 K Q J 9 in every suit.
        (Contract.MEATLESS, "CQ CJ CK C9", 2),
        (Contract.MEATLESS, "DJ CA D9 H10", 0),
        (Contract.MEATLESS, "H10 HA HQ HK", 1),
    ],
)
def test_trick_winner(contract: Contract, cards: str, won_by: int) -> None:
    assert winner(contract, cards) == won_by


def test_trick_winner_counts_from_the_leader() -> None:
    assert winner(Contract.NORMAL, "SA S10 D9 SK", leader=3) == 1


# Both hearts tens meet in the last trick: seat 2 leads H10, seat 3 plays H10.
DULLEN_LAST = (
    (
        "S10 SQ SK SA H9 HJ HQ HQ HK HK D9 DK",
        "C9 C9 CK CA SJ H9 HJ D10 DQ DQ DK DA",
        "C10 CJ CJ CQ CA S9 S10 SA H10 HA D9 DJ",
        "C10 CQ CK S9 SJ SQ SK H10 HA D10 DJ DA",
    ),
    [
        "HJ SJ CJ DJ",
        "C10 C10 D9 CA",
        "HK H9 HA HA",
        "SA SK S10 DA",
        "CK CA CK HQ",
        "SA DK S10 S9",
        "DQ D9 DA SQ",
        "SK DQ S9 SQ",
        "CQ DK D10 CJ",
        "SJ HQ HJ DJ",
        "HK C9 CQ D10",
        "H10 H10 H9 C9",
    ],
)


@pytest.mark.parametrize(
    ("dullen", "first_trick_winner", "last_trick_winner"),
    [
        (Dullen.FIRST_WINS, 0, 2),
        (Dullen.SECOND_WINS, 1, 3),
        (Dullen.SECOND_WINS_EXCEPT_LAST, 1, 2),
    ],
)
def test_two_hearts_tens(dullen: Dullen, first_trick_winner: int, last_trick_winner: int) -> None:
    """docs/rules.md §3: of two H10 the first wins (DDV) unless ``dullen`` says otherwise."""
    rules = RuleSet(dullen=dullen)
    first = play(healthy(new(rules=rules)), "H10 H10 SJ DJ")
    assert first.tricks[0].winner == first_trick_winner
    hands, lines = DULLEN_LAST
    last = play(healthy(new(hands, rules=rules)), *lines)
    assert last.tricks[-1].cards == tuple(parse_cards(["H10", "H10", "H9", "C9"]))
    assert last.tricks[-1].leader == 2
    assert last.tricks[-1].winner == last_trick_winner


def test_must_follow_plain_suit() -> None:
    state = healthy(new())
    state = play(state, "SA")  # seat 0 leads spades; seat 1 holds S10 and SK
    assert set(legal_cards(state)) == {Card.S10, Card.SK}
    with pytest.raises(IllegalActionError, match="You must follow ♠: you hold S10") as err:
        play(state, "HA")
    assert err.value.code == "must_follow"


def test_hearts_ten_is_not_a_heart_in_a_normal_game() -> None:
    state = healthy(new())
    # Seat 0 leads HA; seat 1 holds HA, H9 and H10: H10 is a trump, not a heart.
    state = play(state, "HA")
    assert set(legal_cards(state)) == {Card.HA, Card.H9}
    with pytest.raises(IllegalActionError, match="You must follow ♥"):
        play(state, "H10")


def test_must_play_trump_when_trump_is_led() -> None:
    state = healthy(new())
    state = play(state, "D9")
    assert set(legal_cards(state)) == {Card.H10, Card.HQ, Card.CJ, Card.D10, Card.DK, Card.DQ}
    with pytest.raises(IllegalActionError, match="You must play a trump: you hold"):
        play(state, "SK")


def test_void_player_may_play_anything() -> None:
    state = bid(new(), "solo:queen", "healthy", "healthy", "healthy")
    # Queen solo, seat 0 leads SQ: queens are the only trumps.
    state = play(state, "SQ")
    assert set(legal_cards(state)) == {Card.HQ, Card.DQ}  # seat 1's queens
    state = play(state, "HQ", "CQ")
    assert legal_cards(state) == (Card.DQ,)  # seat 3's only queen
    state = play(state, "DQ")
    assert state.tricks[0].winner == 2  # CQ
    state = play(state, "SQ")
    # Seat 3 holds no queen any more: every card is legal, DJ and H10 included.
    assert set(legal_cards(state)) == set(state.hands[3])
    assert Card.DJ in legal_cards(state)


def test_not_your_turn_and_not_in_hand() -> None:
    state = healthy(new())
    with pytest.raises(IllegalActionError, match="It is seat 0's turn") as err:
        apply(state, Play(2, Card.CQ))
    assert (err.value.code, err.value.seat) == ("not_your_turn", 0)
    with pytest.raises(IllegalActionError, match="You do not hold DQ"):
        play(state, "DQ")


def test_winner_leads_next_trick_and_gets_the_points() -> None:
    state = play(healthy(new()), "SA S10 SA S10")
    trick = state.tricks[0]
    assert (trick.winner, trick.points, state.to_act) == (0, 42, 0)
