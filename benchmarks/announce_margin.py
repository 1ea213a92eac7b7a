"""What other announcement margins would have scored, priced on the strong AI's own games.

Random opponents never announce and do not heed announcements: a call changes only
the score of the game it is made in (and the strong seat's own later cards, which
this leaves out). So one game prices every margin. At each of the strong seat's
decisions where it may announce, the call each margin would make there is noted (the
same worlds, the same wait for a deadline, the soloist's hand count as played); a
margin's game ends with the highest level it called, scored on the game's last state.
Prints, for each margin, what it scores against the margins played (mean ± standard
error a game, paired on the same games) and in how many games it scores otherwise.
The margins played replayed this way must call what was called: the count of games
where they do not is printed as a check.

    python benchmarks/announce_margin.py --deals 160 --seed 1302 --budget-ms 450 \\
        --margins '{"chance_announce_margin": 0}' '{"chance_solo_raise_margin": -2}'

The table is judged random, so its margins are the ``chance_`` ones (``announce_margin``
and ``solo_raise_margin`` are a minded table's).

``--log`` appends every game to a file (one JSON line: deal, seat, whether the seat
played a solo, each margin's score minus the one played) and a later run with the
same arguments skips the deals it holds.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dokobot.ai import make_strategy
from dokobot.ai.arena import play_deal, played_solo
from dokobot.ai.strong import StrongStrategy, mean_se
from dokobot.engine import (
    DDV,
    Announce,
    GameSetup,
    GameState,
    Party,
    Play,
    PlayerView,
    deal,
    outcome,
    score,
)

#: A seat judged random (``solo_ab.JUDGED``): the table the bar's games are played at.
RANDOM = (1.0, 1.0, 1.0, 1.0)


@dataclasses.dataclass
class Pricer(StrongStrategy):
    """The strong AI, noting at each chance to announce the level each of ``margins``
    (changes to its options) would call: −1 for none."""

    margins: Sequence[dict[str, float]] = ()
    chances: list[tuple[Party, list[int]]] = dataclasses.field(default_factory=list)

    def _call(
        self,
        view: PlayerView,
        best: Play,
        announces: Sequence[Announce],
        finals: Sequence[GameState],
        weights: Sequence[float],
        base: float,
    ) -> Announce | None:
        if announces and view.own_party is not None:
            levels = []
            for changes in (*self.margins, {}):
                other = dataclasses.replace(self, **changes)
                call = StrongStrategy._call(other, view, best, announces, finals, weights, base)
                levels.append(-1 if call is None else int(call.level))
            self.chances.append((view.own_party, levels))
        return super()._call(view, best, announces, finals, weights, base)


def with_level(state: GameState, party: Party, level: int) -> GameState:
    """``state`` with ``party``'s announcements at ``level`` exactly (−1: none)."""
    calls = state.calls
    if party is Party.RE:
        new = dataclasses.replace(calls, re_level=level)
    else:
        new = dataclasses.replace(calls, kontra_level=level)
    return dataclasses.replace(state, calls=new)


def price(
    state: GameState, seat: int, chances: list[tuple[Party, list[int]]], margins: int
) -> dict[str, Any]:
    """One finished game: each margin's score minus the one played, and whether the
    margins played, replayed (the last of each chance's levels), call what the game's
    last state holds; a game where they do not (a call made elsewhere) counts 0."""
    party = state.party(seat)
    assert party is not None
    reached = [max((ls[j] for p, ls in chances if p is party), default=-1) for j in range(margins)]
    played = max((ls[-1] for p, ls in chances if p is party), default=-1)
    check = played == state.calls.level(party)
    points = score(state).scores[seat]
    deltas = [
        score(with_level(state, party, level)).scores[seat] - points if check else 0
        for level in reached
    ]
    return {"deltas": deltas, "check": check}


def one_deal(
    index: int, seed: int, options: dict[str, Any], margins: list[dict[str, float]]
) -> list[dict[str, Any]]:
    """Deal ``index`` with the strong seat in each of the four seats against random."""
    hands = deal(random.Random(f"{seed}:{index}:deal"))
    setup = GameSetup(rules=DDV, dealer=index % 4, hands=hands)
    rows = []
    for seat in range(4):
        pricer = Pricer(table_noise=RANDOM, margins=margins, **options)
        players = [pricer if s == seat else make_strategy("random") for s in range(4)]
        state, _ = play_deal(setup, players, random.Random(f"{seed}:{index}:{seat}"))
        priced = price(state, seat, pricer.chances, len(margins))
        solo = played_solo(outcome(state), seat)
        rows.append({"deal": index, "seat": seat, "solo": solo, **priced})
    return rows


def summary(rows: list[dict[str, Any]], margins: list[dict[str, float]]) -> list[str]:
    """Each margin's gain a game ± standard error, overall, in the games that are not
    the seat's own solo and in its solos, and how many games it scores otherwise."""
    lines = [f"{len(rows)} games, {sum(r['solo'] for r in rows)} of them the seat's solos"]
    for j, changes in enumerate(margins):
        lines.append(f"  {json.dumps(changes)}")
        for label, games in (
            ("all", rows),
            ("not its solo", [r for r in rows if not r["solo"]]),
            ("its solos", [r for r in rows if r["solo"]]),
        ):
            deltas = [r["deltas"][j] for r in games]
            if len(deltas) < 2:
                continue
            mean, se = mean_se(deltas)
            other = sum(d != 0 for d in deltas)
            lines.append(
                f"    {label:>14}: {mean:+.3f} ± {se:.3f} a game "
                f"({other} of {len(deltas)} games score otherwise)"
            )
    bad = sum(not r["check"] for r in rows)
    lines.append(f"  check: the margins played, replayed, call otherwise in {bad} games")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=250)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1301)
    parser.add_argument("--budget-ms", type=float, default=None)
    parser.add_argument("--options", default="{}", help="the strong AI's options (JSON)")
    parser.add_argument("--margins", nargs="+", required=True, help="changes to price (JSON)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--log", type=Path, default=None)
    args = parser.parse_args()
    options = json.loads(args.options)
    if args.budget_ms is not None:
        options["budget_ms"] = args.budget_ms
    margins = [json.loads(m) for m in args.margins]
    setting = {"seed": args.seed, "options": options, "margins": margins}
    rows: list[dict[str, Any]] = []
    if args.log is not None and args.log.exists():
        for line in args.log.read_text().splitlines():
            row = json.loads(line)
            if row.pop("setting") != setting:
                sys.exit(f"{args.log} was logged with other settings")
            rows.append(row)
    done = {r["deal"] for r in rows}
    indices = [i for i in range(args.start, args.start + args.deals) if i not in done]
    with ProcessPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(one_deal, i, args.seed, options, margins) for i in indices]
        for finished, job in enumerate(jobs, start=1):
            new = job.result()
            rows.extend(new)
            if args.log is not None:
                with args.log.open("a") as log:
                    for row in new:
                        log.write(json.dumps({"setting": setting, **row}) + "\n")
            if sys.stderr.isatty():
                print(f"\r{finished}/{len(indices)} deals", end="", file=sys.stderr)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print("\n".join(summary(rows, margins)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
