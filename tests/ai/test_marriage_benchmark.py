"""benchmarks/marriage.py: each hand with both queens of clubs played as silent
marriage, marriage and solo, and the bid rules priced on those games."""

from __future__ import annotations

import json

from .benchmarks import LOGGED_BID, ROOT, load

marriage = load("marriage")


def test_a_middling_hand_with_both_queens_went_solo_and_now_marries() -> None:
    """Deal 0 (seed 31), seat 2 against random: ♣A ♣K ♣Q ♣Q ♣J ♦10 ♦K ♥J ♠A ♠10 ♠K ♠9.
    Played, the silent marriage scores −3, the marriage +6, the solo the bid simulates
    best (meatless) −12. The old rule measured that solo against the silent marriage
    and played it; the strong AI's rule measures it against the marriage and marries.
    The run is the first hand of benchmarks/results/marriage_random_seed31.jsonl."""
    rows = marriage.one(0, 31, "random", **LOGGED_BID)
    row = next(r for r in rows if r["seat"] == 2)
    assert row["scores"] == {"healthy": -3, "marriage": 6, "solo:meatless": -12}
    assert row["best"] == "solo:meatless" and row["heuristic"] == "marriage"
    assert row["values"]["marriage"] > row["values"]["healthy"] + 3
    assert marriage.bid(row, None) == "solo:meatless"
    assert marriage.bid(row, row["margin"], count=False) == "marriage"
    log = ROOT / "benchmarks" / "results" / "marriage_random_seed31.jsonl"
    logged = json.loads(log.read_text().splitlines()[0])
    assert (logged["index"], logged["seat"]) == (0, 2)
    assert logged["scores"] == row["scores"] and logged["values"] == row["values"]
