"""Where a strong decision's time goes, per trick: dealing, replays, playouts.

The strong AI plays seat 0 of ``--deals`` deals against three seats of
``--opponents`` (the heuristic) with a wall-clock budget (``--budget-ms``, 450 as in
the bot); with ``--judged`` it knows the ε a table judged them to (random 1), and
``--options`` gives it other options (JSON). Each card decision is
timed as a whole and by phase: dealing the worlds, building their states, the
card replays and the call replays (inference), fitting and weighing, and the
playouts; also how many distinct worlds were played out and how many decisions
the clock cut before every kept world was played out. Medians per trick.

    python benchmarks/decision_phases.py [--deals 12] [--budget-ms 450] [--json]
    python benchmarks/decision_phases.py --opponents random --judged 1
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dokobot.ai import make_strategy, model
from dokobot.ai import strong as strong_module
from dokobot.ai.arena import play_deal
from dokobot.ai.strong import StrongStrategy
from dokobot.engine import GameSetup, deal

#: Phase name: (owner, attribute) of the function timed for it.
PHASES = {
    "deal": (strong_module.Dealer, "deal"),
    "world": (strong_module, "world"),
    "card replays": (strong_module, "replay"),
    "call replays": (model.CallReplays, "__call__"),
    "fit": (StrongStrategy, "_fit"),
    "weights": (StrongStrategy, "_weights"),
    "playouts": (strong_module, "playout"),
}

spent: dict[str, float] = collections.defaultdict(float)
#: Per trick: each card decision's phases.
rows: dict[int, list[dict[str, float]]] = collections.defaultdict(list)


def timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] += time.perf_counter() - start

    return wrapper


class Probe(StrongStrategy):
    """The strong AI, noting each card decision's phases."""

    def _worlds(self, view: Any, rng: random.Random) -> Any:
        out = super()._worlds(view, rng)
        self._kept = len(out[0])
        return out

    def _evaluate(self, view: Any, plays: Any, rng: random.Random, priced: int = 0) -> Any:
        spent.clear()
        start = time.perf_counter()
        finals, results, weights = super()._evaluate(view, plays, rng, priced)
        row = {name: spent.get(name, 0.0) * 1000 for name in PHASES}
        row["total"] = (time.perf_counter() - start) * 1000
        played = len(next(iter(finals.values()))) if finals else 0
        row["played"] = played
        row["cut"] = float(played < self._kept)
        row["options"] = len(plays)
        rows[len(view.tricks) + 1].append(row)
        return finals, results, weights


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--budget-ms", type=float, default=450.0)
    parser.add_argument("--opponents", default="heuristic")
    parser.add_argument("--judged", type=float, help="the opponents' ε as a table judged it")
    parser.add_argument("--options", default="{}", help="StrongStrategy options (JSON)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    options = json.loads(args.options)
    if args.judged is not None:
        options["table_noise"] = (None, *(args.judged,) * 3)
    for name, (owner, attribute) in PHASES.items():
        setattr(owner, attribute, timed(name, getattr(owner, attribute)))
    for index in range(args.deals):
        hands = deal(random.Random(f"phases:{index}"))
        players = [
            Probe(budget_ms=args.budget_ms, **options),
            *(make_strategy(args.opponents) for _ in range(3)),
        ]
        play_deal(GameSetup(dealer=index % 4, hands=hands), players, random.Random(index))
    columns = ["total", *PHASES, "played", "options"]
    report = {
        str(trick): {
            "decisions": len(noted),
            "cut": int(sum(r["cut"] for r in noted)),
            **{c: round(statistics.median(r[c] for r in noted), 1) for c in columns},
        }
        for trick, noted in sorted(rows.items())
    }
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{args.deals} deals, strong at seat 0 against three {args.opponents} seats, ", end="")
    print(f"{args.budget_ms:.0f} ms a decision; medians in ms (played: distinct worlds)")
    print("trick  decisions  cut " + " ".join(f"{c:>12}" for c in columns))
    for trick, row in report.items():
        cells = " ".join(f"{row[c]:12.1f}" for c in columns)
        print(f"{trick:>5}  {row['decisions']:9}  {row['cut']:3} {cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
