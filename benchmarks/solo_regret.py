"""How much worse the strong AI's soloist chooses its cards than a search of many worlds.

The strong seat plays its solos against three opponents (``--opponents``, judged as a
table judges them, ``solo_ab.JUDGED``); at each of its card decisions with more than
one legal card, the version under test (``--options``) chooses ``--repeats`` times,
with other seeds. A judge of ``--judge`` worlds (no clock) picks its best card, and a
second judge on other worlds prices the difference between that card and each
choice: the judge's pick and its price come from different worlds, so a judge's luck
does not count as the version's loss. Prints the mean regret a decision ± standard
error, a game, and by the number of cards in hand. With ``--games normal`` the same for
the strong seat's decisions in the games it does not play a solo.

    python benchmarks/solo_regret.py --deals 16 --options '{"chance_factor": 1}'
    python benchmarks/solo_regret.py --deals 16 --options '{"budget_ms": 450}'

    25 solo games, 267 decisions (3 choices each, judged on 400 worlds)
      regret +0.135 ± 0.014 a decision, 1.45 a game

    python benchmarks/solo_regret.py --deals 8 --games normal --options '{"chance_factor": 1}'

    19 normal games, 188 decisions (3 choices each, judged on 400 worlds)
      regret +0.030 ± 0.005 a decision, 0.29 a game
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solo_ab import JUDGED

from dokobot.ai import make_strategy
from dokobot.ai.arena import play_deal, played_solo
from dokobot.ai.strong import StrongStrategy, _weighted, is_soloist
from dokobot.engine import DDV, GameSetup, Phase, Play, PlayerView, deal, outcome


@dataclasses.dataclass
class Recorder(StrongStrategy):
    """The strong AI, noting the views of its card decisions with a choice."""

    views: list[PlayerView] = dataclasses.field(default_factory=list)

    def choose(self, view: PlayerView, rng: random.Random) -> Any:
        plays = [a for a in view.legal if isinstance(a, Play)]
        if view.phase is Phase.PLAY and len(plays) > 1:
            self.views.append(view)
        return super().choose(view, rng)


def record(index: int, seed: int, opponents: str, games: str = "solo") -> list[list[PlayerView]]:
    """Deal ``index`` in each of the four seats: the strong seat's decisions of each of
    its solos (``games`` "normal": of each game it does not play a solo)."""
    hands = deal(random.Random(f"{seed}:{index}:deal"))
    setup = GameSetup(rules=DDV, dealer=index % 4, hands=hands)
    out = []
    for seat in range(4):
        recorder = Recorder(table_noise=(JUDGED[opponents],) * 4)
        players = [recorder if s == seat else make_strategy(opponents) for s in range(4)]
        state, _ = play_deal(setup, players, random.Random(f"{seed}:{index}:{seat}"))
        if played_solo(outcome(state), seat) == (games == "solo"):
            out.append([v for v in recorder.views if is_soloist(v) == (games == "solo")])
    return out


def choose(strategy: StrongStrategy, view: PlayerView, rng: random.Random) -> Play:
    """The card ``strategy`` plays (where it would announce first, the card after)."""
    action = strategy.choose(view, rng)
    if isinstance(action, Play):
        return action
    plays = [a for a in view.legal if isinstance(a, Play)]
    _, results, weights = strategy._evaluate(view, plays, rng)
    return strategy._best(view, plays, results, weights)[0]


def regret(
    view: PlayerView, choices: list[Play], worlds: int, judged: float, key: str
) -> list[float]:
    """What each choice scores less than the judge's pick, priced on other worlds than
    the pick was made on (``judged``: the others' ε as the table judges them)."""
    # ``worlds`` for every decision: not ten times them at a chance table.
    judge = StrongStrategy(samples=worlds, chance_factor=1, table_noise=(judged,) * 4)
    plays = [a for a in view.legal if isinstance(a, Play)]
    _, results, weights = judge._evaluate(view, plays, random.Random(f"pick:{key}"))
    pick, _ = judge._best(view, plays, results, weights)
    _, results, weights = judge._evaluate(view, plays, random.Random(f"price:{key}"))
    means = {p: _weighted(weights, [r.scores[view.seat] for r in rs]) for p, rs in results.items()}
    return [means[pick] - means[c] for c in choices]


def judge_one(args: tuple[int, PlayerView, dict[str, Any], int, int, float]) -> list[float]:
    """Decision ``k``: the version's regret on each of its ``repeats`` choices."""
    k, view, options, repeats, worlds, judged = args
    strategy = StrongStrategy(table_noise=(judged,) * 4, **options)
    choices = [choose(strategy, view, random.Random(f"choice:{k}:{r}")) for r in range(repeats)]
    return regret(view, choices, worlds, judged, str(k))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=16)
    parser.add_argument("--seed", type=int, default=901)
    parser.add_argument("--opponents", default="random", choices=sorted(JUDGED))
    parser.add_argument("--options", default="{}", help="the version's options (JSON)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--judge", type=int, default=400, help="the judge's worlds")
    parser.add_argument("--games", default="solo", choices=("solo", "normal"))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    options = json.loads(args.options)
    judged = JUDGED[args.opponents]
    with ProcessPoolExecutor(args.jobs) as pool:
        played = pool.map(
            record,
            range(args.deals),
            [args.seed] * args.deals,
            [args.opponents] * args.deals,
            [args.games] * args.deals,
        )
        games = [views for deal_solos in played for views in deal_solos]
        views = [v for vs in games for v in vs]
        work = [(k, v, options, args.repeats, args.judge, judged) for k, v in enumerate(views)]
        regrets = list(pool.map(judge_one, work))
    flat = [r for rs in regrets for r in rs]
    mean = statistics.fmean(flat)
    se = statistics.stdev(flat) / len(flat) ** 0.5
    print(
        f"{len(games)} {args.games} games, {len(views)} decisions ({args.repeats} choices "
        f"each, judged on {args.judge} worlds)"
    )
    print(
        f"  regret {mean:+.3f} ± {se:.3f} a decision, {mean * len(views) / len(games):.2f} a game"
    )
    by: dict[int, list[float]] = defaultdict(list)
    for view, rs in zip(views, regrets, strict=True):
        by[len(view.hand)].extend(rs)
    for cards in sorted(by, reverse=True):
        print(f"  {cards:2} cards in hand: {statistics.fmean(by[cards]):+.3f} ({len(by[cards])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
