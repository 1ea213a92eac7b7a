"""Winning thresholds (docs/rules.md §7) and game value (§8) on concrete, fully played games."""

from __future__ import annotations

import pytest

from dokobot.engine import DDV, Contract, GameState, Party, RuleSet, score

from .helpers import announce, bid, healthy, meatless_deal, new, play


def meatless(
    re_points: int,
    *calls: tuple[int, str],
    re_tricks: int | None = None,
    rules: RuleSet | None = None,
) -> GameState:
    """Seat 0 plays a meatless solo and takes ``re_points``; ``calls`` are made before trick 1."""
    hands, lines = meatless_deal(re_points, re_tricks=re_tricks)
    state = bid(
        new(hands, rules=rules or RuleSet()), "solo:meatless", "healthy", "healthy", "healthy"
    )
    for seat, word in calls:
        state = announce(state, seat, word)
    return play(state, *lines)


def items(state: GameState) -> list[tuple[str, str, int]]:
    return [(i.item, i.party.value, i.points) for i in score(state).breakdown]


RE, KO = (0, "re"), (1, "kontra")


# §7, one test per row: (Re points, announcements, winner, game value).
ROWS = [
    # no announcement: Re needs 121, Kontra 120
    (121, [], "re", 1),
    (120, [], "kontra", 1),
    # only Re: the same thresholds, +2 for Re
    (121, [RE], "re", 3),
    (120, [RE], "kontra", 3),
    # Re and Kontra: the same thresholds, +2 each
    (121, [RE, KO], "re", 5),
    (120, [RE, KO], "kontra", 5),
    # only Kontra: Re wins with 120, Kontra needs 121
    (120, [KO], "re", 3),
    (119, [KO], "kontra", 3),
    # own no 90 / 60 / 30: 151 / 181 / 211
    (151, [(0, "no90")], "re", 1 + 1 + 2 + 1),  # won, under 90, Re, no 90
    (150, [(0, "no90")], "kontra", 1 + 2 + 1),  # Kontra reached 90 against no 90
    (181, [(0, "no60")], "re", 1 + 2 + 2 + 2),  # won, under 90/60, Re, no 90/60
    (180, [(0, "no60")], "kontra", 1 + 2 + 2),
    (211, [(0, "no30")], "re", 1 + 3 + 2 + 3),
    (210, [(0, "no30")], "kontra", 1 + 2 + 3),
    # opponents said no 90 / 60 / 30, own party no more: 90 / 60 / 30
    (90, [(1, "no90")], "re", 1 + 2 + 1),
    (89, [(1, "no90")], "kontra", 1 + 1 + 2 + 1),
    (60, [(1, "no60")], "re", 1 + 2 + 2),
    (59, [(1, "no60")], "kontra", 1 + 2 + 2 + 2),
    (30, [(1, "no30")], "re", 1 + 2 + 3),
    (29, [(1, "no30")], "kontra", 1 + 3 + 2 + 3),
]


@pytest.mark.parametrize(("re_points", "calls", "winner", "value"), ROWS)
def test_winning_thresholds(
    re_points: int, calls: list[tuple[int, str]], winner: str, value: int
) -> None:
    result = score(meatless(re_points, *calls))
    assert result.re_points == re_points
    assert result.kontra_points == 240 - re_points
    assert result.winner == Party(winner)
    assert result.game_value == value
    # A soloist wins or loses three times the value, each opponent once (§8).
    sign = 1 if winner == "re" else -1
    assert result.scores == (3 * sign * value, -sign * value, -sign * value, -sign * value)


def test_own_schwarz_needs_every_trick() -> None:
    result = score(meatless(240, (0, "schwarz"), re_tricks=12))
    assert result.winner is Party.RE
    # won, under 90/60/30, no trick, Re, no 90/60/30/schwarz
    assert result.game_value == 1 + 3 + 1 + 2 + 4
    assert result.scores == (33, -11, -11, -11)


def test_own_schwarz_lost_to_a_single_trick() -> None:
    result = score(meatless(230, (0, "schwarz"), re_tricks=11))
    assert result.kontra_tricks == 1
    assert result.winner is Party.KONTRA
    assert result.game_value == 1 + 2 + 4
    assert result.scores == (-21, 7, 7, 7)


def test_opponents_schwarz_beaten_by_one_trick() -> None:
    result = score(meatless(10, (1, "schwarz"), re_tricks=1))
    assert result.winner is Party.RE
    assert result.game_value == 1 + 2 + 4  # won, Kontra, no 90/60/30/schwarz
    assert result.scores == (21, -7, -7, -7)


def test_opponents_schwarz_made() -> None:
    result = score(meatless(0, (1, "schwarz"), re_tricks=0))
    assert result.winner is Party.KONTRA
    assert result.game_value == 1 + 3 + 1 + 2 + 4
    assert ("schwarz", "kontra", 1) in items(meatless(0, (1, "schwarz"), re_tricks=0))


def test_nobody_wins_when_both_miss_their_own_announcements() -> None:
    state = meatless(140, (0, "no90"), (1, "no90"))
    result = score(state)
    assert result.winner is None
    assert result.game_value == 0
    assert result.breakdown == ()
    assert result.scores == (0, 0, 0, 0)


def test_levels_reached_against_the_losers_announcements() -> None:
    # Kontra said no 60; Re took 125: 120 against no 90 and 90 against no 60.
    state = meatless(125, (1, "no60"))
    assert items(state) == [
        ("won", "re", 1),
        ("kontra_announced", "re", 2),
        ("no90_announced", "re", 1),
        ("no60_announced", "re", 1),
        ("120_against_no90", "re", 1),
        ("90_against_no60", "re", 1),
    ]
    assert score(state).scores == (21, -7, -7, -7)


def test_announcement_doubles_house_rule() -> None:
    rules = RuleSet(announcement_doubles=True)
    result = score(meatless(121, RE, KO, rules=rules))
    # won (1), doubled by Re and again by Kontra instead of +2 each.
    assert result.game_value == 4
    assert result.scores == (12, -4, -4, -4)
    assert [i.item for i in result.breakdown] == ["won", "re_doubles", "kontra_doubles"]


# --------------------------------------------------------------------------- normal games

# Seat 0 leads (dealer 3). Re: seats 0 and 2 (queens of clubs). Re takes 130, no extras.
GAME_130 = (
    (
        "C9 CQ CK S10 SQ H10 HQ D9 D9 DJ DK DA",
        "C10 C10 CJ CK CA S9 SQ SA H9 HK HA DA",
        "C9 CJ CQ S9 SK SA HQ HA D10 DJ DQ DK",
        "CA S10 SJ SJ SK H9 H10 HJ HJ HK D10 DQ",
    ),
    [
        "D9 CJ CJ DQ",
        "HK SQ HA HA",
        "DJ SQ DQ H10",
        "S10 S10 S9 S9",
        "HJ D9 DA DJ",
        "SJ HQ CA D10",
        "CQ C10 DK HJ",
        "C9 CK C9 CA",
        "SK DA SA SK",
        "CK C10 SA D10",
        "SJ DK HK CQ",
        "HQ H9 H10 H9",
    ],
)

# Re: seats 2 and 3, 125 points. Kontra's doppelkopf in trick 1 (CA C10 CA C10 = 42),
# Re catches seat 0's fox in trick 8 and wins the last trick with the CJ (Karlchen).
GAME_EXTRAS = (
    (
        "C9 C9 CK CA S10 SJ SQ H10 HQ HK HA DA",
        "C10 CJ S9 S10 SK SK H9 HJ D10 DJ DQ DA",
        "CJ CQ CK CA SA H9 HJ HK D9 D10 DJ DQ",
        "C10 CQ S9 SJ SQ SA H10 HQ HA D9 DK DK",
    ),
    [
        "CA C10 CA C10",
        "C9 S9 CK CQ",
        "H10 SJ CJ HJ",
        "SQ HQ HJ CQ",
        "D9 HQ H10 DQ",
        "C9 D10 HK D9",
        "SK SA S9 S10",
        "D10 SJ DA DJ",
        "DK SQ DA DQ",
        "HA H9 H9 HA",
        "CK SK DJ DK",
        "CJ SA HK S10",
    ],
)

# Re: seats 0 and 1, only 105 points, but two foxes caught and a Karlchen.
GAME_LOSER_PLUS = (
    (
        "C10 CQ CK SJ SK H9 H9 H10 HJ D10 DJ DQ",
        "CJ CQ CK CA S9 SQ SA H10 HJ HQ D9 DK",
        "C9 CJ CA S9 S10 S10 SK SA HK HA D9 DA",
        "C9 C10 SJ SQ HQ HK HA D10 DJ DQ DK DA",
    ),
    [
        "DQ HJ D9 DA",
        "H10 HQ DA DJ",
        "CQ H10 CJ DK",
        "DK SA HQ D10",
        "SQ HJ SQ SK",
        "SJ DJ D9 C9",
        "HA H9 SA HK",
        "C9 C10 CK CA",
        "HA HK H9 S9",
        "S9 D10 SK CA",
        "DQ SJ CQ S10",
        "CJ S10 C10 CK",
    ],
)

# Re: seats 1 and 3, exactly 120 points, no extras.
GAME_120 = (
    (
        "C10 CJ CJ CK CA SA HQ HA D9 D10 DJ DA",
        "C10 CQ S9 SJ HJ HJ HQ HK HA D10 DK DA",
        "C9 S10 S10 SQ SQ SA H9 H9 H10 D9 DJ DK",
        "C9 CQ CK CA S9 SJ SK SK H10 HK DQ DQ",
    ),
    [
        "D9 CQ D9 H10",
        "CQ DJ HQ DJ",
        "DQ CJ SJ H10",
        "C9 CA CK C10",
        "DQ CJ HJ SQ",
        "H9 HK HA HA",
        "HQ HJ SQ SJ",
        "H9 CK C10 HK",
        "S9 S10 SK SA",
        "D10 DA DK SK",
        "D10 SA C9 DA",
        "CA DK S10 S9",
    ],
)


def normal(
    game: tuple[tuple[str, ...], list[str]], *calls: tuple[int, str], rules: RuleSet = DDV
) -> GameState:
    hands, lines = game
    state = healthy(new(hands, rules=rules))
    assert state.contract is Contract.NORMAL
    for seat, word in calls:
        state = announce(state, seat, word)
    return play(state, *lines)


def test_worked_example_re_no90_no60_with_130_loses_7() -> None:
    # docs/rules.md §8: Re announced no 90 and no 60 and got 130 → Kontra wins 7.
    state = normal(GAME_130, (0, "re"), (0, "no90"), (2, "no60"))
    result = score(state)
    assert (result.re, result.re_points) == ((0, 2), 130)
    assert result.winner is Party.KONTRA
    assert items(state) == [
        ("won", "kontra", 1),
        ("re_announced", "kontra", 2),
        ("no90_announced", "kontra", 1),
        ("no60_announced", "kontra", 1),
        ("90_against_no60", "kontra", 1),
        ("against_the_queens", "kontra", 1),
    ]
    assert result.game_value == 7
    assert result.scores == (-7, 7, -7, 7)


def test_skipping_to_no60_implies_re_and_no90() -> None:
    result = score(normal(GAME_130, (0, "no60")))
    assert result.game_value == 7
    assert result.scores == (-7, 7, -7, 7)


def test_normal_game_121_threshold_and_against_the_queens() -> None:
    plain = score(normal(GAME_130))
    assert (plain.winner, plain.game_value, plain.scores) == (Party.RE, 1, (1, -1, 1, -1))
    at_120 = normal(GAME_120)
    assert score(at_120).re == (1, 3)
    assert score(at_120).re_points == 120
    assert items(at_120) == [("won", "kontra", 1), ("against_the_queens", "kontra", 1)]
    assert score(at_120).scores == (2, -2, 2, -2)


def test_extra_points_doppelkopf_fox_karlchen_are_netted() -> None:
    state = normal(GAME_EXTRAS)
    result = score(state)
    assert (result.re, result.re_points, result.winner) == ((2, 3), 125, Party.RE)
    assert items(state) == [
        ("won", "re", 1),
        ("doppelkopf", "kontra", 1),
        ("fox_caught", "re", 1),
        ("karlchen", "re", 1),
    ]
    # 1 (won) + 2 (fox, Karlchen) − 1 (Kontra's Doppelkopf) = 2
    assert result.game_value == 2
    assert result.scores == (-2, -2, 2, 2)


def test_extras_and_announcements_add_up() -> None:
    result = score(normal(GAME_EXTRAS, (2, "re"), (0, "kontra")))
    assert result.game_value == 2 + 2 + 2
    assert result.scores == (-6, -6, 6, 6)


def test_announcement_doubles_leaves_the_extra_points_undoubled() -> None:
    # docs/rules.md §6: Re and Kontra double the game points only.
    rules = RuleSet(announcement_doubles=True)
    result = score(normal(GAME_EXTRAS, (2, "re"), (0, "kontra"), rules=rules))
    # won 1, doubled by Re (2) and by Kontra (4); then fox + Karlchen − Doppelkopf = +1.
    assert result.game_value == 5
    assert result.scores == (-5, -5, 5, 5)
    assert [(i.item, i.points) for i in result.breakdown] == [
        ("won", 1),
        ("re_doubles", 1),
        ("kontra_doubles", 2),
        ("doppelkopf", 1),
        ("fox_caught", 1),
        ("karlchen", 1),
    ]
    # Only Re announced: 1 × 2 + 1 = 3 (doubling the extras too would give 4).
    assert score(normal(GAME_EXTRAS, (2, "re"), rules=rules)).game_value == 3


def test_losers_can_end_with_net_plus_points() -> None:
    state = normal(GAME_LOSER_PLUS)
    result = score(state)
    assert (result.re, result.re_points, result.winner) == ((0, 1), 105, Party.KONTRA)
    # Kontra: won + against the queens = 2; Re: two foxes + Karlchen = 3; net −1.
    assert result.game_value == -1
    assert result.scores == (1, 1, -1, -1)


def test_no_winner_settles_only_the_extra_points() -> None:
    # Re (125) announced no 90 and missed; Kontra announced no 90 and missed too.
    result = score(normal(GAME_EXTRAS, (2, "no90"), (0, "no90")))
    assert result.winner is None
    # Extras: Re fox + Karlchen, Kontra Doppelkopf → Re +1.
    assert result.game_value == 1
    assert result.scores == (-1, -1, 1, 1)


def test_scores_sum_to_zero_and_share_parity() -> None:
    for game in (GAME_130, GAME_EXTRAS, GAME_LOSER_PLUS, GAME_120):
        scores = score(normal(game)).scores
        assert sum(scores) == 0
        assert len({s % 2 for s in scores}) == 1
