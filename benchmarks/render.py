"""Rendering speed and size: median ms and PNG bytes per image kind.

Faces and fonts are cached once (as in the running bot); each kind is rendered
``--rounds`` times. ``--json`` ends with one JSON line: hand_ms, trick_ms,
sheet_ms, result_ms, leaderboard_ms, max_png_bytes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from dokobot.engine import legal_cards, outcome
from dokobot.render import (
    render_hand,
    render_leaderboard,
    render_result,
    render_score_sheet,
    render_trick,
)
from dokobot.render.samples import NAMES, SampleBoard, SampleRow, sample_game


def timed(fn: Callable[[], bytes], rounds: int) -> tuple[float, int]:
    fn()  # warm the caches
    times, size = [], 0
    for _ in range(rounds):
        t = time.perf_counter()
        size = len(fn())
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    mid = sample_game(7, stop_after=6)
    seat = mid.to_act
    assert seat is not None
    full = sample_game(7)
    trick = full.tricks[4]
    rows, totals = [], (0, 0, 0, 0)
    for i in range(24):
        scores = tuple(outcome(sample_game(700 + i))["scores"])
        totals = tuple(t + s for t, s in zip(totals, scores, strict=True))
        rows.append(SampleRow(i, i % 4, "normal", None, abs(scores[0]), scores, totals))
    board = [SampleBoard(i + 1, f"Spieler {i}", 200 - 7 * i, 120, 60) for i in range(25)]
    kinds: dict[str, Callable[[], bytes]] = {
        "hand": lambda: render_hand(mid.hands[seat], playable=legal_cards(mid)),
        "trick": lambda: render_trick(
            [(trick.seat_of(i), c) for i, c in enumerate(trick.cards)],
            NAMES,
            leader=trick.leader,
            winner=trick.winner,
            points=trick.points,
            title="Trick 5",
        ),
        "result": lambda: render_result(outcome(full), NAMES),
        "sheet": lambda: render_score_sheet(NAMES, rows, totals, max_rows=24),
        "leaderboard": lambda: render_leaderboard(board),
    }
    figures: dict[str, float] = {}
    max_bytes = 0
    targets = {"hand": 15, "trick": 15, "sheet": 40}
    for name, fn in kinds.items():
        ms, size = timed(fn, args.rounds)
        figures[f"{name}_ms"] = round(ms, 2)
        max_bytes = max(max_bytes, size)
        target = f"   target ≤ {targets[name]} ms" if name in targets else ""
        print(f"{name:12} {ms:7.2f} ms  {size / 1024:6.1f} KiB{target}")
    print(f"largest PNG: {max_bytes / 1024:.1f} KiB (limit 300 KiB)")
    if args.json:
        print(json.dumps({**figures, "max_png_bytes": max_bytes}))


if __name__ == "__main__":
    main()
