"""Self-play: deals played by strategies, with the figures ``dokobot simulate`` prints."""

from __future__ import annotations

import dataclasses
import functools
import random
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from dokobot.engine import (
    GameSetup,
    GameState,
    RuleSet,
    apply,
    deal,
    outcome,
    player_view,
)

from . import make_strategy
from .base import Strategy
from .skill import Skill, judge, table_noise
from .strong import StrongStrategy, mean_se


@dataclasses.dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of one played deal, for the statistics."""

    strategy: str
    score: int
    solo_game: bool
    party: str | None
    won: bool
    soloist: bool
    announced: bool
    decision_ms: tuple[float, ...]
    #: For each decision: the tricks complete when it was made (0: bidding or trick 1).
    decision_tricks: tuple[int, ...] = ()


def play_deal(
    setup: GameSetup,
    strategies: Sequence[Strategy],
    rng: random.Random,
    tricks: list[list[int]] | None = None,
) -> tuple[GameState, list[list[float]]]:
    """Play one deal to the end; returns the final state and each seat's decision times (ms).

    ``tricks``, if given, receives per seat the tricks complete at each decision.
    """
    state = GameState.new(setup)
    times: list[list[float]] = [[], [], [], []]
    while not state.is_finished:
        seat = state.to_act
        assert seat is not None
        start = time.perf_counter()
        action = strategies[seat].choose(player_view(state, seat), rng)
        times[seat].append((time.perf_counter() - start) * 1000)
        if tricks is not None:
            tricks[seat].append(len(state.tricks))
        state = apply(state, action)
    return state, times


def played_solo(result: dict[str, Any], seat: int) -> bool:
    """Whether the seat played a solo it chose (not a silent marriage) in the game
    ``result`` (``outcome``) describes."""
    return result.get("soloist") == seat and str(result.get("contract", "")).startswith("solo:")


def deal_results(
    index: int,
    seed: int,
    players: Sequence[str],
    rules: RuleSet,
    rotate: bool,
    search: tuple[int | None, float | None] = (None, None),
    skills: Sequence[Skill] | None = None,
) -> list[SeatResult]:
    """Play deal ``index`` (once, or once per seat rotation) and describe every seat.

    ``skills``, per player (``players``' order): what the table judged of their cards
    in its earlier games; the strong AIs take it as their model's prior, and this deal's
    games are judged into it once all its rotations are played (``skill``).
    """
    out: list[SeatResult] = []
    hands = deal(random.Random(f"{seed}:{index}:deal"), nines=rules.nines)
    setup = GameSetup(rules=rules, dealer=index % 4, hands=hands)
    finals: list[tuple[int, GameState]] = []
    for shift in range(4 if rotate else 1):
        names = [players[(s - shift) % 4] for s in range(4)]
        strategies = [make_strategy(n, samples=search[0], budget_ms=search[1]) for n in names]
        if skills is not None:
            seated = [skills[(s - shift) % 4] for s in range(4)]
            known = table_noise(seated, StrongStrategy.model_noise)
            for strategy in strategies:
                if isinstance(strategy, StrongStrategy):
                    strategy.table_noise = known
        rng = random.Random(f"{seed}:{index}:{shift}")
        when: list[list[int]] = [[], [], [], []]
        state, times = play_deal(setup, strategies, rng, when)
        finals.append((shift, state))
        result = outcome(state)
        solo_game = result.get("soloist") is not None
        announcers = {m.seat for m in state.calls.log}
        for s in range(4):
            party = None if result.get("redeal") else ("re" if s in result["re"] else "kontra")
            out.append(
                SeatResult(
                    strategy=names[s],
                    score=result["scores"][s],
                    solo_game=solo_game,
                    party=party,
                    won=party is not None and party == result.get("winner"),
                    soloist=played_solo(result, s),
                    announced=s in announcers,
                    decision_ms=tuple(times[s]),
                    decision_tricks=tuple(when[s]),
                )
            )
    if skills is not None:
        for shift, state in finals:
            for judged in judge(state):
                skills[(judged.seat - shift) % 4].add([judged])
    return out


def session_results(
    indices: Sequence[int],
    seed: int,
    players: Sequence[str],
    rules: RuleSet,
    rotate: bool,
    search: tuple[int | None, float | None] = (None, None),
    learn: bool = True,
) -> list[SeatResult]:
    """Deals played one after the other at one table, which learns how each player plays
    (``skill``) as a table in the bot does; ``learn`` off: each deal on its own."""
    skills = [Skill() for _ in range(4)] if learn else None
    out: list[SeatResult] = []
    for index in indices:
        out.extend(deal_results(index, seed, players, rules, rotate, search, skills))
    return out


def _rate(hits: int, total: int) -> float | None:
    return hits / total if total else None


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summarise(
    results: Iterable[SeatResult], *, deals: int, seed: int, rotate: bool
) -> dict[str, Any]:
    """Per strategy: mean score ± standard error, win rates, solos, announcements, timing."""
    by_name: dict[str, list[SeatResult]] = {}
    for r in results:
        by_name.setdefault(r.strategy, []).append(r)
    strategies: dict[str, Any] = {}
    timing: dict[str, Any] = {}
    for name, rows in by_name.items():
        mean, se = mean_se([r.score for r in rows])
        non_solo = [r.score for r in rows if not r.solo_game]
        mean_ns, se_ns = mean_se(non_solo)
        re_rows = [r for r in rows if r.party == "re" and not r.solo_game]
        ko_rows = [r for r in rows if r.party == "kontra" and not r.solo_game]
        solos = [r for r in rows if r.soloist]
        announced = [r for r in rows if r.announced]
        strategies[name] = {
            "mean": round(mean, 4),
            "se": round(se, 4),
            "mean_non_solo": round(mean_ns, 4),
            "se_non_solo": round(se_ns, 4),
            "games": len(rows),
            "games_non_solo": len(non_solo),
            "re_win_rate": _rate(sum(r.won for r in re_rows), len(re_rows)),
            "kontra_win_rate": _rate(sum(r.won for r in ko_rows), len(ko_rows)),
            "solo_rate": _rate(len(solos), len(rows)),
            "solo_success": _rate(sum(r.won for r in solos), len(solos)),
            "announce_rate": _rate(len(announced), len(rows)),
            "announce_success": _rate(sum(r.won for r in announced), len(announced)),
        }
        times = [t for r in rows for t in r.decision_ms]
        by_trick: dict[int, list[float]] = {}
        for r in rows:
            for t, trick in zip(r.decision_ms, r.decision_tricks, strict=False):
                by_trick.setdefault(trick + 1, []).append(t)
        timing[name] = {
            "p50": round(_percentile(times, 0.5), 4),
            "p95": round(_percentile(times, 0.95), 4),
            "max": round(max(times, default=0.0), 4),
            "decisions": len(times),
            # Per trick (1 = the reservations and the first trick): p95 and max.
            "by_trick": {
                str(trick): {
                    "p95": round(_percentile(ts, 0.95), 3),
                    "max": round(max(ts), 3),
                }
                for trick, ts in sorted(by_trick.items())
            },
        }
    return {
        "strategies": strategies,
        "decision_ms": timing,
        "deals": deals,
        "seed": seed,
        "rotate": rotate,
    }


def simulate(
    deals: int,
    seed: int,
    players: Sequence[str],
    rules: RuleSet,
    *,
    rotate: bool = False,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    samples: int | None = None,
    budget_ms: float | None = None,
    session: int = 0,
) -> dict[str, Any]:
    """Play ``deals`` deals and summarise them; ``jobs`` > 1 spreads deals over processes.

    ``session`` > 0: the deals are played in sessions of that many, one after the other
    at a table that learns how each player plays (``session_results``); 0: each deal on
    its own, nothing learned.
    """
    for name in players:
        make_strategy(name)  # fail fast on an unknown name
    size = session or 1
    chunks = [range(i, min(deals, i + size)) for i in range(0, deals, size)]
    run = functools.partial(
        session_results,
        learn=bool(session),
        seed=seed,
        players=tuple(players),
        rules=rules,
        rotate=rotate,
        search=(samples, budget_ms),
    )
    results: list[SeatResult] = []
    if jobs <= 1:
        for chunk in chunks:
            results.extend(run(chunk))
            if progress:
                progress(chunk.stop, deals)
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(run, chunk) for chunk in chunks]
            for chunk, future in zip(chunks, futures, strict=True):
                results.extend(future.result())
                if progress:
                    progress(chunk.stop, deals)
    out = summarise(results, deals=deals, seed=seed, rotate=rotate)
    out["session"] = session
    return out
