"""How long the strong AI takes over each poverty decision (docs/rules.md §4).

For ``--positions`` deals in which seat 0 may announce a poverty (dealer 3, so it
is asked first): its bid, its choice of cards to put down (where it has one),
seat 1's answer, and seat 1's cards given back once it took the poverty; each at
``--budget-ms`` a decision against three heuristic players.

    python benchmarks/poverty.py --positions 30 --budget-ms 450

Prints, per decision, the median, p95 and the longest time in ms.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dokobot.ai import poverty
from dokobot.ai.heuristic import poverty_pass
from dokobot.ai.strong import StrongStrategy
from dokobot.engine import (
    GameSetup,
    GameState,
    PassCards,
    PovertyReply,
    RuleSet,
    apply,
    deal,
    legal_actions,
    player_view,
)


def positions(
    count: int, rules: RuleSet, seed: int
) -> list[tuple[tuple[str, GameState, int], ...]]:
    """``count`` deals where seat 0 may announce a poverty: each decision's state and seat."""
    rng = random.Random(seed)
    counted = poverty.counts_as_trump(rules)
    out = []
    while len(out) < count:
        hands = deal(rng)
        if sum(c in counted for c in hands[0]) > rules.poverty_cards:
            continue
        bid = GameState.new(GameSetup(rules=rules, dealer=3, hands=hands))
        put = poverty.bid_poverty(bid.setup, 0)
        down = apply(put, PassCards(0, poverty_pass(hands[0], rules)))
        back = apply(down, PovertyReply(1, True))
        steps = [("bid", bid, 0), ("answer", down, 1), ("give back", back, 1)]
        if len(legal_actions(put, 0)) > 1:
            steps.insert(1, ("put down", put, 0))
        out.append(tuple(steps))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--budget-ms", type=float, default=450.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default='{"poverty": true}', help="house rules (JSON)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rules = RuleSet.from_dict(json.loads(args.rules))
    times: dict[str, list[float]] = {}
    for i, steps in enumerate(positions(args.positions, rules, args.seed)):
        for name, state, seat in steps:
            strategy = StrongStrategy(budget_ms=args.budget_ms)
            start = time.perf_counter()
            strategy.choose(player_view(state, seat), random.Random(i))
            times.setdefault(name, []).append((time.perf_counter() - start) * 1000)
    report = {}
    for name, values in times.items():
        values.sort()
        report[name] = {
            "decisions": len(values),
            "median": round(statistics.median(values), 1),
            "p95": round(values[max(0, round(0.95 * len(values)) - 1)], 1),
            "max": round(values[-1], 1),
        }
        row = report[name]
        print(
            f"{name:10} {row['decisions']:3} decisions: median {row['median']:6.1f} ms, "
            f"p95 {row['p95']:6.1f} ms, max {row['max']:6.1f} ms"
        )
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
