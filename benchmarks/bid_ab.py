"""Two versions of the strong AI's bid: which plays the better solos and normal games?

For options that change only how the strong AI weighs a solo against a normal game
(``bid_factor``, ``soloist_reads``, the margins …). Both versions bid every deal
and seat against three opponents (``--opponents``); the bid is noted (the solo that
simulated best, its gain over a normal game, the hand count, the margin) and the
game stopped there. Only where B bids otherwise than A is the deal played, once with
each bid and the same seeds, and both versions play the cards as A does, so every
other game would be the same game for both: it counts as a difference of 0.

B's bid is also priced under other margins (``--margins``): B with margin m plays
its solo where its gain beats m or the count likes it, so one run prices them all.

    python benchmarks/bid_ab.py --deals 400 --seed 21 --opponents random \
        --a '{"bid_factor": 1}' --b '{"bid_factor": 4}' --margins -4 -3.5 -2.5 -2

    400 deals × 4 seats against 3 × random, 313 games played:
      B: 72 hands differ, B − A +0.130 ± 0.058 a game
      B margin -3.5: 80 hands differ, B − A +0.125 ± 0.062 a game

The opponents are given the ε a table judges them to (``solo_ab.JUDGED``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solo_ab import JUDGED

from dokobot.ai import make_strategy
from dokobot.ai.arena import play_deal
from dokobot.ai.strong import StrongStrategy, takes_solo
from dokobot.engine import (
    DDV,
    GameSetup,
    PlayerView,
    Reservation,
    deal,
    outcome,
)

#: (the solo that simulated best, its gain over a normal game, hand count, margin)
Noted = tuple[str, float, float, float]


class Probed(Exception):
    """The bid was simulated; the game need not be played on."""


class Probe(StrongStrategy):
    """The strong AI that notes its bid and stops the game there."""

    noted: Noted | None = None
    best: Reservation | None = None

    def _solo_gain(
        self,
        view: PlayerView,
        fit: Sequence[Reservation],
        forced: bool,
        rng: random.Random,
        marriage: bool = False,
        poor: bool = False,
        margin: float | None = None,
    ) -> tuple[Reservation | None, float, Reservation | None]:
        self.best, gain, plain = super()._solo_gain(view, fit, forced, rng, marriage, poor, margin)
        return self.best, gain, plain

    def _takes_solo(self, view: PlayerView, gain: float, count: float) -> bool:
        assert self.best is not None
        self.noted = (self.best.value, gain, count, self._solo_margin(view))
        raise Probed


class Fixed(StrongStrategy):
    """The strong AI bidding ``solo`` (``None``: what it bids without a solo) after
    simulating its bid as ever, so that the game goes on with the same random draws
    as the strong AI's own game where it bids the same."""

    solo: Reservation | None = None

    def _solo_gain(
        self,
        view: PlayerView,
        fit: Sequence[Reservation],
        forced: bool,
        rng: random.Random,
        marriage: bool = False,
        poor: bool = False,
        margin: float | None = None,
    ) -> tuple[Reservation | None, float, Reservation | None]:
        best, gain, plain = super()._solo_gain(view, fit, forced, rng, marriage, poor, margin)
        return self.solo or best, gain, plain

    def _takes_solo(self, view: PlayerView, gain: float, count: float) -> bool:
        return self.solo is not None


def table(index: int, seed: int, seat: int, me: StrongStrategy, opponents: str) -> Any:
    """Deal ``index`` of ``seed``: the setup, ``me`` in ``seat`` among three
    ``opponents``, and the game's random draws (``play_deal``'s arguments)."""
    setup = GameSetup(
        rules=DDV, dealer=index % 4, hands=deal(random.Random(f"{seed}:{index}:deal"))
    )
    players = [me if s == seat else make_strategy(opponents) for s in range(4)]
    return setup, players, random.Random(f"{seed}:{index}:{seat}")


def judged(seat: int, opponents: str) -> tuple[float | None, ...]:
    """The ε the table has judged each other seat to (``table_noise``)."""
    return tuple(None if s == seat else JUDGED[opponents] for s in range(4))


def probe(
    index: int, seed: int, seat: int, opponents: str, options: dict[str, Any]
) -> Noted | None:
    """What the bid of a version with ``options`` simulated (``None``: no voluntary
    solo to weigh, the hand count rules one out)."""
    me = Probe(table_noise=judged(seat, opponents), **options)
    try:
        play_deal(*table(index, seed, seat, me, opponents))
    except Probed:
        return me.noted
    return None


def played(
    index: int, seed: int, seat: int, opponents: str, solo: str | None, a: dict[str, Any]
) -> int:
    """The seat's score with this bid, the cards played by version A (``a``)."""
    # A solo is played even where A's hand count would weigh none (``solo_floor``).
    floor = {} if solo is None else {"solo_floor": -math.inf}
    me = Fixed(table_noise=judged(seat, opponents), **{**a, **floor})
    me.solo = None if solo is None else Reservation(solo)
    state, _ = play_deal(*table(index, seed, seat, me, opponents))
    return int(outcome(state)["scores"][seat])


def decide(noted: Noted | None, margin: float | None = None) -> str | None:
    """The solo a bid plays (``None``: none), by its own margin or ``margin``; a bid
    that weighed no solo (``None``, the hand count ruled one out) plays none."""
    if noted is None:
        return None
    best, gain, count, own = noted
    return best if takes_solo(gain, count, own if margin is None else margin) else None


def one(
    index: int, seed: int, opponents: str, a: dict[str, Any], b: dict[str, Any]
) -> list[dict[str, Any]]:
    """Both versions' bids for each seat of deal ``index``."""
    rows = []
    for seat in range(4):
        noted_a = probe(index, seed, seat, opponents, a)
        noted_b = probe(index, seed, seat, opponents, b)
        if noted_a is not None or noted_b is not None:
            rows.append({"index": index, "seat": seat, "a": noted_a, "b": noted_b})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--opponents", default="random", choices=sorted(JUDGED))
    parser.add_argument("--a", default="{}", help="version A's options (JSON)")
    parser.add_argument("--b", default="{}", help="version B's options (JSON)")
    parser.add_argument("--margins", type=float, nargs="*", default=[], help="B's margins priced")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--log", help="write each seat's bids and scores here (JSON lines)")
    args = parser.parse_args()
    a, b = json.loads(args.a), json.loads(args.b)
    n = args.deals
    margins: list[float | None] = [None, *args.margins]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = [
            r
            for rs in pool.map(
                one, range(n), [args.seed] * n, [args.opponents] * n, [a] * n, [b] * n
            )
            for r in rs
        ]
        # Each hand some bid plays otherwise, once with each bid any version makes.
        games = []
        for r in rows:
            bids = {decide(r["a"]), *(decide(r["b"], m) for m in margins)}
            if len(bids) > 1:
                games += [(r["index"], r["seat"], solo) for solo in bids]
        indices, seats, solos = zip(*games, strict=True) if games else ((), (), ())
        results = pool.map(
            played, indices, repeat(args.seed), seats, repeat(args.opponents), solos, repeat(a)
        )
        scores = dict(zip(games, results, strict=True))
    total = 4 * n
    print(f"{n} deals × 4 seats against 3 × {args.opponents}, {len(games)} games played:")
    for margin in margins:
        diffs = [
            scores[(r["index"], r["seat"], decide(r["b"], margin))]
            - scores[(r["index"], r["seat"], decide(r["a"]))]
            for r in rows
            if decide(r["b"], margin) != decide(r["a"])
        ]
        mean = sum(diffs) / total
        # The other games differ by 0: the variance of the difference over all games.
        var = (sum(d * d for d in diffs) - total * mean * mean) / (total - 1)
        name = "B" if margin is None else f"B margin {margin:+.1f}"
        print(
            f"  {name}: {len(diffs)} hands differ, B − A {mean:+.3f} ± "
            f"{math.sqrt(var / total):.3f} a game"
        )
    if args.log:
        with open(args.log, "w", encoding="utf-8") as log:
            for r in rows:
                mine = {
                    str(s): v
                    for (i, t, s), v in scores.items()
                    if (i, t) == (r["index"], r["seat"])
                }
                log.write(json.dumps({**r, "scores": mine}) + "\n")


if __name__ == "__main__":
    main()
