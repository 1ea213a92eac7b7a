"""benchmarks/ai_ab.py: a long paired run spread over sittings with ``--log``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from dokobot.engine import DDV, TRUMP, Contract, deal, order_for

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "ai_ab.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--samples", "2", "--jobs", "1", "--seed", "5", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_a_logged_run_goes_on_where_it_stopped_and_counts_the_logged_deals(
    tmp_path: Path,
) -> None:
    log = tmp_path / "run.jsonl"
    first = run("--deals", "1", "--log", str(log), "--json")
    assert first.returncode == 0, first.stderr
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert [row["deal"] for row in rows] == [0]
    assert len(rows[0]["pairs"]) == 4  # one pair per rotation
    # The second sitting plays only deal 1 and reports both deals' 8 games.
    second = run("--deals", "2", "--log", str(log), "--json")
    assert second.returncode == 0, second.stderr
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert [row["deal"] for row in rows] == [0, 1]
    report = json.loads(second.stdout.splitlines()[-1])
    assert report["games"] == 8
    diffs = [a - b for row in rows for a, b in row["pairs"]]
    assert report["diff"] == round(sum(diffs) / 8, 3)
    # Another setting (here another seed) must not be mixed into the same file.
    other = subprocess.run(
        [sys.executable, str(SCRIPT), "--samples", "2", "--seed", "6", "--deals", "1"]
        + ["--log", str(log)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert other.returncode != 0
    assert "logged with" in other.stderr
    assert len(log.read_text().splitlines()) == 2


def test_only_the_deals_with_a_possible_poverty_are_played_under_the_house_rule(
    tmp_path: Path,
) -> None:
    """``--only poverty``: the versions differ only in the poverty, so only the deals in
    which a seat holds three trumps or fewer are played (seed 5: deal 0 of 30)."""
    log = tmp_path / "poverty.jsonl"
    done = run(
        "--deals",
        "30",
        "--rules",
        '{"poverty": true}',
        "--only",
        "poverty",
        "--a",
        '{"poverty_bids": true}',
        "--b",
        '{"poverty_bids": false}',
        "--log",
        str(log),
        "--json",
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    deals = [row["deal"] for row in rows]
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["games"] == 4 * len(deals)
    assert report["deals_skipped"] == 30 - len(deals)
    assert rows[0]["setting"]["rules"] == {"poverty": True}
    assert deals == [i for i in range(30) if poverty_deal(i)] == [0]


def poverty_deal(index: int) -> bool:
    """Whether a seat of deal ``index`` (seed 5) may announce a poverty: at most three
    trumps, the ♦A counted (docs/rules.md §4)."""
    cls = order_for(DDV, Contract.NORMAL).suit_class
    hands = deal(random.Random(f"5:{index}:deal"))
    return any(sum(cls[c] == TRUMP for c in hand) <= 3 for hand in hands)
