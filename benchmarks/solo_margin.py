"""Where should the strong AI's bid draw the line between a solo and a normal game?

The strong AI plays a voluntary solo when its bid simulation puts the solo at most
its margin (``StrongStrategy._solo_margin``: ``solo_margin``, against three chance
players ``chance_solo_margin``) score points a deal below a normal game, or when the
hand count likes one (``_takes_solo``). For every deal and seat against three
opponents (``--opponents``), this runs the strong AI's own bid; wherever the
simulated gain lies in (``--low``, today's margin] — the hands where another margin
would bid otherwise — it plays the deal twice from there, as the solo and as the
normal game, with the same seeds, and keeps both scores. Every other hand is bid
the same under every margin tried, so it adds nothing to the difference and is not
played. So one run prices every margin at once, paired on the same hands:

    margin −4: 80 hands change, +0.058 ± 0.077 a game

is what bidding with −4 instead of today's margin gains per game of the whole run.
The hands the count makes a solo although the simulation finds them worse are
shown apart, by simulated gain. ``--noise`` sets what the table has judged of the
other seats (``table_noise``: 1 is a table that learned it plays chance players).

    python benchmarks/solo_margin.py --deals 300 --opponents random --noise 1
    python benchmarks/solo_margin.py --deals 300 --opponents heuristic
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dokobot.ai import make_strategy
from dokobot.ai.arena import play_deal
from dokobot.ai.strong import StrongStrategy
from dokobot.engine import DDV, GameSetup, GameState, PlayerView, deal, outcome, player_view

Outcome = dict[str, Any]

#: (simulated gain, hand count, the solo's score, the normal game's score)
Row = tuple[float, float, int, int]

#: (simulated gain, hand count, today's margin) as the bid noted them
Noted = tuple[float, float, float]


class Probed(Exception):
    """The bid was simulated; the game need not be played on."""


class Bidding(StrongStrategy):
    """The strong AI whose bid, once simulated, is noted and then made by ``mode``:
    ``probe`` stops the game, ``solo`` and ``normal`` bid that way."""

    mode = "probe"
    noted: Noted | None = None

    def _takes_solo(self, view: PlayerView, gain: float, count: float) -> bool:
        self.noted = (gain, count, self._solo_margin(view))
        if self.mode == "probe":
            raise Probed
        return self.mode == "solo"


def play(
    index: int,
    seed: int,
    seat: int,
    mode: str,
    opponents: str,
    noise: float | None,
    samples: int = StrongStrategy.samples,
    **options: Any,
) -> tuple[Outcome | None, Noted | None]:
    """Deal ``index`` with the bidding AI in ``seat`` (``samples`` worlds a decision,
    ``options`` beyond its defaults): the game's outcome (``None``: stopped at the bid)
    and what the bid simulated, with the margin it bid by (``None``: it had no
    voluntary solo to weigh)."""
    hands = deal(random.Random(f"{seed}:{index}:deal"))
    setup = GameSetup(rules=DDV, dealer=index % 4, hands=hands)
    bidder = Bidding(samples=samples, **options)
    bidder.mode = mode
    if noise is not None:
        bidder.table_noise = tuple(None if s == seat else noise for s in range(4))
    players = [bidder if s == seat else make_strategy(opponents) for s in range(4)]
    try:
        state, _ = play_deal(setup, players, random.Random(f"{seed}:{index}:{seat}"))
    except Probed:
        return None, bidder.noted
    return outcome(state), bidder.noted


def one(
    index: int,
    seed: int,
    opponents: str,
    noise: float | None,
    low: float,
    samples: int = StrongStrategy.samples,
    **options: Any,
) -> list[Row]:
    """The hands of deal ``index`` another margin would bid otherwise, played both ways."""
    rows = []
    for seat in range(4):
        _, noted = play(index, seed, seat, "probe", opponents, noise, samples, **options)
        if noted is None or not low < noted[0] <= noted[2]:
            continue
        solo, _ = play(index, seed, seat, "solo", opponents, noise, samples, **options)
        normal, _ = play(index, seed, seat, "normal", opponents, noise, samples, **options)
        assert solo is not None and normal is not None
        rows.append((noted[0], noted[1], solo["scores"][seat], normal["scores"][seat]))
    return rows


def today(noise: float | None) -> float:
    """The margin a seat bids by at a table that judged the others ``noise``."""
    state = GameState.new(GameSetup(rules=DDV, dealer=3, hands=deal(random.Random(0))))
    judged = None if noise is None else (None, noise, noise, noise)
    return StrongStrategy(table_noise=judged)._solo_margin(player_view(state, 0))


def price(rows: list[Row], lower: float, games: int) -> tuple[int, float, float]:
    """Bidding with margin ``lower`` instead of today's: the hands that change (those
    the count leaves to the simulation), the gain a game over ``games`` and its
    standard error."""
    changed = [r[2] - r[3] for r in rows if r[1] <= 0 and r[0] > lower]
    if not changed:
        return 0, 0.0, 0.0
    # Every other game of the run differs by 0: the mean and its error are over all.
    mean = sum(changed) / games
    variance = (sum(x * x for x in changed) - games * mean * mean) / (games - 1)
    return len(changed), mean, math.sqrt(variance / games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--noise", type=float, help="the table's judgement of the others")
    parser.add_argument("--low", type=float, default=-10.0, help="lowest margin priced")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    n = args.deals
    rows: list[Row] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        work = pool.map(
            one, range(n), [args.seed] * n, [args.opponents] * n, [args.noise] * n, [args.low] * n
        )
        for done, deal_rows in enumerate(work, start=1):
            rows.extend(deal_rows)
            if done % 25 == 0 or done == n:
                print(f"{done} of {n} deals", file=sys.stderr, flush=True)
    games = 4 * n
    print(
        f"{n} deals × 4 seats against 3 × {args.opponents} (table judged: {args.noise}), "
        f"today's margin {today(args.noise):+.1f}:"
    )
    margin = today(args.noise)
    for lower in range(math.ceil(margin) - 1, math.ceil(args.low) - 1, -1):
        hands, gain, se = price(rows, lower, games)
        if hands:
            won = sum(1 for r in rows if r[1] <= 0 and r[0] > lower and r[2] > 0)
            print(
                f"  margin {lower:+d}: {hands} hands change, {gain:+.3f} ± {se:.3f} a game "
                f"({won} of the {hands} solos won)"
            )
    liked = [r for r in rows if r[1] > 0]
    print(f"  {len(liked)} hands the count makes a solo though simulated below the margin:")
    for high in range(math.ceil(margin), math.ceil(args.low), -2):
        group = [r[2] - r[3] for r in liked if high - 2 < r[0] <= high]
        if group:
            err = statistics.stdev(group) / math.sqrt(len(group)) if len(group) > 1 else 0.0
            print(
                f"    simulated ({high - 2:+d}, {high:+d}]: the solo "
                f"{statistics.fmean(group):+.2f} ± {err:.2f} against the normal game "
                f"({len(group)} hands)"
            )


if __name__ == "__main__":
    main()
