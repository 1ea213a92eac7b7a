"""How well does the strong AI's bid simulation judge a solo?

Takes hands the heuristic's count would play as a solo (``solo_value > 0``),
and for each plays the deal twice with the strong AI in seat 0 against three
opponents (``--opponents``): once as the solo, once healthy, same seeds. Next to
it, the simulation the strong AI bids by (``StrongStrategy._simulate``: playouts
of random deals of the other cards) estimates both. If the simulation says the
solo is worse than a normal game while played it is better, the playouts
underrate solos. With ``--every-hand`` every deal counts (its solo: the type the
count likes best), and the hands are grouped by what the simulation says: how a
solo the simulation puts 0 to 2 points below a normal game does when played is
what ``StrongStrategy.solo_margin`` rests on.

    python benchmarks/solo_calibration.py --hands 40 --jobs 2
    python benchmarks/solo_calibration.py --every-hand --hands 240 --opponents random
    python benchmarks/solo_calibration.py --opponents random --noise 1.0

It also prints the soloist's card points, played and simulated: with which prior ε
of the other seats (``--noise``) the simulation matches what a table really does.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dokobot.ai import make_strategy
from dokobot.ai.arena import play_deal
from dokobot.ai.heuristic import solo_value
from dokobot.ai.strong import StrongStrategy
from dokobot.engine import (
    DDV,
    Action,
    Bid,
    Card,
    Contract,
    GameSetup,
    GameState,
    Phase,
    PlayerView,
    Reservation,
    apply,
    deal,
    player_view,
    score,
)

Hands = tuple[tuple[Card, ...], ...]


class Bidding(StrongStrategy):
    """The strong AI, made to bid ``reservation``."""

    def __init__(self, reservation: Reservation) -> None:
        super().__init__()
        self.reservation = reservation

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        if view.phase is Phase.BIDDING:
            return Bid(view.seat, self.reservation)
        return super().choose(view, rng)


def solo_hands(count: int, seed: int, every: bool = False) -> list[tuple[int, Hands, Reservation]]:
    """Deals whose seat 0 the heuristic's count plays as a solo (``every``: all deals),
    with the solo it likes best."""
    out: list[tuple[int, Hands, Reservation]] = []
    index = 0
    while len(out) < count:
        hands = deal(random.Random(f"calibration:{seed}:{index}"))
        solos = [r for r in Reservation if r.is_solo and r.value[5:] in DDV.solos]
        best = max(solos, key=lambda r: solo_value(hands[0], Contract(r.value), DDV))
        if every or solo_value(hands[0], Contract(best.value), DDV) > 0:
            out.append((index, hands, best))
        index += 1
    return out


def one(
    item: tuple[int, Hands, Reservation], opponents: str, deals: int, noise: float
) -> list[float]:
    """(solo played, healthy played, solo simulated, healthy simulated, the soloist's
    card points played, simulated) for one hand; the simulation's prior ε ``noise``."""
    index, hands, solo = item
    setup = GameSetup(rules=DDV, dealer=3, hands=hands)
    played, points = [], 0.0
    for bid in (solo, Reservation.HEALTHY):
        players = [Bidding(bid), *(make_strategy(opponents) for _ in range(3))]
        final, _ = play_deal(setup, players, random.Random(index))
        played.append(float(score(final).scores[0]))
        if bid is solo:
            points = float(score(final).re_points)
    state = GameState.new(setup)
    while state.to_act != 0:
        state = apply(state, Bid(state.to_act, Reservation.HEALTHY))
    view = player_view(state, 0)
    strong, rng = StrongStrategy(model_noise=noise), random.Random(index)
    simulated_points = statistics.fmean(
        score(
            strong._play_deal(view, strong._deal_rest(view, rng), Contract(solo.value), rng)
        ).re_points
        for _ in range(deals)
    )
    simulated = []
    for contract in (Contract(solo.value), None):
        values = [
            strong._simulate(view, strong._deal_rest(view, rng), contract, rng)
            for _ in range(deals)
        ]
        # As the bid counts it: the better of announcing at once and never (bid_calls).
        silent, called = (statistics.fmean(v[i] for v in values) for i in (0, 1))
        simulated.append(max(silent, called) if strong.bid_calls else silent)
    return played + simulated + [points, simulated_points]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=20, help="simulated deals per hand")
    parser.add_argument("--opponents", default="heuristic")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--every-hand", action="store_true", help="not only the count's solos")
    parser.add_argument(
        "--noise",
        type=float,
        default=StrongStrategy.model_noise,
        help="the simulation's prior ε of the other seats (default: the strong AI's)",
    )
    args = parser.parse_args()
    items = solo_hands(args.hands, args.seed, args.every_hand)
    n = len(items)
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(one, items, [args.opponents] * n, [args.deals] * n, [args.noise] * n))
    played = [r[0] - r[1] for r in rows]
    simulated = [r[2] - r[3] for r in rows]
    se = statistics.stdev(played) / len(played) ** 0.5
    kind = "hands" if args.every_hand else "hands the count plays as a solo"
    print(f"{len(rows)} {kind}, against 3 × {args.opponents}:")
    print(
        f"  played:    solo {statistics.fmean(r[0] for r in rows):+.2f}, healthy "
        f"{statistics.fmean(r[1] for r in rows):+.2f}, solo − healthy "
        f"{statistics.fmean(played):+.2f} ± {se:.2f} a game"
    )
    print(
        f"  simulated: solo {statistics.fmean(r[2] for r in rows):+.2f}, healthy "
        f"{statistics.fmean(r[3] for r in rows):+.2f}, solo − healthy "
        f"{statistics.fmean(simulated):+.2f} a game"
    )
    gaps = [r[4] - r[5] for r in rows]
    print(
        f"  the soloist's card points: played {statistics.fmean(r[4] for r in rows):.1f}, "
        f"simulated {statistics.fmean(r[5] for r in rows):.1f} (prior ε {args.noise}), "
        f"played − simulated {statistics.fmean(gaps):+.1f} ± "
        f"{statistics.stdev(gaps) / len(gaps) ** 0.5:.1f}"
    )
    won = sum(1 for r in rows if r[0] > 0)
    print(f"  solos won when played: {won} of {len(rows)}")
    print("  by simulated solo − healthy: played solo − healthy")
    for low, high in ((-99, -6), (-6, -4), (-4, -2), (-2, 0), (0, 99)):
        group = [p for p, m in zip(played, simulated, strict=True) if low < m <= high]
        if len(group) > 1:
            err = statistics.stdev(group) / len(group) ** 0.5
            print(
                f"    ({low:+d}, {high:+d}]: {statistics.fmean(group):+.2f} ± {err:.2f}"
                f" a game ({len(group)} hands)"
            )


if __name__ == "__main__":
    main()
