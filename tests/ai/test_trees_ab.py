"""benchmarks/trees_ab.py: two source trees' strong AI on the same deals."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "trees_ab.py"


def run(a: Path, b: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--a", str(a), "--b", str(b), "--deals", "1"]
        + ["--samples", "2", "--seed", "3", "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def test_a_tree_against_itself_plays_the_same_games(tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "dokobot", copy / "dokobot")
    result = run(ROOT, copy)
    assert result["games"] == 4  # one deal, four rotations
    assert (result["diff"], result["games_that_differ"]) == (0, 0)
    assert result["mean_a"] == result["mean_b"]
    assert (result["failed_decisions_a"], result["failed_decisions_b"]) == (0, 0)


def test_a_strong_ai_that_raises_is_replaced_by_the_normal_ai_and_counted(
    tmp_path: Path,
) -> None:
    """As in the bot, a failing decision is the normal AI's; the tree whose strong AI
    always fails plays whole games that way, and the report says how many."""
    broken = tmp_path / "broken"
    shutil.copytree(ROOT / "dokobot", broken / "dokobot")
    strong = broken / "dokobot" / "ai" / "strong.py"
    strong.write_text(
        strong.read_text()
        + "\n\ndef _fails(self, view, rng):\n    raise RuntimeError('broken')\n\n"
        + "StrongStrategy.choose = _fails\n"
    )
    result = run(ROOT, broken)
    assert result["games"] == 4
    assert result["failed_decisions_a"] == 0
    # Every decision of the broken seat: at least its bid and 12 cards in each game.
    assert isinstance(result["failed_decisions_b"], int)
    assert result["failed_decisions_b"] >= 4 * 13
