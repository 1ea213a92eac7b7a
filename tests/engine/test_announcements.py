"""Announcements: deadlines, skipped levels, replies, once per party (docs/rules.md §6)."""

from __future__ import annotations

import pytest

from dokobot.engine import (
    Announce,
    Announcement,
    GameState,
    IllegalActionError,
    RuleSet,
    apply,
    legal_actions,
    may_announce,
)

from .helpers import announce, bid, healthy, new, play

ALL = ["PARTY", "NO90", "NO60", "NO30", "SCHWARZ"]

# DEAL_NORMAL, seat 0 leads: each of these tricks is won by seat 0, who leads the next.
SEAT0_WINS = [
    "C10 C9 C9 C10",
    "CQ CJ CQ CJ",
    "CA CK CA CK",
    "SQ HQ SJ SJ",
    "SA S10 SA S9",
    "H10 H10 SQ HJ",
    "HK H9 H9 S10",
]


def at(state: GameState, tricks: int, *, lead: bool = False) -> GameState:
    """Play ``tricks`` whole tricks of SEAT0_WINS, then (with ``lead``) seat 0's next lead."""
    state = play(state, *SEAT0_WINS[:tricks])
    return play(state, SEAT0_WINS[tricks].split()[0]) if lead else state


def names(levels: tuple[Announcement, ...]) -> list[str]:
    return [level.name for level in levels]


def test_announcements_open_after_the_reservation_round() -> None:
    state = new()
    with pytest.raises(IllegalActionError, match="Nobody may announce before the game type"):
        announce(state, 0, "re")
    state = healthy(state)
    assert names(may_announce(state, 0)) == ALL
    assert names(may_announce(state, 1)) == ALL
    assert Announce(1, Announcement.PARTY) in legal_actions(state)


def test_re_up_to_the_second_card() -> None:
    """Re/Kontra with at least 11 cards: at most one card played."""
    state = at(healthy(new()), 0, lead=True)
    assert announce(state, 0, "re").calls.re_level == 0  # 11 cards
    state = at(healthy(new()), 1, lead=True)
    assert state.cards_played(0) == 2
    with pytest.raises(IllegalActionError, match="Too late for Re: you have 10 cards, Re needs 11"):
        announce(state, 0, "re")
    # Seat 1 (Kontra) has played only one card so far.
    assert announce(state, 1, "kontra").calls.kontra_level == 0


@pytest.mark.parametrize(
    ("level", "word", "cards_needed"),
    [(1, "no 90", 10), (2, "no 60", 9), (3, "no 30", 8), (4, "schwarz", 7)],
)
def test_deadlines_of_each_level(level: int, word: str, cards_needed: int) -> None:
    start = healthy(new())
    for lower in range(level):
        start = apply(start, Announce(0, Announcement(lower)))
    played = 12 - cards_needed
    # Seat 0 may still announce with ``cards_needed`` cards in hand...
    state = at(start, played - 1, lead=True)
    assert state.cards_played(0) == played
    assert apply(state, Announce(0, Announcement(level))).calls.re_level == level
    # ...but not with one card fewer.
    later = at(start, played, lead=True)
    with pytest.raises(
        IllegalActionError,
        match=f"Too late for {word}: you have {cards_needed - 1} cards, "
        f"{word} needs {cards_needed}",
    ):
        apply(later, Announce(0, Announcement(level)))


def test_skipping_levels_needs_every_skipped_level_still_legal() -> None:
    state = at(healthy(new()), 1, lead=True)  # seat 0 has played 2 cards: no Re any more
    assert may_announce(state, 0) == ()
    with pytest.raises(
        IllegalActionError, match=r"Too late for no 90 \(Re first\): you have 10 cards, Re needs 11"
    ):
        announce(state, 0, "no90")
    # With one card played, no 60 directly implies Re and no 90.
    state = announce(at(healthy(new()), 0, lead=True), 0, "no60")
    assert state.calls.re_level == 2
    assert names(may_announce(state, 0)) == ["NO30", "SCHWARZ"]


def test_each_level_once_per_party() -> None:
    state = announce(healthy(new()), 0, "re")
    with pytest.raises(IllegalActionError, match="Re has already been announced"):
        announce(state, 2, "re")  # seat 2 is Re too
    state = announce(state, 2, "no90")
    with pytest.raises(IllegalActionError, match="no 60 has already been announced") as err:
        announce(announce(state, 0, "no60"), 2, "no60")
    assert err.value.code == "already"
    assert names(may_announce(state, 0)) == ["NO60", "NO30", "SCHWARZ"]


def test_announcer_speaks_for_their_own_party() -> None:
    state = announce(healthy(new()), 1, "re")  # the word follows the seat's party
    assert (state.calls.re_level, state.calls.kontra_level) == (-1, 0)
    assert state.calls.log[0].party.value == "kontra"


def test_reply_one_card_later_then_no_further_announcement() -> None:
    state = announce(healthy(new()), 0, "re")
    state = at(state, 2)  # Kontra seat 1 has played 2 cards: too late for a first Kontra
    assert state.cards_played(1) == 2
    assert names(may_announce(state, 1)) == ["PARTY"]  # a bare reply only
    with pytest.raises(IllegalActionError, match="a reply may only say Kontra"):
        announce(state, 1, "no90")
    state = announce(state, 1, "kontra")
    assert state.calls.kontra_barred
    with pytest.raises(IllegalActionError, match="Kontra replied late"):
        announce(state, 3, "no90")
    assert may_announce(state, 3) == ()


def test_no_reply_without_an_opponents_announcement() -> None:
    state = at(healthy(new()), 2)
    with pytest.raises(IllegalActionError, match="Too late for Kontra: you have 10 cards"):
        announce(state, 1, "kontra")


def test_reply_deadline_follows_the_opponents_highest_announcement() -> None:
    # Re says no 90 (needs 10 cards): Kontra may still reply with 9 cards, not with 8.
    state = announce(healthy(new()), 0, "no90")
    state = at(state, 3)
    assert state.cards_played(1) == 3
    assert announce(state, 1, "kontra").calls.kontra_level == 0
    state = at(announce(healthy(new()), 0, "no90"), 4)
    with pytest.raises(
        IllegalActionError,
        match="Too late for Kontra: you have 8 cards, a reply to Re's no 90 needs 9",
    ):
        announce(state, 1, "kontra")


def test_timely_kontra_is_not_a_late_reply() -> None:
    state = announce(announce(healthy(new()), 0, "re"), 1, "kontra")
    assert not state.calls.kontra_barred
    assert announce(state, 1, "no90").calls.kontra_level == 1


def test_deadlines_count_cards_played_without_nines() -> None:
    rules = RuleSet(nines=False)
    hands = (
        "CQ H10 SQ DJ DA CA C10 SA HA HK",
        "H10 HQ CJ D10 DK CK S10 SK HA DQ",
        "CQ SQ HQ SJ HJ DA D10 CA SA HK",
        "DQ CJ SJ HJ DJ DK C10 CK S10 SK",
    )
    state = play(healthy(new(hands, rules=rules)), "SA S10 SA S10", "CA")
    with pytest.raises(IllegalActionError, match="Too late for Re: you have 8 cards, Re needs 9"):
        announce(state, 0, "re")


def test_solo_announcements() -> None:
    state = bid(new(), "solo:jack", "healthy", "healthy", "healthy")
    assert announce(state, 0, "re").calls.re_level == 0
    assert announce(state, 3, "kontra").calls.kontra_level == 0


def test_no_announcement_once_the_game_is_over() -> None:
    state = healthy(new())
    while not state.is_finished:
        plays = [a for a in legal_actions(state, state.to_act) if not isinstance(a, Announce)]
        state = apply(state, plays[0])
    assert legal_actions(state) == ()
    with pytest.raises(IllegalActionError, match="The game is over"):
        announce(state, 0, "re")


def test_late_reply_to_a_bare_re() -> None:
    state = at(announce(healthy(new()), 0, "re"), 3)
    with pytest.raises(
        IllegalActionError, match="Too late for Kontra: you have 9 cards, a reply to Re needs 10"
    ):
        announce(state, 1, "kontra")
