"""Who wins and what a finished game is worth (docs/rules.md §7, §8)."""

from __future__ import annotations

import dataclasses

from .actions import Party
from .cards import Card
from .contracts import Contract
from .state import GameState, Phase

# Thresholds a winning party must reach against the opponents' no 90 / 60 / 30 /
# schwarz to score "120 against no 90" and so on (docs/rules.md §8.4).
_AGAINST = {1: 120, 2: 90, 3: 60, 4: 30}
_AGAINST_ITEM = {
    1: "120_against_no90",
    2: "90_against_no60",
    3: "60_against_no30",
    4: "30_against_schwarz",
}
_LEVEL_ITEM = {
    1: "no90_announced",
    2: "no60_announced",
    3: "no30_announced",
    4: "schwarz_announced",
}


@dataclasses.dataclass(frozen=True, slots=True)
class ScoreItem:
    """One line of the value breakdown: what, which party earned it, how many points."""

    item: str
    party: Party
    points: int


@dataclasses.dataclass(frozen=True, slots=True)
class GameResult:
    """The outcome of a finished game, as ``dokobot replay`` prints it."""

    contract: Contract
    soloist: int | None
    re: tuple[int, ...]
    kontra: tuple[int, ...]
    re_points: int
    kontra_points: int
    re_tricks: int
    kontra_tricks: int
    winner: Party | None
    #: What each winner scores before the solo factor; with no winner, what each Re player scores.
    game_value: int
    breakdown: tuple[ScoreItem, ...]
    scores: tuple[int, ...]
    compulsory: bool = False

    @property
    def is_solo(self) -> bool:
        return self.contract.is_solo_scored


class GameNotFinishedError(ValueError):
    """Scoring was asked of a game that is still running or was redealt."""


def score(state: GameState) -> GameResult:
    """Score a finished game: winner, game value with its breakdown, and each seat's score."""
    if state.phase is not Phase.FINISHED or state.is_redeal:
        raise GameNotFinishedError("the game is not finished")
    parties = state.parties
    contract = parties.contract
    re_mask = parties.re
    assert contract is not None and re_mask is not None
    re_seats = tuple(s for s in range(4) if re_mask[s])
    kontra_seats = tuple(s for s in range(4) if not re_mask[s])
    n_tricks = len(state.tricks)
    re_pts = sum(t.points for t in state.tricks if re_mask[t.winner])
    re_tricks = sum(1 for t in state.tricks if re_mask[t.winner])
    ko_pts = 240 - re_pts
    ko_tricks = n_tricks - re_tricks
    re_level = state.calls.re_level
    ko_level = state.calls.kontra_level
    only_kontra = re_level < 0 <= ko_level

    def wins(own_pts: int, own_tr: int, opp_tr: int, own: int, opp: int, base: int) -> bool:
        if own == 4:
            return opp_tr == 0
        if own >= 1:
            return 240 - own_pts < {1: 90, 2: 60, 3: 30}[own]
        if opp == 4:
            return own_tr >= 1
        if opp >= 1:
            return own_pts >= {1: 90, 2: 60, 3: 30}[opp]
        return own_pts >= base

    re_wins = wins(re_pts, re_tricks, ko_tricks, re_level, ko_level, 120 if only_kontra else 121)
    ko_wins = wins(ko_pts, ko_tricks, re_tricks, ko_level, re_level, 121 if only_kontra else 120)
    winner = Party.RE if re_wins else Party.KONTRA if ko_wins else None

    items: list[ScoreItem] = []
    if winner is not None:
        loser = winner.other
        w_pts, l_pts = (re_pts, ko_pts) if winner is Party.RE else (ko_pts, re_pts)
        l_tricks = ko_tricks if winner is Party.RE else re_tricks
        items.append(ScoreItem("won", winner, 1))
        # §8.1: the losers under 90 / 60 / 30 / without a trick.
        for limit, name in ((90, "under_90"), (60, "under_60"), (30, "under_30")):
            if l_pts < limit:
                items.append(ScoreItem(name, winner, 1))
        if l_tricks == 0:
            items.append(ScoreItem("schwarz", winner, 1))
        # §8.2 and §8.3: announcements of either party count for the winner.
        if not state.rules.announcement_doubles:
            if re_level >= 0:
                items.append(ScoreItem("re_announced", winner, 2))
            if ko_level >= 0:
                items.append(ScoreItem("kontra_announced", winner, 2))
        for level in range(1, 5):
            if re_level >= level:
                items.append(ScoreItem(_LEVEL_ITEM[level], winner, 1))
            if ko_level >= level:
                items.append(ScoreItem(_LEVEL_ITEM[level], winner, 1))
        # §8.4: each level the winners reached against the losers' own announcements.
        loser_level = re_level if loser is Party.RE else ko_level
        for level in range(1, loser_level + 1):
            if w_pts >= _AGAINST[level]:
                items.append(ScoreItem(_AGAINST_ITEM[level], winner, 1))

    value_party = winner or Party.RE

    def net(lines: list[ScoreItem]) -> int:
        return sum(i.points if i.party is value_party else -i.points for i in lines)

    value = net(items)
    if state.rules.announcement_doubles:
        # House rule (docs/rules.md §6): Re and Kontra each double the game
        # points; the extra points below are added undoubled.
        for level, name in ((re_level, "re_doubles"), (ko_level, "kontra_doubles")):
            if level >= 0 and value:
                items.append(ScoreItem(name, value_party, value))
                value *= 2
    if not contract.is_solo_scored:
        extras = _extra_points(state, re_mask, winner)
        items.extend(extras)
        value += net(extras)

    # The soloist wins or loses the value from each of the three opponents (§8).
    solo = contract.is_solo_scored
    sign = 1 if value_party is Party.RE else -1
    scores = tuple(
        sign * value * (3 if solo else 1) if re_mask[s] else -sign * value for s in range(4)
    )
    return GameResult(
        contract=contract,
        soloist=re_seats[0] if contract.is_solo_scored else None,
        re=re_seats,
        kontra=kontra_seats,
        re_points=re_pts,
        kontra_points=ko_pts,
        re_tricks=re_tricks,
        kontra_tricks=ko_tricks,
        winner=winner,
        game_value=value,
        breakdown=tuple(items),
        scores=scores,
        compulsory=parties.compulsory,
    )


def _extra_points(
    state: GameState, re_mask: tuple[bool, ...], winner: Party | None
) -> list[ScoreItem]:
    """Extra points of a normal game (§8): against the queens, Doppelkopf, fox, Karlchen."""
    items: list[ScoreItem] = []
    if winner is Party.KONTRA:
        items.append(ScoreItem("against_the_queens", Party.KONTRA, 1))
    last = len(state.tricks) - 1
    for number, trick in enumerate(state.tricks):
        party = Party.RE if re_mask[trick.winner] else Party.KONTRA
        if trick.points >= 40:
            items.append(ScoreItem("doppelkopf", party, 1))
        for i, card in enumerate(trick.cards):
            if card == Card.DA and re_mask[trick.seat_of(i)] != re_mask[trick.winner]:
                items.append(ScoreItem("fox_caught", party, 1))
        if number == last and trick.winning_card == Card.CJ:
            items.append(ScoreItem("karlchen", party, 1))
    return items
