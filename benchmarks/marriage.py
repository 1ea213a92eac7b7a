"""Both queens of clubs: a silent marriage, a marriage or a solo — which bid pays?

With both queens of clubs a seat may say healthy (and play a silent marriage, a
solo in disguise, docs/rules.md §4), announce a marriage, or play a solo. For
every deal and seat holding both queens against three opponents
(``--opponents``), this runs the strong AI's bid simulation with the marriage as
a candidate and notes what each contract simulated; then it plays the deal once
with each of healthy, marriage and the best simulated solo, with the same seeds
(the strong AI plays the cards), and keeps the three scores. So one run prices
every rule on the same hands:

- ``old rule``: the strong AI before ``marriage_bids``: a solo if it simulates
  better than the silent marriage by the solo margin or the hand count likes
  it, else the heuristic's healthy or marriage (silent only with nine trumps,
  three of them high);
- ``simulated m, count``: silent if it simulates more than ``m`` above the
  marriage, a solo if it beats that game by the solo margin or the count likes it;
- ``simulated, no count``: the strong AI's rule, the solo margin for the silent
  marriage too, and the count makes no solo.

    python benchmarks/marriage.py --deals 800 --seed 33 --opponents heuristic

    800 deals × 4 seats against 3 × heuristic: 180 hands with both ♣Q
      healthy    -2.77 a hand (180)
      marriage   +5.42 a hand (180)
      best solo  +0.83 a hand (156)
      old rule: +1.01 a hand
      simulated -2.0, count: 90 bids change, +5.33 ± 0.67 a hand, +0.300 ± 0.037 a game
      simulated, no count: 116 bids change, +5.76 ± 0.75 a hand, +0.324 ± 0.042 a game

Each rule's difference to the old rule is paired on the same hands, per hand and
per game of the whole run (± standard error). ``--log`` keeps every hand (JSON
lines).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import statistics
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bid_ab import judged, table
from solo_ab import JUDGED

from dokobot.ai import HeuristicStrategy
from dokobot.ai.arena import play_deal
from dokobot.ai.heuristic import solo_value
from dokobot.ai.strong import StrongStrategy, takes_solo
from dokobot.engine import (
    Action,
    Bid,
    Card,
    Contract,
    PlayerView,
    Reservation,
    deal,
    outcome,
)

HEALTHY, MARRIAGE = Reservation.HEALTHY, Reservation.MARRIAGE


class Probed(Exception):
    """The bid was simulated; the game need not be played on."""


class Bidder(StrongStrategy):
    """The strong AI with the marriage among its bid's candidates, which notes what the
    bid simulated and then stops (``fixed`` ``None``) or bids ``fixed``."""

    fixed: Reservation | None = None
    noted: dict[str, Any] | None = None
    view: PlayerView | None = None

    def _bid_values(
        self,
        view: PlayerView,
        candidates: Sequence[Reservation | None],
        rng: random.Random,
        margin: float | None = None,
    ) -> dict[Reservation | None, float]:
        values = super()._bid_values(view, candidates, rng, margin)
        self.noted = {
            "values": {("healthy" if c is None else c.value): v for c, v in values.items()},
            "margin": self._solo_margin(view),
        }
        return values

    def _bid(self, view: PlayerView, rng: random.Random) -> Action:
        self.view = view
        super()._bid(view, rng)  # the same random draws as the strong AI's own bid
        if self.fixed is None:
            raise Probed
        legal = {a.reservation: a for a in view.legal if isinstance(a, Bid)}
        return legal[self.fixed]


def _bidder(seat: int, opponents: str, fixed: Reservation | None, **options: Any) -> Bidder:
    me = Bidder(table_noise=judged(seat, opponents), marriage_bids=True, **options)
    me.fixed = fixed
    return me


def one(index: int, seed: int, opponents: str, **options: Any) -> list[dict[str, Any]]:
    """Each seat of deal ``index`` that holds both queens of clubs: what its bid
    simulated, the heuristic's choice, and the score of each contract played
    (``options``: the strong AI's, beyond its defaults)."""
    rows = []
    hands = deal(random.Random(f"{seed}:{index}:deal"))
    for seat in range(4):
        if hands[seat].count(Card.CQ) < 2:
            continue
        me = _bidder(seat, opponents, None, **options)
        setup, players, rng = table(index, seed, seat, me, opponents)
        with contextlib.suppress(Probed):
            play_deal(setup, players, rng)
        view = me.view
        assert me.noted is not None and view is not None
        legal = {a.reservation for a in view.legal if isinstance(a, Bid)}
        unsolo = [r for r in legal if not r.is_solo]
        heuristic = HeuristicStrategy().reservation(view.hand, unsolo, view.rules)
        # The hand count of the solo it counts best, as the bid takes it.
        count = max(
            solo_value(view.hand, Contract(r.value), view.rules) for r in legal if r.is_solo
        )
        values = me.noted["values"]
        solos = [k for k in values if k not in ("healthy", MARRIAGE.value)]
        best = max(solos, key=values.__getitem__, default=None)
        scores = {}
        for bid in [HEALTHY.value, MARRIAGE.value, *([best] if best else [])]:
            fixed = _bidder(seat, opponents, Reservation(bid), **options)
            state, _ = play_deal(*table(index, seed, seat, fixed, opponents))
            scores[bid] = int(outcome(state)["scores"][seat])
        rows.append(
            {
                "index": index,
                "seat": seat,
                **me.noted,
                "count": count,
                "best": best,
                "heuristic": heuristic.value,
                "scores": scores,
            }
        )
    return rows


def bid(row: dict[str, Any], silent: float | None, count: bool = True) -> str:
    """The bid a rule makes on ``row``: ``silent`` ``None`` is the old rule (the
    heuristic's healthy or marriage), else silent above that margin over the marriage;
    ``count`` off: the hand count does not make a solo (only the simulation)."""
    values = row["values"]
    if silent is None:
        plain = row["heuristic"]
        base = values["healthy"]  # the old solo gain is over the simulated healthy game
    else:
        plain = "healthy" if values["healthy"] - values[MARRIAGE.value] > silent else "marriage"
        base = values[plain]
    best = row["best"]
    liked = row["count"] if count else min(row["count"], 0.0)
    if best is not None and takes_solo(values[best] - base, liked, row["margin"]):
        return str(best)
    return str(plain)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--opponents", default="random", choices=sorted(JUDGED))
    parser.add_argument("--silent", type=float, nargs="*", default=[-3, -2, -1, 0, 1])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--log", help="write each hand here (JSON lines)")
    args = parser.parse_args()
    n = args.deals
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = [
            r for rs in pool.map(one, range(n), [args.seed] * n, [args.opponents] * n) for r in rs
        ]
    if args.log:
        with open(args.log, "w") as log:
            for r in rows:
                log.write(json.dumps(r) + "\n")
    games = 4 * n
    print(f"{n} deals × 4 seats against 3 × {args.opponents}: {len(rows)} hands with both ♣Q")
    for name in ("healthy", "marriage"):
        mean = statistics.fmean(r["scores"][name] for r in rows)
        print(f"  {name:<10} {mean:+.2f} a hand ({len(rows)})")
    solos = [r["scores"][r["best"]] for r in rows if r["best"]]
    print(f"  best solo  {statistics.fmean(solos):+.2f} a hand ({len(solos)})")
    old = [r["scores"][bid(r, None)] for r in rows]
    print(f"  old rule: {statistics.fmean(old):+.2f} a hand")
    for margin, count in [*((m, True) for m in args.silent), (None, False)]:

        def rule(r: dict[str, Any], m: float | None = margin, c: bool = count) -> str:
            return bid(r, r["margin"] if m is None else m, c)

        diffs = [r["scores"][rule(r)] - o for r, o in zip(rows, old, strict=True)]
        mean = statistics.fmean(diffs)
        se = statistics.stdev(diffs) / math.sqrt(len(diffs))
        changed = sum(rule(r) != bid(r, None) for r in rows)
        name = f"simulated {margin:+.1f}, count" if margin is not None else "simulated, no count"
        print(
            f"  {name}: {changed} bids change, {mean:+.2f} ± {se:.2f} a hand,"
            f" {mean * len(rows) / games:+.3f} ± {se * len(rows) / games:.3f} a game"
        )


if __name__ == "__main__":
    main()
