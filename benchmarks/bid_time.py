"""How long the strong AI's bid takes, and how many contracts it plays out, per version.

The first three seats to bid of ``--deals`` deals (the seats before them said
healthy), against three seats the table judged ``--judged`` (random 1), each bid
made by every version in ``--versions`` (JSON: name → StrongStrategy options) with
the same random numbers and a wall-clock budget (``--budget-ms``, 450 as in the
bot; 0: none, only the worlds count). Prints per version the bid's time (p50, p90,
max), the contract playouts it simulated (p50) and how many bids were solos, and
how many bids each version made as the first one did.

    python benchmarks/bid_time.py --versions '{"no race": {"race_sigmas": Infinity,
        "bid_factor": 4}, "race": {}}'
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

from dokobot.ai.strong import StrongStrategy
from dokobot.engine import DDV, Bid, GameSetup, GameState, Reservation, apply, deal, player_view


class Counted(StrongStrategy):
    """The strong AI counting the contracts its bid plays out."""

    playouts = 0

    def _simulate(self, view, hands, contract, rng):  # type: ignore[no-untyped-def]
        self.playouts += 1
        return super()._simulate(view, hands, contract, rng)


def bids(
    deals: int, seed: int, versions: dict[str, dict[str, Any]], budget_ms: float, judged: float
) -> dict[str, list[tuple[float, int, str]]]:
    """Per version, each bid's time (ms), playouts and reservation."""
    out: dict[str, list[tuple[float, int, str]]] = {name: [] for name in versions}
    for index in range(deals):
        hands = deal(random.Random(f"{seed}:{index}:deal"))
        state = GameState.new(GameSetup(rules=DDV, dealer=index % 4, hands=hands))
        for _ in range(3):
            seat = state.to_act
            assert seat is not None
            view = player_view(state, seat)
            noise = tuple(None if s == seat else judged for s in range(4))
            for name, options in versions.items():
                strategy = Counted(table_noise=noise, budget_ms=budget_ms or None, **options)
                start = time.perf_counter()
                action = strategy.choose(view, random.Random(f"{seed}:{index}:{seat}"))
                assert isinstance(action, Bid)
                ms = (time.perf_counter() - start) * 1000
                out[name].append((ms, strategy.playouts, action.reservation.value))
            state = apply(state, Bid(seat, Reservation.HEALTHY))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--versions", required=True, help="name → options (JSON)")
    parser.add_argument("--budget-ms", type=float, default=450.0)
    parser.add_argument("--judged", type=float, default=1.0)
    args = parser.parse_args()
    results = bids(args.deals, args.seed, json.loads(args.versions), args.budget_ms, args.judged)
    first = next(iter(results.values()))
    print(f"{len(first)} bids against ε {args.judged}, budget {args.budget_ms:g} ms:")
    for name, rows in results.items():
        ms = sorted(r[0] for r in rows)
        same = sum(r[2] == f[2] for r, f in zip(rows, first, strict=True))
        print(
            f"  {name}: {statistics.median(ms):.0f} ms p50, {ms[int(0.9 * len(ms))]:.0f} p90, "
            f"{ms[-1]:.0f} max; {statistics.median(r[1] for r in rows):.0f} playouts p50; "
            f"{sum(r[2].startswith('solo') for r in rows)} solos; {same} bids as the first"
        )


if __name__ == "__main__":
    main()
