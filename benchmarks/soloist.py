"""How many card points does the playouts' soloist take, reading the hands or not?

The strong AI's bid plays each candidate solo out on sampled deals with a cheap
policy (``strong.playout``). If that policy's soloist plays worse than the strong
AI does, the simulation underrates solos. This plays the hands the heuristic's count
plays as a solo (``solo_calibration.solo_hands``, the true deal) out many times with
the soloist's policy as today (``reads`` off: it counts only the cards still out)
and reading the world's hands (``reads`` on), against defenders that play a random
card with each ε given (``--eps``: 1 random, 0.7 about the heuristic's defence as the
playouts need it), and prints the soloist's mean card points and score, by solo.

    python benchmarks/soloist.py --hands 150 --playouts 20

The strong AI itself, playing the same 40 hands against random for real
(``solo_calibration.py``), takes about 164 card points.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solo_calibration import solo_hands

from dokobot.ai.strong import playout
from dokobot.engine import (
    DDV,
    Card,
    Contract,
    GameSetup,
    GameState,
    Parties,
    Phase,
    order_for,
    score,
)


def solo_state(hands: Sequence[Sequence[Card]], contract: Contract) -> GameState:
    """The deal at its first card, seat 0 playing ``contract`` alone (seat 3 deals)."""
    setup = GameSetup(rules=DDV, dealer=3, hands=tuple(tuple(sorted(h)) for h in hands))
    re = (True, False, False, False)
    parties = Parties(contract, 0, None, re, False, order_for(DDV, contract), True)
    leader = 0  # left of the dealer: leads a voluntary solo (docs/rules.md §5)
    return dataclasses.replace(
        GameState.new(setup), phase=Phase.PLAY, parties=parties, leader=leader, to_act=leader
    )


def measure(
    states: list[tuple[Contract, GameState]], eps: float, playouts: int, reads: bool
) -> tuple[list[float], float]:
    """The soloist's mean card points per hand, and its mean score over all playouts."""
    noise = [0.0, eps, eps, eps]
    points, scores = [], []
    for i, (_, state) in enumerate(states):
        rng = random.Random(i)
        hand = []
        for _ in range(playouts):
            result = score(playout(state, rng, 2, noise, 0 if reads else None))
            hand.append(result.re_points)
            scores.append(result.scores[0])
        points.append(statistics.fmean(hand))
    return points, statistics.fmean(scores)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playouts", type=int, default=20, help="per hand and setting")
    parser.add_argument("--eps", type=float, nargs="+", default=[1.0, 0.7])
    args = parser.parse_args()
    states = [
        (Contract(s.value), solo_state(h, Contract(s.value)))
        for _, h, s in solo_hands(args.hands, args.seed)
    ]
    print(f"{len(states)} hands the count plays as a solo, {args.playouts} playouts each:")
    for eps in args.eps:
        points = {}
        for reads in (False, True):
            start = time.perf_counter()
            points[reads], scores = measure(states, eps, args.playouts, reads)
            print(
                f"  defenders ε {eps}, reads {'on ' if reads else 'off'}: card points "
                f"{statistics.fmean(points[reads]):.1f}, score {scores:+.2f} "
                f"({time.perf_counter() - start:.1f} s)"
            )
        gains = [on - off for off, on in zip(points[False], points[True], strict=True)]
        err = statistics.stdev(gains) / len(gains) ** 0.5
        print(f"    on − off: {statistics.fmean(gains):+.1f} ± {err:.1f} card points a hand")
        by: dict[str, list[float]] = defaultdict(list)
        for (contract, _), gain in zip(states, gains, strict=True):
            by[contract.name.lower()].append(gain)
        for kind, values in sorted(by.items()):
            print(f"    {kind}: {len(values)} hands, {statistics.fmean(values):+.1f}")


if __name__ == "__main__":
    main()
