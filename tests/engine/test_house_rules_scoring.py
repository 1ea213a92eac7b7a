"""House-rule scoring on concrete games (docs/rules.md §9.5, §9.6): extras, doubling, Bock."""

from __future__ import annotations

import dataclasses
import random

import pytest

from dokobot.engine import (
    Announce,
    Announcement,
    Contract,
    GameSetup,
    GameState,
    Party,
    RuleSet,
    Session,
    SessionGame,
    apply,
    score,
)

from .helpers import bid, healthy, meatless_deal, new, play
from .test_scoring import GAME_120, GAME_EXTRAS

# Re: seats 2 and 3, 121 points. Trick 7 HK CA HA HK (two aces, two kings) goes to seat 1 (Kontra).
ACES_KINGS = (
    (
        "C9 CK CA S9 SQ SQ SK SA HQ DQ DK DA",
        "CJ S9 S10 H9 H9 H10 HQ HA HA D9 DJ DQ",
        "C9 C10 C10 CQ CK S10 SJ SJ SA HJ HK DJ",
        "CJ CQ CA SK H10 HJ HK D9 D10 D10 DK DA",
    ),
    [
        "DQ HQ HJ D10",
        "DJ CQ DK DA",
        "S10 SK SK S10",
        "SA DA SA S9",
        "D10 HQ DQ DJ",
        "DK CJ SJ CQ",
        "HK CA HA HK",
        "HA SJ H10 CK",
        "D9 SQ H10 C10",
        "H9 C9 HJ C9",
        "CJ SQ D9 C10",
        "S9 H9 CK CA",
    ],
)

# Re: seats 0 and 2. Last trick CJ C10 HK H10: seat 1's H10 (Kontra) catches seat 2's CJ (Re).
KARLCHEN_CAUGHT = (
    (
        "CQ S10 SJ SK SK H9 HQ HK HK D10 DQ DA",
        "CJ CK CA S10 SA H9 H10 HJ D9 DJ DK DK",
        "C9 C9 CJ CQ SJ SQ H10 HJ HA HA DQ DA",
        "C10 C10 CK CA S9 S9 SQ SA HQ D9 D10 DJ",
    ),
    [
        "CQ HJ H10 DJ",
        "SJ D10 DQ DK",
        "HQ DJ HJ SQ",
        "CK SK CA C9",
        "CK C9 CA D10",
        "SK SA DA SA",
        "CQ HQ SJ DK",
        "SQ D9 DA CJ",
        "HA S9 HK H9",
        "HA C10 H9 D9",
        "S10 DQ S9 S10",
        "CJ C10 HK H10",
    ],
)

# Re: seats 0 and 1. Trick 1 DJ D10 DK DA: seat 0's DJ catches seat 3's fox (Kontra).
FOX_FIRST = (
    (
        "C9 CQ CK CA HJ HQ HQ HA D9 DJ DK DA",
        "CQ CK S10 SJ SQ SK SA H10 HK D10 D10 DQ",
        "C10 CJ S9 SJ SK SA H9 HJ HA D9 DQ DK",
        "C9 C10 CJ CA S9 S10 SQ H9 H10 HK DJ DA",
    ),
    [
        "DJ D10 DK DA",
        "C9 CK C10 CA",
        "H9 HA HK H9",
        "CK DQ DQ C9",
        "S10 SA S10 HJ",
        "DA SJ D9 DJ",
        "SQ CJ H10 HQ",
        "HK CQ SK HA",
        "CA H10 SK C10",
        "SA S9 S9 HQ",
        "DK CQ SJ SQ",
        "D10 HJ CJ D9",
    ],
)

# Re: seats 1 and 2. Trick 5 SA C10 HA SA is 43 points with one pair only, won by seat 2 (Re).
DOPPELKOPF_ONE_PAIR = (
    (
        "CK CK CA CA HQ HQ HK HA HA DJ DQ DA",
        "C9 C10 CQ S10 SK SA H10 HJ HJ D9 D10 DK",
        "C9 CJ CQ S9 S9 SJ SK SA H9 HK DJ DA",
        "C10 CJ S10 SJ SQ SQ H9 H10 D9 D10 DQ DK",
    ),
    [
        "DQ H10 DA SJ",
        "S10 SK S10 CA",
        "CQ DJ CJ DA",
        "DK CJ D10 DJ",
        "SA C10 HA SA",
        "H9 H9 HA HJ",
        "D9 CQ SQ HQ",
        "C9 SQ CA C10",
        "DK HQ D10 SJ",
        "HK SK HK D9",
        "DQ CK HJ S9",
        "H10 CK C9 S9",
    ],
)

# Re: seats 1 and 2, 133 points. Last trick DA H9 SQ D9: seat 0's SQ (Kontra) catches seat 2's fox.
FOX_LAST = (
    (
        "CJ CK S9 S10 S10 SJ SQ SK SA H10 HQ DQ",
        "CJ CQ CA SJ SQ SK HJ HA D9 D10 D10 DJ",
        "CQ CK CA S9 HQ HK HA D9 DJ DQ DA DA",
        "C9 C9 C10 C10 SA H9 H9 H10 HJ HK DK DK",
    ),
    [
        "SA SK S9 SA",
        "S9 SQ HK C10",
        "CQ DJ DK H10",
        "CK CA CK C9",
        "D10 DQ H10 DQ",
        "HK SK HA HA",
        "DJ HQ HJ HQ",
        "CA C9 S10 SJ",
        "CJ DA DK SJ",
        "D10 D9 C10 CJ",
        "S10 HJ CQ H9",
        "DA H9 SQ D9",
    ],
)

# Re: seats 1 and 2, 95 points. Trick 1 H10 SQ H10 D10 (33 points): seat 0's first H10
# (Kontra) beats seat 2's H10 (Re).
DULLE_CAUGHT = (
    (
        "C10 S9 S10 H9 H9 H10 HJ HQ HA D9 DJ DA",
        "CJ CQ CK S9 SJ SQ SQ HK D9 DJ DK DA",
        "CJ CQ CK SK SK SA SA H10 HK DQ DQ DK",
        "C9 C9 C10 CA CA S10 SJ HJ HQ HA D10 D10",
    ),
    [
        "H10 SQ H10 D10",
        "HJ SJ CJ D10",
        "HK HA HA HK",
        "CA C10 CK CK",
        "SJ D9 CQ DK",
        "D9 CQ HQ HQ",
        "DQ HJ DJ DJ",
        "SK S10 S10 S9",
        "CA S9 CJ DQ",
        "SA C9 H9 DA",
        "DK SK C10 DA",
        "H9 SQ SA C9",
    ],
)

# Re: seats 0 and 2. Last trick C9 C10 CJ DQ: seat 2's DQ (Re) catches seat 1's CJ (Kontra).
LIESCHEN = (
    (
        "C10 C10 CJ CQ CK SQ SA HJ HQ D10 DJ DK",
        "CJ CA S10 SK H9 H10 HJ HQ HK D9 DK DA",
        "CQ CK SK SA H10 HK HA D9 DJ DQ DQ DA",
        "C9 C9 CA S9 S9 S10 SJ SJ SQ H9 HA D10",
    ),
    [
        "SQ D9 DA D10",
        "DK DK H10 SQ",
        "CQ SJ CQ HQ",
        "CK C9 C10 CA",
        "HJ D9 SJ HQ",
        "SA SK SK S10",
        "CJ DA DQ S9",
        "SA S9 DJ S10",
        "HJ H10 DJ H9",
        "HK HK HA D10",
        "CK H9 HA CA",
        "C9 C10 CJ DQ",
    ],
)


def normal(game: tuple[tuple[str, ...], list[str]], rules: RuleSet | None = None) -> GameState:
    hands, lines = game
    state = healthy(new(hands, rules=rules or RuleSet()))
    assert state.contract is Contract.NORMAL
    return play(state, *lines)


def items(state: GameState) -> list[tuple[str, str, int]]:
    return [(i.item, i.party.value, i.points) for i in score(state).breakdown]


def test_extra_aces_kings_trick() -> None:
    assert score(normal(ACES_KINGS)).scores == (-2, -2, 2, 2)
    state = normal(ACES_KINGS, RuleSet(extra_aces_kings_trick=True))
    assert ("aces_and_kings", "kontra", 1) in items(state)
    # Re: won + fox caught − Kontra's aces and kings = 1.
    assert score(state).scores == (-1, -1, 1, 1)


def test_karlchen_caught_by_any_card() -> None:
    assert score(normal(KARLCHEN_CAUGHT)).scores == (2, -2, 2, -2)
    state = normal(KARLCHEN_CAUGHT, RuleSet(karlchen_caught=True))
    assert items(state)[-1] == ("karlchen_caught", "kontra", 1)
    assert score(state).scores == (1, -1, 1, -1)
    # Lieschen Müller counts only a queen of diamonds: an H10 catch scores nothing.
    lieschen = normal(KARLCHEN_CAUGHT, RuleSet(karlchen_caught=True, lieschen_mueller=True))
    assert score(lieschen).scores == (2, -2, 2, -2)


def test_lieschen_mueller_queen_of_diamonds_catches_the_karlchen() -> None:
    assert score(normal(LIESCHEN)).scores == (3, -3, 3, -3)
    state = normal(LIESCHEN, RuleSet(lieschen_mueller=True))
    assert items(state)[-1] == ("lieschen_mueller", "re", 1)
    assert score(state).scores == (4, -4, 4, -4)
    caught = normal(LIESCHEN, RuleSet(karlchen_caught=True))
    assert items(caught)[-1] == ("karlchen_caught", "re", 1)


def test_fox_in_the_first_trick_worth_two() -> None:
    assert score(normal(FOX_FIRST)).scores == (3, 3, -3, -3)
    state = normal(FOX_FIRST, RuleSet(fox_first_trick=2))
    assert ("fox_caught", "re", 2) in items(state)
    assert score(state).scores == (4, 4, -4, -4)
    # The last-trick rule leaves a fox of the first trick at 1.
    assert score(normal(FOX_FIRST, RuleSet(fox_last_trick=2))).scores == (3, 3, -3, -3)


def test_fox_in_the_last_trick_worth_two() -> None:
    # DDV: Re's won (1) against Kontra's fox (1): nobody scores.
    assert score(normal(FOX_LAST)).scores == (0, 0, 0, 0)
    state = normal(FOX_LAST, RuleSet(fox_last_trick=2))
    assert items(state) == [("won", "re", 1), ("fox_caught", "kontra", 2)]
    assert score(state).game_value == -1
    assert score(state).scores == (1, -1, -1, 1)


def test_extra_dulle_caught() -> None:
    assert score(normal(DULLE_CAUGHT)).scores == (2, -2, -2, 2)
    state = normal(DULLE_CAUGHT, RuleSet(extra_dulle_caught=True))
    assert items(state)[-1] == ("dulle_caught", "kontra", 1)
    assert score(state).scores == (3, -3, -3, 3)


def test_doppelkopf_needs_two_pairs() -> None:
    assert ("doppelkopf", "re", 1) in items(normal(DOPPELKOPF_ONE_PAIR))
    assert score(normal(DOPPELKOPF_ONE_PAIR)).scores == (-4, 4, 4, -4)
    state = normal(DOPPELKOPF_ONE_PAIR, RuleSet(doppelkopf_needs_pairs=True))
    assert "doppelkopf" not in [item for item, _, _ in items(state)]
    assert score(state).scores == (-3, 3, 3, -3)
    # CA C10 CA C10 (42 points) holds two pairs and stays a Doppelkopf.
    paired = normal(GAME_EXTRAS, RuleSet(doppelkopf_needs_pairs=True))
    assert ("doppelkopf", "kontra", 1) in items(paired)


def test_solo_value_doubled() -> None:
    hands, lines = meatless_deal(151)
    plain = play(bid(new(hands), "solo:meatless", "healthy", "healthy", "healthy"), *lines)
    rules = RuleSet(solo_value_doubled=True)
    doubled = play(
        bid(new(hands, rules=rules), "solo:meatless", "healthy", "healthy", "healthy"), *lines
    )
    assert score(plain).game_value == 2  # won, Kontra under 90
    assert score(plain).scores == (6, -2, -2, -2)
    assert items(doubled)[-1] == ("solo_doubled", "re", 2)
    assert score(doubled).scores == (12, -4, -4, -4)


def test_a_bock_game_doubles_the_whole_value() -> None:
    hands, lines = GAME_EXTRAS
    state = play(healthy(new(hands, bock=2)), *lines)
    assert items(state)[-1] == ("bock", "re", 2)
    assert score(state).scores == (-4, -4, 4, 4)
    double_bock = play(healthy(new(hands, bock=4)), *lines)
    assert score(double_bock).scores == (-8, -8, 8, 8)


@pytest.mark.parametrize(
    ("after", "game", "rounds"),
    [
        (["tie_120"], GAME_120, 1),
        (["hearts_trick"], GAME_EXTRAS, 1),  # trick 10: HA H9 H9 HA
        (["tie_120"], GAME_EXTRAS, 0),
        (["lost_re", "lost_kontra", "lost_solo"], GAME_120, 0),  # nobody announced
    ],
)
def test_bock_triggers(
    after: list[str], game: tuple[tuple[str, ...], list[str]], rounds: int
) -> None:
    state = normal(game, RuleSet.from_dict({"bock_after": after}))
    assert score(state).bock_rounds == rounds


def test_lost_announcement_and_lost_solo_set_off_bock() -> None:
    rules = RuleSet.from_dict({"bock_after": ["lost_re", "lost_solo"]})
    hands, lines = GAME_120  # Re (seats 1, 3) gets 120 and loses
    state = healthy(new(hands, rules=rules))
    state = apply(state, Announce(1, Announcement.PARTY))
    assert score(play(state, *lines)).bock_rounds == 1
    lost, solo_lines = meatless_deal(100)
    solo = play(bid(new(lost, rules=rules), "solo:meatless", *["healthy"] * 3), *solo_lines)
    assert score(solo).winner is Party.KONTRA
    assert score(solo).bock_rounds == 1


def _game(bock_rounds: int = 0, redeal: bool = False) -> SessionGame:
    return SessionGame(
        dealer=0,
        contract=None if redeal else "normal",
        soloist=None,
        compulsory=False,
        forced=False,
        redeal=redeal,
        game_value=0 if redeal else 1,
        scores=(0, 0, 0, 0) if redeal else (1, -1, 1, -1),
        bock_rounds=bock_rounds,
    )


def test_bock_rounds_queue_up_by_default() -> None:
    session = Session.start(RuleSet.from_dict({"bock_after": ["tie_120"]}))
    session = dataclasses.replace(session, games=(_game(1), _game(1)))
    # Two rounds due: the first game of the first one is next, at ×2.
    assert (session.bock_queue, session.bock) == ((3, 4), 2)
    session = dataclasses.replace(session, games=session.games + (_game(redeal=True),))
    assert session.bock_queue == (3, 4)  # a redeal uses up no Bock game
    session = dataclasses.replace(session, games=session.games + (_game(),) * 3)
    assert (session.bock_queue, session.bock) == ((4,), 2)
    session = dataclasses.replace(session, games=session.games + (_game(),) * 4)
    assert (session.bock_queue, session.bock) == ((), 1)


def test_bock_rounds_stack_under_double() -> None:
    rules = RuleSet.from_dict({"bock_after": ["tie_120"], "bock_stacking": "double"})
    session = dataclasses.replace(Session.start(rules), games=(_game(1), _game(1)))
    # The first round has 3 games left, the second 4: they overlap, ×4.
    assert (session.bock_queue, session.bock) == ((3, 4), 4)
    session = dataclasses.replace(session, games=session.games + (_game(),) * 3)
    assert (session.bock_queue, session.bock) == ((1,), 2)


def test_the_next_deal_carries_the_bock_factor() -> None:
    rules = RuleSet.from_dict({"bock_after": ["tie_120"]})
    session = dataclasses.replace(Session.start(rules), games=(_game(1),))
    setup = session.next_setup(random.Random(1))
    assert isinstance(setup, GameSetup) and setup.bock == 2
