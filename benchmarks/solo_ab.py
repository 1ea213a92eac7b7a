"""Two versions of the strong AI that differ only as a soloist: is the difference real?

Like ``ai_ab.py``, but cheaper for options that only change how a soloist plays or
announces (``solo_raise_margin``, ``solo_call_margin`` …): both versions search a
fixed number of worlds (no clock), so they bid alike and play every game that is not
the strong seat's own solo card for card alike. Version A plays every deal in every
rotation; only where the strong seat plays a solo does version B play the same deal,
same seat, same seeds. The games without a solo count as a difference of 0.

    python benchmarks/solo_ab.py --deals 120 --seed 7 --opponents random \\
        --a '{"solo_raise_margin": 0.6}' --b '{"solo_raise_margin": -1.0}'

The opponents are given the ε a table judges them to (``--noise``: random 1, the
heuristic 0.25, ``skill.py``) as the strong AI's prior, as at a table that has played
with them. Prints the mean difference A − B per solo and per game ± standard error,
both versions' mean score in the solos, and how high A and B announced in them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dokobot.ai import make_strategy
from dokobot.ai.arena import play_deal, played_solo
from dokobot.ai.strong import StrongStrategy
from dokobot.engine import DDV, GameSetup, GameState, deal, outcome

#: The ε a table judges each level's cards to (tests/ai/test_skill.py).
JUDGED = {"random": 1.0, "heuristic": 0.25, "normal": 0.25, "easy": 0.4}


def _level(state: GameState, seat: int) -> int:
    """The highest announcement of the seat's party (−1: none)."""
    party = state.party(seat)
    assert party is not None
    return state.calls.level(party)


def one_deal(
    index: int, seed: int, a: dict[str, Any], b: dict[str, Any], opponents: str, noise: float
) -> list[dict[str, Any]]:
    """Deal ``index``, four rotations: A's score, and B's where A's seat played a solo."""
    hands = deal(random.Random(f"{seed}:{index}:deal"))
    setup = GameSetup(rules=DDV, dealer=index % 4, hands=hands)
    rows: list[dict[str, Any]] = []
    for seat in range(4):
        row: dict[str, Any] = {"deal": index, "seat": seat}
        for name, options in (("a", a), ("b", b)):
            players = [
                StrongStrategy(table_noise=(noise,) * 4, **options)
                if s == seat
                else make_strategy(opponents)
                for s in range(4)
            ]
            state, _ = play_deal(setup, players, random.Random(f"{seed}:{index}:{seat}"))
            result = outcome(state)
            row[name] = result["scores"][seat]
            row[f"{name}_level"] = _level(state, seat)
            row["solo"] = played_solo(result, seat)
            if not row["solo"]:
                break
        rows.append(row)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=120)
    parser.add_argument("--start", type=int, default=0, help="the first deal's index")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--a", default='{"solo_raise_margin": 0.6}', help="options (JSON)")
    parser.add_argument("--b", default='{"solo_raise_margin": -1.0}', help="options (JSON)")
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--noise", type=float, help="the opponents' judged ε")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--log", type=Path, help="append every rotation here (JSON lines)")
    args = parser.parse_args()
    a, b = json.loads(args.a), json.loads(args.b)
    for options in (a, b):
        if "budget_ms" in options:
            parser.error("a clock makes the games without a solo differ: give samples only")
    noise = args.noise if args.noise is not None else JUDGED.get(args.opponents, 0.5)
    rows: list[dict[str, Any]] = []
    indices = range(args.start, args.start + args.deals)
    with ProcessPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(one_deal, i, args.seed, a, b, args.opponents, noise) for i in indices]
        for done, job in enumerate(jobs, start=1):
            new = job.result()
            rows.extend(new)
            if args.log is not None:
                with args.log.open("a") as log:
                    log.writelines(json.dumps(r) + "\n" for r in new)
            if sys.stderr.isatty():
                print(f"\r{done}/{args.deals} deals", end="", file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    solos = [r for r in rows if r["solo"]]
    print(f"{len(rows)} games, {len(solos)} solos of the strong seat ({args.opponents})")
    print(f"A {a}: {statistics.fmean(r['a'] for r in rows):+.3f} a game")
    if len(solos) < 2:
        print("too few solos to compare")
        return 0
    diffs = [r["a"] - r["b"] for r in solos]
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(len(diffs))
    # A game without a solo is the same game for both: a difference of 0.
    every = [r["a"] - r["b"] if r["solo"] else 0 for r in rows]
    game_se = statistics.stdev(every) / math.sqrt(len(every))
    print(
        f"A − B: {mean:+.3f} ± {se:.3f} a solo, "
        f"{statistics.fmean(every):+.3f} ± {game_se:.3f} a game"
    )
    print(
        f"in the solos: A {statistics.fmean(r['a'] for r in solos):+.2f}, "
        f"B {statistics.fmean(r['b'] for r in solos):+.2f} a solo"
    )
    for name in ("a", "b"):
        levels = Counter(r[f"{name}_level"] for r in solos)
        print(
            f"{name.upper()} announced (−1 none, 0 Re, 1 no 90 …): {dict(sorted(levels.items()))}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
