"""How good are the strong AI's worlds? The share of hidden cards they put in the right seat.

Plays games of four ``--players`` (default: heuristic); after 0, 2, 5 and 8
tricks, once the next trick is led, the seat to play deals its worlds as the
strong AI does — uniform, with inference, with milder tempering, with more or
fewer Metropolis swaps (``refine_moves``), dealt in leaning rounds with ε fitted
to all of a seat's plays at once (``lean_rounds``, ``marginal_fit``) — and each
world is scored by the share of the others' cards it puts where they really are,
weighted as the AI weighs them, and (where the seat cannot yet tell who plays
with whom) by whether its parties are the true ones. With ``--judged`` the seat
knows the ε a table judged the others to (random 1: chance players, whose plays
weigh nothing, or with ``chance_noise`` out of reach fitted like any seat's);
``--only`` picks the settings whose names hold one of the words given.

    python benchmarks/inference.py --games 40
    python benchmarks/inference.py --players random --judged 1 --only uniform default chance
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dokobot.ai import make_strategy
from dokobot.ai.strong import StrongStrategy
from dokobot.engine import DDV, GameSetup, GameState, Phase, apply, deal, player_view

SETTINGS: dict[str, dict[str, Any]] = {
    "uniform": {"inference": False},
    "what they said only": {"card_inference": False},
    "announcers' trumps (old)": {"call_inference": False},
    "inference (default)": {},
    "inference, least_share 0.1": {"least_share": 0.1},
    "inference, 10 swaps a world": {"refine_moves": 10},
    "inference, 25 swaps a world": {"refine_moves": 25},
    "3 leaning rounds, marginal ε": {"lean_rounds": 3, "marginal_fit": True},
    "the same, least_share 0.1": {"lean_rounds": 3, "marginal_fit": True, "least_share": 0.1},
    "chance players fitted": {"chance_noise": 9.0},
}
TRICKS = (0, 2, 5, 8)


def placed_right(state: GameState, worlds: list[GameState], weights: list[float]) -> float:
    """The weighted share of the other seats' cards the worlds put in the right seat."""
    seat = state.to_act
    total = 0.0
    for weight, sample in zip(weights, worlds, strict=True):
        right = held = 0
        for s in range(4):
            if s != seat:
                right += sum((Counter(sample.hands[s]) & Counter(state.hands[s])).values())
                held += len(state.hands[s])
        total += weight * right / held
    return total / sum(weights)


def parties_right(state: GameState, worlds: list[GameState], weights: list[float]) -> float:
    """The weighted share of worlds whose parties (who plays with whom) are the true ones."""
    truth = state.parties.re
    total = sum(w for w, sample in zip(weights, worlds, strict=True) if sample.parties.re == truth)
    return total / sum(weights)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", default="heuristic")
    parser.add_argument("--judged", type=float, help="the others' ε as a table judged it")
    parser.add_argument("--only", nargs="*", help="settings whose names hold one of these")
    args = parser.parse_args()
    settings = {
        name: {
            **options,
            **({"table_noise": (args.judged,) * 4} if args.judged is not None else {}),
        }
        for name, options in SETTINGS.items()
        if not args.only or any(word in name for word in args.only)
    }
    found: dict[str, dict[int, list[float]]] = {k: {t: [] for t in TRICKS} for k in settings}
    # Normal games whose parties the seat cannot yet tell: how often the worlds have them.
    teams: dict[str, dict[int, list[float]]] = {k: {t: [] for t in TRICKS} for k in settings}
    for game in range(args.games):
        rng = random.Random(game)
        state = GameState.new(GameSetup(rules=DDV, dealer=game % 4, hands=deal(rng)))
        players = [make_strategy(args.players) for _ in range(4)]
        done: set[int] = set()
        while not state.is_finished:
            seat = state.to_act
            assert seat is not None
            tricks = len(state.tricks)
            asks = state.phase is Phase.PLAY and len(state.trick) == 1
            if asks and tricks in TRICKS and tricks not in done:
                done.add(tricks)
                view = player_view(state, seat)
                for name, options in settings.items():
                    strong = StrongStrategy(**options)
                    deals = random.Random(game * 7 + tricks)
                    worlds, weights, _ = strong._worlds(view, deals)
                    found[name][tricks].append(placed_right(state, worlds, weights))
                    if None in view.parties:
                        teams[name][tricks].append(parties_right(state, worlds, weights))
            state = apply(state, players[seat].choose(player_view(state, seat), rng))
    print(
        f"{args.games} games of 4 × {args.players}: hidden cards placed right, by tricks complete"
    )
    for name, by_trick in found.items():
        figures = ", ".join(f"trick {t}: {statistics.fmean(v):.3f}" for t, v in by_trick.items())
        print(f"  {name:28s} {figures}")
    counts = ", ".join(f"trick {t}: {len(v)}" for t, v in teams[next(iter(settings))].items())
    print(f"parties still hidden from the seat ({counts} positions): worlds with the true parties")
    for name, by_trick in teams.items():
        figures = ", ".join(
            f"trick {t}: {statistics.fmean(v) if v else float('nan'):.3f}"
            for t, v in by_trick.items()
        )
        print(f"  {name:28s} {figures}")


if __name__ == "__main__":
    main()
