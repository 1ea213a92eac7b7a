"""Two source trees' strong AI on the same deals: did a change of the code help?

``ai_ab.py`` pairs two settings of one code; a change of the code itself (a bug
fixed in the worlds, a new rule in the engine) needs the old code next to the new.
Check the old commit out as a worktree and give both trees:

    git worktree add /tmp/old 8a3dc3f
    python benchmarks/trees_ab.py --a . --b /tmp/old --deals 200 --samples 16 \
        --rules '{"compulsory_announcement": "first_trick_30_renew"}'

Each tree plays every deal in all four rotations, its strong AI in the rotating seat
against three opponents (``--opponents``), in a process of its own that imports that
tree's ``dokobot``; the deals, seats and seeds are the same for both. As in the bot,
a decision that raises an error is made by the normal AI instead, and counted. The
paired differences A − B go into a two-sided test. Decisions are counted in worlds
(``--samples``), not timed, so a run repeats exactly; ``--budget-ms`` times them as
the bot does (a change that only matters when time is short), each tree on a core.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any


def play(
    tree: str,
    deals: range,
    seed: int,
    samples: int,
    opponents: str,
    rules: str,
    budget_ms: float | None = None,
) -> None:
    """In a child process: the tree's strong AI on ``deals`` under ``rules`` (JSON), one
    JSON line per game (deal, seat, score, decisions made by the normal AI after an
    error)."""
    sys.path.insert(0, str(Path(tree).resolve()))
    import dokobot
    from dokobot.ai import make_strategy
    from dokobot.ai.arena import play_deal
    from dokobot.ai.strong import StrongStrategy
    from dokobot.engine import GameSetup, RuleSet, deal, score

    # The tree's own package, not the one installed: else both sides play one code.
    assert Path(dokobot.__file__).resolve().is_relative_to(Path(tree).resolve()), dokobot.__file__
    ruleset = RuleSet.from_dict(json.loads(rules))

    class Guarded:
        """The strong AI; the normal AI where it fails (as the bot's workers fall back)."""

        name = "strong"

        def __init__(self) -> None:
            self.strong = StrongStrategy(samples=samples, budget_ms=budget_ms)
            self.normal = make_strategy("normal")
            self.failed = 0

        def choose(self, view: Any, rng: random.Random) -> Any:
            try:
                return self.strong.choose(view, rng)
            except Exception:
                self.failed += 1
                return self.normal.choose(view, rng)

    for index in deals:
        hands = deal(random.Random(f"{seed}:{index}:deal"), nines=ruleset.nines)
        for seat in range(4):
            setup = GameSetup(rules=ruleset, dealer=index % 4, hands=hands)
            guarded = Guarded()
            players = [guarded if s == seat else make_strategy(opponents) for s in range(4)]
            state, _ = play_deal(setup, players, random.Random(f"{seed}:{index}:{seat}"))
            # A deal thrown in or nobody taking a poverty: dealt again, 0 for everyone.
            points = score(state).scores[seat] if state.tricks else 0
            print(json.dumps([index, seat, points, guarded.failed]), flush=True)


def run_tree(tree: str, args: argparse.Namespace) -> list[list[int]]:
    """The games of one tree, played in a child process."""
    command = [
        sys.executable,
        __file__,
        "--play",
        tree,
        "--deals",
        str(args.deals),
        "--seed",
        str(args.seed),
        "--samples",
        str(args.samples),
        "--opponents",
        args.opponents,
        "--rules",
        args.rules,
        *(["--budget-ms", str(args.budget_ms)] if args.budget_ms is not None else []),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {done.stderr.strip().splitlines()[-1:]}")
    return [json.loads(line) for line in done.stdout.splitlines()]


def report(a: list[list[int]], b: list[list[int]]) -> dict[str, Any]:
    """The paired comparison of two trees' games."""
    assert [g[:2] for g in a] == [g[:2] for g in b], "the trees played other games"
    diffs = [x[2] - y[2] for x, y in zip(a, b, strict=True)]
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    t = mean / se if se else 0.0
    return {
        "games": len(diffs),
        "mean_a": round(statistics.fmean(g[2] for g in a), 3),
        "mean_b": round(statistics.fmean(g[2] for g in b), 3),
        "diff": round(mean, 3),
        "se": round(se, 3),
        "t": round(t, 2),
        "p": round(math.erfc(abs(t) / math.sqrt(2)), 3) if se else 1.0,
        "games_that_differ": sum(1 for d in diffs if d),
        "failed_decisions_a": sum(g[3] for g in a),
        "failed_decisions_b": sum(g[3] for g in b),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default=".", help="version A's source tree")
    parser.add_argument("--b", help="version B's source tree (a git worktree)")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--budget-ms", type=float, help="time per decision (default: samples)")
    parser.add_argument("--opponents", default="heuristic")
    parser.add_argument("--rules", default="", help="a preset's name or JSON; default DDV")
    parser.add_argument("--json", action="store_true", help="print only the JSON report")
    parser.add_argument("--play", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        play(
            args.play,
            range(args.deals),
            args.seed,
            args.samples,
            args.opponents,
            args.rules,
            args.budget_ms,
        )
        return 0
    if not args.b:
        parser.error("--b is required")
    # A preset's name goes to the children as the rules' own "preset" key.
    text = args.rules.strip()
    args.rules = text if text.startswith("{") else json.dumps({"preset": text} if text else {})
    # One child per tree, side by side (a core each on this machine).
    with ThreadPoolExecutor(max_workers=2) as pool:
        a, b = pool.map(lambda tree: run_tree(tree, args), (args.a, args.b))
    result = report(a, b)
    if not args.json:
        print(
            f"{result['games']} games ({args.deals} deals × 4 seats) against 3 × "
            f"{args.opponents}: A − B {result['diff']:+.3f} ± {result['se']:.3f} a game, "
            f"p = {result['p']}, {result['games_that_differ']} games differ; "
            f"A {result['mean_a']:+.3f}, B {result['mean_b']:+.3f}; decisions the normal AI "
            f"made after an error: A {result['failed_decisions_a']}, "
            f"B {result['failed_decisions_b']}"
        )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
