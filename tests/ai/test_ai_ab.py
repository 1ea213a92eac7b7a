"""benchmarks/ai_ab.py: a long paired run spread over sittings with ``--log``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
