"""Who wins and what a finished game is worth (docs/rules.md §7, §8)."""

from __future__ import annotations

import dataclasses
from collections import Counter

from .actions import Party
from .cards import Card, Suit
from .contracts import Contract
from .rules import BockTrigger
from .state import GameState, Phase, Trick

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
    #: Bock rounds this game sets off for the session (house rule ``bock_after``, §9.6).
    bock_rounds: int = 0
    #: The Bock factor the game was played at (1: no Bock).
    bock: int = 1

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
    if contract is Contract.RAMSCH:
        return _score_ramsch(state)
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
    rules = state.rules
    if rules.solo_value_doubled and contract.is_announced_solo and value:
        # House rule (docs/rules.md §9.5): an announced solo counts double.
        items.append(ScoreItem("solo_doubled", value_party, value))
        value *= 2
    value = _bock(state, items, value_party, value)

    # The soloist wins or loses the value from each of the three opponents (§8).
    solo = contract.is_solo_scored
    sign = 1 if value_party is Party.RE else -1
    scores = tuple(
        sign * value * (3 if solo else 1) if re_mask[s] else -sign * value for s in range(4)
    )
    result = GameResult(
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
        bock=state.setup.bock,
    )
    rounds = bock_triggers(state, result)
    return dataclasses.replace(result, bock_rounds=rounds) if rounds else result


def _bock(state: GameState, items: list[ScoreItem], party: Party, value: int) -> int:
    """A Bock game (docs/rules.md §9.6): the whole value doubles, once per Bock level."""
    factor = state.setup.bock
    while factor > 1 and value:
        items.append(ScoreItem("bock", party, value))
        value *= 2
        factor //= 2
    return value


def bock_triggers(state: GameState, result: GameResult) -> int:
    """How many Bock rounds this game sets off under ``bock_after`` (docs/rules.md §9.6)."""
    after = state.rules.bock_after
    if not after:
        return 0
    found = {
        BockTrigger.TIE_120: result.re_points == 120 and result.contract is not Contract.RAMSCH,
        BockTrigger.LOST_RE: state.calls.re_level >= 0 and result.winner is not Party.RE,
        BockTrigger.LOST_KONTRA: state.calls.kontra_level >= 0
        and result.winner is not Party.KONTRA,
        BockTrigger.LOST_SOLO: result.contract.is_announced_solo and result.winner is not Party.RE,
        BockTrigger.HEARTS_TRICK: any(_all_hearts(state, t) for t in state.tricks),
    }
    return sum(1 for trigger in after if found[trigger])


def _all_hearts(state: GameState, trick: Trick) -> bool:
    cls = state.parties.order.suit_class
    return all(cls[c] == Suit.HEARTS for c in trick.cards)


def _score_ramsch(state: GameState) -> GameResult:
    """Ramsch (docs/rules.md §9.3): the most card points lose; each loser pays each other seat 1.

    One loser: −3 and +1 each; two: −2 −2 +2 +2; three: −1 each and +3; four: 0.
    Bock doubles these too.
    """
    points = [0, 0, 0, 0]
    tricks = [0, 0, 0, 0]
    for trick in state.tricks:
        points[trick.winner] += trick.points
        tricks[trick.winner] += 1
    most = max(points)
    losers = tuple(s for s in range(4) if points[s] == most)
    others = tuple(s for s in range(4) if points[s] != most)
    items = [ScoreItem("ramsch_most_points", Party.KONTRA, 1)]
    value = _bock(state, items, Party.KONTRA, 1)
    per = value if others else 0
    scores = tuple(-per * len(others) if s in losers else per * len(losers) for s in range(4))
    result = GameResult(
        contract=Contract.RAMSCH,
        soloist=None,
        re=losers,
        kontra=others,
        re_points=sum(points[s] for s in losers),
        kontra_points=sum(points[s] for s in others),
        re_tricks=sum(tricks[s] for s in losers),
        kontra_tricks=sum(tricks[s] for s in others),
        winner=Party.KONTRA if others else None,
        game_value=per,
        breakdown=tuple(items) if others else (),
        scores=scores,
        bock=state.setup.bock,
    )
    rounds = bock_triggers(state, result)
    return dataclasses.replace(result, bock_rounds=rounds) if rounds else result


def _extra_points(
    state: GameState, re_mask: tuple[bool, ...], winner: Party | None
) -> list[ScoreItem]:
    """Extra points of a normal game (§8): against the queens, Doppelkopf, fox, Karlchen.

    House rules add or change some (docs/rules.md §9.5): a caught H10, a trick of
    two aces and two kings, a fox worth 2 in the first or last trick, Karlchen
    caught and Lieschen Müller, a Doppelkopf that needs two pairs.
    """
    rules = state.rules
    items: list[ScoreItem] = []
    if winner is Party.KONTRA:
        items.append(ScoreItem("against_the_queens", Party.KONTRA, 1))
    last = len(state.tricks) - 1
    for number, trick in enumerate(state.tricks):
        won = re_mask[trick.winner]
        party = Party.RE if won else Party.KONTRA
        if trick.points >= 40 and (not rules.doppelkopf_needs_pairs or _two_pairs(trick)):
            items.append(ScoreItem("doppelkopf", party, 1))
        fox = 1
        if number == 0:
            fox = rules.fox_first_trick
        if number == last:
            fox = max(fox, rules.fox_last_trick)
        for i, card in enumerate(trick.cards):
            caught = re_mask[trick.seat_of(i)] != won
            if card == Card.DA and caught:
                items.append(ScoreItem("fox_caught", party, fox))
            elif card == Card.H10 and caught and rules.extra_dulle_caught:
                items.append(ScoreItem("dulle_caught", party, 1))
        if rules.extra_aces_kings_trick and sorted(c % 6 for c in trick.cards) == [4, 4, 5, 5]:
            items.append(ScoreItem("aces_and_kings", party, 1))
        if number == last:
            items.extend(_last_trick_jacks(state, trick, re_mask, party))
    return items


def _two_pairs(trick: Trick) -> bool:
    """Two pairs of equal cards, e.g. ♥A ♥A ♣10 ♣10."""
    return sorted(Counter(trick.cards).values()) == [2, 2]


def _last_trick_jacks(
    state: GameState, trick: Trick, re_mask: tuple[bool, ...], party: Party
) -> list[ScoreItem]:
    """Karlchen (CJ wins the last trick) and the house rules on a caught CJ (§8, §9.5)."""
    rules = state.rules
    items: list[ScoreItem] = []
    if trick.winning_card == Card.CJ:
        items.append(ScoreItem("karlchen", party, 1))
    if not (rules.karlchen_caught or rules.lieschen_mueller):
        return items
    won = re_mask[trick.winner]
    for i, card in enumerate(trick.cards):
        if card != Card.CJ or re_mask[trick.seat_of(i)] == won:
            continue
        if rules.lieschen_mueller:
            # Lieschen Müller: only a queen of diamonds catches the Karlchen.
            if trick.winning_card == Card.DQ:
                items.append(ScoreItem("lieschen_mueller", party, 1))
        else:
            items.append(ScoreItem("karlchen_caught", party, 1))
    return items
