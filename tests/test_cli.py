"""The command line: play a terminal game and run a simulation end to end."""

from __future__ import annotations

import json
import subprocess
import sys


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dokobot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_play_a_terminal_game_to_the_score_sheet() -> None:
    # Always the first choice; a wrong entry first, to see the hint.
    proc = run("play", "--seed", "5", "--games", "1", "--pause", "0", stdin="x\n" + "1\n" * 80)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "=== Game 1: " in out
    assert "Please type a number from 1 to" in out
    assert "Your hand: " in out
    assert out.count("Trick ") >= 12
    assert "--- Game 1 over:" in out
    sheet = next(line for line in out.splitlines() if line.startswith("Score sheet: "))
    totals = [int(part.split()[-1]) for part in sheet.removeprefix("Score sheet: ").split(", ")]
    assert sum(totals) == 0 and len(totals) == 4


def test_play_ends_cleanly_when_input_ends() -> None:
    proc = run("play", "--seed", "5", "--pause", "0", stdin="")
    assert proc.returncode == 0
    assert "Bye." in proc.stdout
    assert "Traceback" not in proc.stderr


def test_simulate_prints_a_table_and_json() -> None:
    proc = run("simulate", "--games", "6", "--seed", "3", "--rotate", "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    heuristic = summary["strategies"]["heuristic"]
    assert heuristic["games"] == 6 * 4
    assert summary["strategies"]["random"]["games"] == 6 * 4 * 3
    assert {"mean", "se", "mean_non_solo", "se_non_solo"} <= set(heuristic)
    assert set(summary["decision_ms"]["heuristic"]) >= {"p50", "p95", "max"}
    assert "heuristic" in proc.stdout.splitlines()[3]


def test_simulate_rejects_bad_arguments() -> None:
    assert run("simulate", "--players", "heuristic,random").returncode == 2
    bad = run("simulate", "--rules", '{"bock": true}')
    assert bad.returncode == 2 and "unknown rule 'bock'" in bad.stderr
    assert (
        "unknown AI level 'genius'"
        in run("simulate", "--players", "genius,random,random,random").stderr
    )


def test_run_without_a_token_says_how_to_give_one(tmp_path: object) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "dokobot", "run"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=str(tmp_path),
        env={"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": ""},
    )
    assert proc.returncode == 2
    assert "DISCORD_TOKEN is not set" in proc.stderr
