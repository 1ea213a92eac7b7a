"""The exact solver from five tricks left: milliseconds and nodes per deal.

Random legal play (seeded) for the first seven tricks of a normal game, then
``Solver.value`` from there, with the move ordering by the trick as it stands
and, for comparison in the same run, by card strength alone.

    python benchmarks/solver.py --deals 100 [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dokobot.ai.solver import Solver, Tables, mask_of
from dokobot.engine import (
    GameSetup,
    GameState,
    Phase,
    Play,
    apply,
    deal,
    legal_actions,
    legal_cards,
)

#: The solver's move orderings: by the trick as it stands, by card strength alone.
ORDERINGS = {"by the trick": True, "by strength": False}


def position(seed: int, tricks_left: int) -> GameState:
    rng = random.Random(seed)
    state = GameState.new(GameSetup(dealer=seed % 4, hands=deal(rng)))
    while state.phase is not Phase.PLAY:
        state = apply(state, legal_actions(state, state.to_act)[0])  # healthy
    while state.rules.tricks - len(state.tricks) > tricks_left or state.trick:
        seat = state.to_act
        assert seat is not None
        state = apply(state, Play(seat, rng.choice(legal_cards(state))))
    return state


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--tricks", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, dict[str, Any]] = {}
    positions = [position(seed, args.tricks) for seed in range(args.deals)]
    samples: dict[str, tuple[list[float], list[int], list[int]]] = {
        name: ([], [], []) for name in ORDERINGS
    }
    for i, state in enumerate(positions):
        assert state.parties.re is not None
        hands = [mask_of(h) for h in state.hands]
        # Both orderings on each position, taking turns at going first.
        names = list(ORDERINGS) if i % 2 == 0 else list(reversed(ORDERINGS))
        for name in names:
            solver = Solver(
                Tables.of(state.parties.order),
                state.parties.re,
                args.tricks,
                dynamic=ORDERINGS[name],
            )
            start = time.perf_counter()
            value = solver.value(hands, state.leader, [], args.tricks)
            times, nodes, values = samples[name]
            times.append((time.perf_counter() - start) * 1000)
            nodes.append(solver.nodes)
            values.append(value)
    for name, (times, nodes, values) in samples.items():
        ordered = sorted(times)
        report[name] = {
            "median_ms": round(statistics.median(times), 2),
            "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 2),
            "max_ms": round(ordered[-1], 2),
            "median_nodes": int(statistics.median(nodes)),
            "values": values,
        }
    same = report["by the trick"]["values"] == report["by strength"]["values"]
    print(
        f"{args.deals} deals, {args.tricks} tricks left; the orderings agree on every value: {same}"
    )
    for name, r in report.items():
        print(
            f"ordering {name:<13} median {r['median_ms']:7.2f} ms, p95 {r['p95_ms']:7.2f} ms, "
            f"max {r['max_ms']:7.2f} ms, median {r['median_nodes']} nodes"
        )
    if args.json:
        figures = {k: {x: y for x, y in v.items() if x != "values"} for k, v in report.items()}
        print(json.dumps(figures))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
