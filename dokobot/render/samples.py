"""Seeded sample inputs for every image kind: previews, golden tests, benchmarks."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from dokobot.engine import (
    Announce,
    Bid,
    GameSetup,
    GameState,
    Phase,
    Reservation,
    apply,
    deal,
    legal_actions,
    legal_cards,
    outcome,
    replay_text,
)
from dokobot.engine.record import replay

from . import render_hand, render_leaderboard, render_result, render_score_sheet, render_trick

NAMES = ("Anna", "Jürgen", "Zoë", "Maximilian-Alexander von Hohenstein")


@dataclasses.dataclass(frozen=True)
class SampleRow:
    seq: int
    dealer: int
    contract: str | None
    soloist: int | None
    game_value: int | None
    scores: tuple[int, ...] | None
    totals: tuple[int, ...]
    bock: int = 1


@dataclasses.dataclass(frozen=True)
class SampleBoard:
    rank: int
    name: str
    points: int
    games: int
    won: int

    @property
    def win_rate(self) -> float:
        return self.won / self.games

    @property
    def average(self) -> float:
        return self.points / self.games


def sample_game(seed: int, *, stop_after: int | None = None) -> GameState:
    """A seeded game of random legal play (healthy bids, a few announcements)."""
    rng = random.Random(seed)
    state = GameState.new(GameSetup(dealer=seed % 4, hands=deal(rng)))
    steps = 0
    while not state.is_finished and (stop_after is None or steps < stop_after):
        actions = legal_actions(state)
        if state.phase is Phase.BIDDING:
            action: Any = Bid(state.to_act, Reservation.HEALTHY)  # type: ignore[arg-type]
        else:
            calls = [a for a in actions if isinstance(a, Announce)]
            plays = [a for a in actions if not isinstance(a, Announce)]
            action = rng.choice(calls) if calls and rng.random() < 0.05 else rng.choice(plays)
        state = apply(state, action)
        steps += 1
    return state


def sample_images(seed: int = 7) -> dict[str, bytes]:
    """One image of each kind from a seeded game, keyed by file stem."""
    mid = sample_game(seed, stop_after=4 + 4 * 3 + 2)
    seat = mid.to_act
    assert seat is not None
    hand = render_hand(mid.hands[seat], order=mid.parties.order, playable=legal_cards(mid))
    full = sample_game(seed)
    trick = full.tricks[4]
    trick_png = render_trick(
        [(trick.seat_of(i), c) for i, c in enumerate(trick.cards)],
        NAMES,
        leader=trick.leader,
        winner=trick.winner,
        points=trick.points,
        title="Trick 5",
        contract=full.contract.value if full.contract else None,
    )
    result_png = render_result(outcome(full), NAMES, title="Game 12 · Normal game")
    rows, totals = [], (0, 0, 0, 0)
    for i in range(24):
        game = sample_game(seed * 100 + i)
        result = outcome(game)
        # The last four games are a Bock round: every value doubled (docs/rules.md §9.6).
        bock = 2 if i >= 20 else 1
        scores = tuple(s * bock for s in result["scores"])
        totals = tuple(t + s for t, s in zip(totals, scores, strict=True))
        rows.append(
            SampleRow(
                i,
                i % 4,
                result["contract"],
                result.get("soloist"),
                result["game_value"] * bock,
                scores,
                totals,
                bock,
            )
        )
    sheet = render_score_sheet(
        NAMES,
        rows,
        totals,
        title="Score sheet · Liste 3",
        stake=0.05,
        chart=True,
        note="Bock ×2 now · 4 Bock games to come",
    )
    rng = random.Random(seed)
    board_rows = sorted(
        (
            SampleBoard(0, f"Spieler {i} Ärger", rng.randint(-80, 160), rng.randint(20, 400), 0)
            for i in range(12)
        ),
        key=lambda r: -r.points,
    )
    board = [
        dataclasses.replace(r, rank=i + 1, won=r.games // 2 + i) for i, r in enumerate(board_rows)
    ]
    board_png = render_leaderboard(board, title="Leaderboard · this month")
    return {
        "hand": hand,
        "trick": trick_png,
        "result": result_png,
        "sheet": sheet,
        "leaderboard": board_png,
    }


def record_images(text: str) -> dict[str, bytes]:
    """Every trick and the result of a recorded game (raises ``RecordError`` if broken)."""
    import json

    replay_text(text)  # validates first, with a one-line reason
    record = json.loads(text)
    state = replay(record)
    names = record.get("players") or [f"Player {s + 1}" for s in range(4)]
    images = {}
    for n, trick in enumerate(state.tricks, start=1):
        images[f"trick{n:02d}"] = render_trick(
            [(trick.seat_of(i), c) for i, c in enumerate(trick.cards)],
            names,
            leader=trick.leader,
            winner=trick.winner,
            points=trick.points,
            title=f"Trick {n}",
            contract=state.contract.value if state.contract else None,
            soloist=state.parties.declarer
            if state.contract and state.contract.is_solo_scored
            else None,
        )
    if state.is_finished:
        images["result"] = render_result(outcome(state), names)
    return images
