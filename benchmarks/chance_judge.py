"""Two thresholds for taking a seat for a chance player, priced on sessions against random.

The strong AI takes a seat for a chance player once the table judges its cards at
least ``chance_noise`` random (``dokobot/ai/skill.py``), and only when all three others
are does it play as against a chance table (ten times the worlds, its own margins).
A table's judgement of a random player is noisy and, early in a session, held down by
the prior. This plays sessions as ``dokobot simulate --session`` does: 25 deals, each
in four rotations, the table judging every player from the games of the deals before.
The judgement comes from a session of four random players on the same deals (the
strong seat's play barely moves how a random player's cards are judged). Only where
the two versions would take some seat otherwise is the game played, by each version
with the same seeds; every other game is the same for both and counts 0.

    python benchmarks/chance_judge.py --deals 250 --seed 1501 --budget-ms 450 \
        --a '{"chance_noise": 0.9}' --b '{"chance_noise": 0.7}' --jobs 2

    250 deals × 4 rotations in sessions of 25; chance tables: A 308, B 816; 580 games …
    580 of 580 played: B − A +0.588 ± 0.159 a game of all 1000 (+1.014 ± 0.273 a game
    played, 457 scored otherwise)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dokobot.ai import make_strategy
from dokobot.ai.arena import deal_results, play_deal
from dokobot.ai.skill import Skill, table_noise
from dokobot.ai.strong import StrongStrategy, mean_se
from dokobot.engine import DDV, GameSetup, GameState, deal, outcome, player_view

#: (deal, the strong seat, the table's judgement of each seat before the deal)
Judged = tuple[int, int, tuple[float | None, ...]]


def judgements(indices: range, seed: int) -> list[Judged]:
    """Per deal and rotation, what a session of four random players judged each seat to
    before that deal; the strong seat is player 0's (``session_results``' rotation)."""
    skills = [Skill() for _ in range(4)]
    out: list[Judged] = []
    for index in indices:
        for shift in range(4):
            seated = [skills[(s - shift) % 4] for s in range(4)]
            out.append((index, shift, table_noise(seated, StrongStrategy.model_noise)))
        deal_results(index, seed, ["random"] * 4, DDV, True, skills=skills)
    return out


#: A view of each seat: ``StrongStrategy._chance_seats`` only asks it which seat it is.
VIEWS = [
    player_view(GameState.new(GameSetup(rules=DDV, dealer=3, hands=deal(random.Random(0)))), s)
    for s in range(4)
]


def taken_for_chance(known: tuple[float | None, ...], seat: int, threshold: float) -> set[int]:
    """The other seats the strong AI takes for chance players at ``threshold``."""
    strong = StrongStrategy(chance_noise=threshold, table_noise=known)
    return {s for s, chance in enumerate(strong._chance_seats(VIEWS[seat])) if chance}


def play(
    job: Judged, seed: int, options: list[dict[str, Any]], budget_ms: float | None
) -> tuple[int, int, list[int]]:
    """The game of one deal and rotation played by each version in the strong seat."""
    index, seat, known = job
    hands = deal(random.Random(f"{seed}:{index}:deal"))
    setup = GameSetup(rules=DDV, dealer=index % 4, hands=hands)
    scores = []
    for option in options:
        strong = StrongStrategy(**option, budget_ms=budget_ms, table_noise=known)
        players = [strong if s == seat else make_strategy("random") for s in range(4)]
        state, _ = play_deal(setup, players, random.Random(f"{seed}:{index}:{seat}"))
        scores.append(outcome(state)["scores"][seat])
    return index, seat, scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1501)
    parser.add_argument("--session", type=int, default=25)
    parser.add_argument("--a", default='{"chance_noise": 0.9}', help="StrongStrategy options")
    parser.add_argument("--b", default='{"chance_noise": 0.7}', help="StrongStrategy options")
    parser.add_argument("--budget-ms", type=float, help="time per decision (default: samples)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--log", type=Path, help="append every game played (JSON lines)")
    args = parser.parse_args()
    a, b = json.loads(args.a), json.loads(args.b)
    thresholds = [o.get("chance_noise", StrongStrategy.chance_noise) for o in (a, b)]
    judged: list[Judged] = []
    for start in range(0, args.deals, args.session):
        judged += judgements(range(start, min(args.deals, start + args.session)), args.seed)
    tables = [0, 0]
    jobs = []
    for job in judged:
        taken = [taken_for_chance(job[2], job[1], t) for t in thresholds]
        for v, seats in enumerate(taken):
            tables[v] += len(seats) == 3
        if taken[0] != taken[1] or a.keys() - {"chance_noise"} or b.keys() - {"chance_noise"}:
            jobs.append(job)
    print(
        f"{args.deals} deals × 4 rotations in sessions of {args.session}; "
        f"chance tables: A {tables[0]}, B {tables[1]}; {len(jobs)} games to play both ways",
        flush=True,
    )
    diffs: list[float] = []
    log = args.log.open("a") if args.log else None
    with ProcessPoolExecutor(args.jobs) as pool, log or contextlib.nullcontext():
        futures = [pool.submit(play, job, args.seed, [a, b], args.budget_ms) for job in jobs]
        for done, future in enumerate(futures, start=1):
            index, seat, scores = future.result()
            diffs.append(scores[1] - scores[0])
            if log:
                row = {"deal": index, "seat": seat, "a": a, "b": b, "scores": scores}
                log.write(json.dumps(row) + "\n")
                log.flush()
            if done % 50 == 0 or done == len(futures):
                everything = diffs + [0.0] * (len(judged) - len(diffs))
                mean, se = mean_se(everything)
                played, played_se = mean_se(diffs)
                print(
                    f"{done} of {len(futures)} played: B − A {mean:+.3f} ± {se:.3f} a game "
                    f"of all {len(judged)} ({played:+.3f} ± {played_se:.3f} a game played, "
                    f"{sum(d != 0 for d in diffs)} scored otherwise)",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
