"""Engine speed: random complete games through the public API on one core.

Each game: seeded deal, four healthy-or-random bids, 48 card plays chosen from
``legal_actions`` and applied with ``apply``, then ``score``. Prints games/s and
the time per ``legal_actions``/``apply`` call; ``--json`` ends with one JSON line.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from dokobot.engine import (
    Announce,
    Bid,
    GameSetup,
    GameState,
    Phase,
    Reservation,
    apply,
    deal,
    legal_actions,
    score,
)


def play_games(count: int, seed: int) -> tuple[float, int]:
    """Play ``count`` random games; return the seconds taken and the engine calls made."""
    rng = random.Random(seed)
    calls = 0
    start = time.perf_counter()
    for game in range(count):
        state = GameState.new(GameSetup(dealer=game % 4, hands=deal(rng)))
        while not state.is_finished:
            actions = legal_actions(state)
            if state.phase is Phase.BIDDING:
                # Mostly healthy, so most games are normal games, as at a real table.
                healthy = Bid(state.to_act, Reservation.HEALTHY)  # type: ignore[arg-type]
                action = healthy if rng.random() < 0.9 else rng.choice(actions)
            else:
                turn = [a for a in actions if not isinstance(a, Announce)]
                action = rng.choice(turn)
            state = apply(state, action)
            calls += 2
        if not state.is_redeal:
            score(state)
    return time.perf_counter() - start, calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="games per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args()
    play_games(200, args.seed)  # warm up caches
    rates, per_call = [], []
    for r in range(args.rounds):
        seconds, calls = play_games(args.games, args.seed + r)
        rates.append(args.games / seconds)
        per_call.append(seconds / calls * 1e6)
    games_per_s = statistics.median(rates)
    print(f"games/s (median of {args.rounds} × {args.games}): {games_per_s:,.0f}")
    print(f"  min {min(rates):,.0f}  max {max(rates):,.0f}")
    print(
        f"µs per legal_actions or apply call (scoring included): {statistics.median(per_call):.2f}"
    )
    if args.json:
        print(
            json.dumps(
                {
                    "games_per_s": round(games_per_s, 1),
                    "us_per_call": round(statistics.median(per_call), 3),
                    "games": args.games,
                    "rounds": args.rounds,
                }
            )
        )


if __name__ == "__main__":
    main()
