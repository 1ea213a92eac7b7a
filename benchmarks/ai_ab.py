"""Two versions of the strong AI on the same deals: is the difference real?

Each deal is played once per rotation with version A in the rotating seat and
three opponents (``--opponents``), then again, same deal, same seat, same
random seeds, with version B. The paired differences A − B (score points per
game) go into a two-sided t-test; with ``--sequential`` the run stops early as
soon as p < ``--alpha`` (checked every ``--batch`` deals, a Pocock-style bound
is used so that looking often does not inflate the error rate).

    python benchmarks/ai_ab.py --deals 1000 --a '{"inference": true}' \
        --b '{"inference": false}' --budget-ms 450 --jobs 2

Prints the mean difference ± standard error, t, the p-value and both means.

``--rules`` plays house rules (a preset's name or JSON); with ``--only poverty`` only
the deals where a seat may announce a poverty are played, which is every deal where
two versions that differ only in the poverty can play otherwise (without a clock).

A long run can be spread over several sittings with ``--log``: every finished deal
is appended to the file, and a later run with the same arguments skips the deals
already logged and counts them in (a run logged with other versions or opponents is
refused). ``benchmarks/results/`` keeps such runs.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
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
from dokobot.ai.heuristic import counts_as_trump
from dokobot.ai.strong import StrongStrategy
from dokobot.engine import DDV, PRESETS, GameSetup, RuleSet, deal, outcome


def one_deal(
    index: int,
    seed: int,
    a: dict[str, Any],
    b: dict[str, Any],
    opponents: str,
    rules: dict[str, Any] | None = None,
) -> list[tuple[int, int]]:
    """Deal ``index``, four rotations: (A's score, B's score) in the rotating seat
    (``rules``: house rules, docs/rules.md §9; DDV without)."""
    hands = deal(random.Random(f"{seed}:{index}:deal"))
    setup = GameSetup(rules=ruleset(rules), dealer=index % 4, hands=hands)
    pairs = []
    for seat in range(4):
        scores = []
        for options in (a, b):
            players = [
                StrongStrategy(**options) if s == seat else make_strategy(opponents)
                for s in range(4)
            ]
            state, _ = play_deal(setup, players, random.Random(f"{seed}:{index}:{seat}"))
            scores.append(outcome(state)["scores"][seat])
        pairs.append((scores[0], scores[1]))
    return pairs


def ruleset(rules: dict[str, Any] | None) -> RuleSet:
    """The house rules of a run (``--rules``): DDV without any."""
    return RuleSet.from_dict(rules) if rules else DDV


def poverty_deal(index: int, seed: int, rules: dict[str, Any] | None) -> bool:
    """Whether in deal ``index`` some seat may announce a poverty (docs/rules.md §4):
    the only deals where versions that differ in poverty alone can play otherwise."""
    rule_set = ruleset(rules)
    hands = deal(random.Random(f"{seed}:{index}:deal"))
    counted = counts_as_trump(rule_set)
    return rule_set.poverty and any(
        sum(c in counted for c in hand) <= rule_set.poverty_cards for hand in hands
    )


def read_log(path: Path, setting: dict[str, Any]) -> dict[int, list[tuple[int, int]]]:
    """The deals a ``--log`` file already holds (empty if there is none)."""
    if not path.exists():
        return {}
    out: dict[int, list[tuple[int, int]]] = {}
    codes: set[str] = set()
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        row = json.loads(line)
        if row["setting"] != setting:
            sys.exit(f"{path}:{number}: logged with {row['setting']}, not {setting}")
        out[row["deal"]] = [(sa, sb) for sa, sb in row["pairs"]]
        codes.add(row["code"])
    if codes - {code_version()}:
        print(
            f"note: {path} holds deals played by other code ({', '.join(sorted(codes))})",
            file=sys.stderr,
        )
    return out


def write_log(
    path: Path, setting: dict[str, Any], index: int, pairs: list[tuple[int, int]]
) -> None:
    """Append one finished deal to a ``--log`` file, with the code that played it."""
    row = {"setting": setting, "deal": index, "pairs": pairs, "code": code_version()}
    with path.open("a") as log:
        log.write(json.dumps(row) + "\n")


@functools.cache
def code_version() -> str:
    """A digest of the engine's and the AI's sources: which code played a logged deal
    (read once, as the run starts: the code it loaded, not files edited since)."""
    root = Path(__file__).resolve().parent.parent / "dokobot"
    digest = hashlib.sha256()
    for source in sorted([*root.glob("engine/*.py"), *root.glob("ai/*.py")]):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:12]


def p_value(t: float) -> float:
    """Two-sided p of a t statistic (normal approximation: hundreds of pairs)."""
    return math.erfc(abs(t) / math.sqrt(2))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--start",
        type=int,
        default=0,
        help="first deal index (carries a run on with the same --seed)",
    )
    parser.add_argument("--a", default='{"inference": true}', help="StrongStrategy options (JSON)")
    parser.add_argument("--b", default='{"inference": false}', help="StrongStrategy options")
    parser.add_argument("--budget-ms", type=float, help="time per decision (default: samples)")
    parser.add_argument("--samples", type=int, default=StrongStrategy.samples)
    parser.add_argument("--opponents", default="heuristic")
    parser.add_argument(
        "--rules", help="house rules: a preset's name or JSON (docs/rules.md §9); default DDV"
    )
    parser.add_argument(
        "--only",
        choices=["poverty"],
        help="play only the deals where a seat may announce a poverty (the others are "
        "the same game for versions that differ only there, when no clock plays)",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sequential", action="store_true")
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--log", type=Path, help="append each deal's pairs here; deals already in it count"
    )
    args = parser.parse_args()
    common = {"samples": args.samples, "budget_ms": args.budget_ms}
    a = {**common, **json.loads(args.a)}
    b = {**common, **json.loads(args.b)}
    rules: dict[str, Any] | None = None
    if args.rules:
        text = args.rules.strip()
        rules = {"preset": text} if text in PRESETS else json.loads(text)
    setting: dict[str, Any] = {"a": a, "b": b, "opponents": args.opponents, "seed": args.seed}
    if rules or args.only:
        # Only then: the logs of earlier runs (DDV, every deal) keep their setting.
        setting.update(rules=rules, only=args.only)
    skipped = 0
    logged = read_log(args.log, setting) if args.log else {}
    looks = max(1, math.ceil(args.deals / args.batch)) if args.sequential else 1
    # Pocock's constant bound for `looks` equally spaced looks (two-sided), approximated
    # by Bonferroni, which is on the safe side.
    alpha_per_look = args.alpha / looks
    diffs: list[int] = []
    a_scores: list[int] = []
    b_scores: list[int] = []
    verdict = "no significant difference"
    mean = se = t = 0.0
    p = 1.0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        done = args.start
        while done < args.deals:
            batch = range(done, min(args.deals, done + args.batch))
            chosen = [i for i in batch if not args.only or poverty_deal(i, args.seed, rules)]
            skipped += len(batch) - len(chosen)
            futures = {
                i: pool.submit(one_deal, i, args.seed, a, b, args.opponents, rules)
                for i in chosen
                if i not in logged
            }
            for i in chosen:
                if i in futures:
                    pairs = futures[i].result()
                    if args.log:
                        write_log(args.log, setting, i, pairs)
                else:
                    pairs = logged[i]
                for sa, sb in pairs:
                    a_scores.append(sa)
                    b_scores.append(sb)
                    diffs.append(sa - sb)
            done = batch.stop
            if not diffs:
                continue
            mean = statistics.fmean(diffs)
            se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
            t = mean / se if se else 0.0
            p = p_value(t)
            print(
                f"{done - args.start - skipped} deals × 4: A − B = {mean:+.3f} ± {se:.3f}, "
                f"t = {t:+.2f}, p = {p:.4f}",
                file=sys.stderr,
                flush=True,
            )
            if args.sequential and p < alpha_per_look:
                break
    if p < alpha_per_look:
        verdict = "A better" if mean > 0 else "B better"
    report = {
        "a": a,
        "b": b,
        "opponents": args.opponents,
        "games": len(diffs),
        "rules": rules,
        # Deals left out by --only: for versions that differ only there, A − B over
        # every deal is ``diff`` times the share of deals played.
        "deals_skipped": skipped,
        "changed": sum(1 for d in diffs if d),
        "mean_a": round(statistics.fmean(a_scores), 3) if a_scores else None,
        "mean_b": round(statistics.fmean(b_scores), 3) if b_scores else None,
        "diff": round(mean, 3),
        "se": round(se, 3),
        "t": round(t, 2),
        "p": round(p, 5),
        "alpha_per_look": alpha_per_look,
        "verdict": verdict,
    }
    if not diffs:
        print(f"no deal played ({skipped} left out by --only)")
        return 0
    played = f", {skipped} deals left out" if args.only else ""
    print(
        f"A {a} vs B {b} against 3 × {args.opponents}, {len(diffs)} games{played}: "
        f"A {report['mean_a']:+.3f}, B {report['mean_b']:+.3f}, A − B {mean:+.3f} ± {se:.3f}, "
        f"t = {t:+.2f}, p = {p:.4f} (two-sided paired t-test, level {alpha_per_look:.4f} "
        f"per look): {verdict}"
    )
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
