"""What perfect knowledge of the hidden cards is worth, from trick k on.

The most any inference can gain: version A plays every decision from trick ``k``
on with all its worlds the true deal (it sees the others' hands), before that
with uniform worlds; version B always with uniform worlds (inference off). Both
play the same deals in the same seat against three opponents (``--opponents``),
with the same number of worlds a decision (``--samples``, no clock: the oracle
deals nothing and would otherwise get more playouts in the same time). Prints
A − B ± standard error per ``k``: if most of the gain lies in the first tricks,
where the others have shown little, card inference can recover little of it. With
``--parties`` A knows only who plays with whom: its worlds are uniform deals with
the true parties (normal games).

    python benchmarks/oracle.py --deals 150 --from 0,2,4,7
    python benchmarks/oracle.py --deals 150 --from 0,2 --parties
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dokobot.ai import make_strategy
from dokobot.ai.arena import play_deal
from dokobot.ai.strong import StrongStrategy
from dokobot.ai.worlds import deal_unseen, played_by, world
from dokobot.engine import (
    DDV,
    Card,
    Contract,
    GameSetup,
    GameState,
    PlayerView,
    deal,
    outcome,
    team_card,
)


class Oracle(StrongStrategy):
    """The strong AI with the true deal (``parties``: the true parties) in every world
    from trick ``start`` on."""

    def __init__(
        self,
        hands: tuple[tuple[Card, ...], ...],
        start: int,
        parties: bool = False,
        **options: object,
    ):
        super().__init__(inference=False, **options)  # type: ignore[arg-type]
        self.dealt = hands
        self.start = start
        #: Know only who plays with whom: uniform worlds with the true parties.
        self.parties = parties

    def _worlds(
        self, view: PlayerView, rng: random.Random
    ) -> tuple[list[GameState], list[float], list[float] | None]:
        if self.parties and view.contract is Contract.NORMAL and len(view.tricks) >= self.start:
            queen = team_card(view.rules)
            re = tuple(queen in self.dealt[s] for s in range(4))
            states: list[GameState] = []
            for _ in range(self.samples * 100):
                hands = deal_unseen(view, rng) if len(states) < self.samples else None
                if hands is None:
                    break
                sample = world(view, hands)
                if sample.parties.re == re:
                    states.append(sample)
            if states:
                return states, [1.0] * len(states), self._noise(view, ())
        if not self.parties and len(view.tricks) >= self.start:
            played = played_by(view)
            hands = [
                list((Counter(self.dealt[s]) - Counter(played[s])).elements()) for s in range(4)
            ]
            # A poverty exchange moved cards: then the dealt hands are not the true ones.
            if Counter(hands[view.seat]) == Counter(view.hand):
                truth = world(view, hands)
                noise = self._noise(view, ())
                return [truth] * self.samples, [1.0] * self.samples, noise
        return super()._worlds(view, rng)


def one_deal(
    index: int, seed: int, starts: list[int], samples: int, opponents: str, parties: bool = False
) -> dict[str, list[int]]:
    """Deal ``index``, four rotations: per version, its score in the rotating seat."""
    hands = deal(random.Random(f"{seed}:{index}:deal"))
    setup = GameSetup(rules=DDV, dealer=index % 4, hands=hands)
    out: dict[str, list[int]] = {"uniform": []}
    for seat in range(4):
        versions: dict[str, StrongStrategy] = {
            "uniform": StrongStrategy(inference=False, samples=samples)
        }
        for k in starts:
            versions[f"from trick {k}"] = Oracle(hands, k, parties, samples=samples)
        for name, strategy in versions.items():
            players = [strategy if s == seat else make_strategy(opponents) for s in range(4)]
            state, _ = play_deal(setup, players, random.Random(f"{seed}:{index}:{seat}"))
            out.setdefault(name, []).append(outcome(state)["scores"][seat])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=80)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--from", dest="starts", default="0,3,6", help="tricks, comma-separated")
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--opponents", default="heuristic")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--parties", action="store_true", help="know only the parties (uniform worlds with them)"
    )
    args = parser.parse_args()
    starts = [int(k) for k in args.starts.split(",")]
    scores: dict[str, list[int]] = {}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [
            pool.submit(one_deal, i, args.seed, starts, args.samples, args.opponents, args.parties)
            for i in range(args.deals)
        ]
        for future in futures:
            for name, values in future.result().items():
                scores.setdefault(name, []).extend(values)
    base = scores["uniform"]
    print(
        f"{len(base)} games against 3 × {args.opponents}, {args.samples} worlds a decision: "
        f"uniform worlds {statistics.fmean(base):+.3f} a game"
    )
    for name, values in scores.items():
        if name == "uniform":
            continue
        diffs = [a - b for a, b in zip(values, base, strict=True)]
        se = statistics.stdev(diffs) / math.sqrt(len(diffs))
        mean = statistics.fmean(diffs)
        known = "true parties" if args.parties else "true deal"
        print(f"  {known} {name:14s} {statistics.fmean(values):+.3f}, gain {mean:+.3f} ± {se:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
