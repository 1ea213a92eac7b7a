"""The command line: play a terminal game and run a simulation end to end."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from dokobot.cli import simulation_table
from dokobot.health import write_heartbeat

# Terminal sessions of these tests are saved under a throwaway data folder.
DATA = tempfile.mkdtemp(prefix="dokobot-cli-")
# An English locale, whatever the machine's is (dokobot play follows LANG).
ENGLISH = {
    **{k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")},
    "LANG": "C.UTF-8",
}


def run(
    *args: str, stdin: str = "", env: dict[str, str] | None = None, cwd: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dokobot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**ENGLISH, "XDG_DATA_HOME": DATA, **(env or {})},
        cwd=cwd,
    )


def one_line(proc: subprocess.CompletedProcess[str]) -> str:
    """The error: exactly one line on standard error, no traceback."""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    return proc.stderr.strip()


def test_play_a_terminal_game_to_the_score_sheet() -> None:
    # Always the first choice; a wrong entry first, to see the hint.
    proc = run(
        "play", "--new", "--seed", "5", "--games", "1", "--pause", "0", stdin="x\n" + "1\n" * 80
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "=== Game 1: " in out
    assert "'x' is not one of your choices now." in out
    assert "Your hand: " in out
    assert out.count("Trick ") >= 12
    assert "--- Game 1 over:" in out
    sheet = next(line for line in out.splitlines() if line.startswith("Score sheet: "))
    totals = [int(part.split()[-1]) for part in sheet.removeprefix("Score sheet: ").split(", ")]
    assert sum(totals) == 0 and len(totals) == 4


def test_play_ends_cleanly_when_input_ends() -> None:
    proc = run("play", "--new", "--seed", "5", "--pause", "0", stdin="")
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
    assert "silent marriages are scored as solos" in proc.stdout


def test_simulate_in_sessions_plays_the_same_deals() -> None:
    """``--session``: the deals are played at tables that learn their players, which
    only the strong AI uses; the heuristic plays them exactly as without sessions."""
    common = ("simulate", "--games", "4", "--seed", "3", "--rotate", "--json")
    alone = json.loads(run(*common).stdout.strip().splitlines()[-1])
    proc = run(*common, "--session", "2", "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    learnt = json.loads(proc.stdout.strip().splitlines()[-1])
    assert learnt["session"] == 2 and alone["session"] == 0
    assert learnt["strategies"] == alone["strategies"]


def test_simulation_table_puts_every_value_under_its_header() -> None:
    figures = {"mean": 1.25, "se": 1.931, "mean_non_solo": 0.5, "se_non_solo": 4.5}
    rates = dict.fromkeys(
        ("re_win_rate", "kontra_win_rate", "solo_rate", "solo_success", "announce_rate"), 0.5
    )
    summary = {
        "deals": 4,
        "seed": 1,
        "rotate": False,
        "strategies": {"heuristic": {"games": 4, **figures, **rates, "announce_success": None}},
        "decision_ms": {"heuristic": {"p50": 0.145, "p95": 0.288, "max": 0.755}},
    }
    header, row = simulation_table(summary).splitlines()[2:4]
    for title, value in (
        ("mean ± se", "+1.250 ± 1.931"),
        ("non-solo ± se", "+0.500 ± 4.500"),
        ("ann. won", "—"),
        ("max ms", "0.755"),
    ):
        # Right-aligned: the header and its value end in the same column.
        assert header.index(title) + len(title) == row.index(value) + len(value), title


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("simulate", "--players", "heuristic,random"), "--players needs four comma-separated"),
        (("simulate", "--rules", '{"bock": true}'), "--rules: unknown rule 'bock'"),
        (
            ("simulate", "--rules", "{bock"),
            "--rules is neither a preset (ddv, pub, beginners) nor JSON",
        ),
        (("simulate", "--players", "genius,random,random,random"), "unknown AI level 'genius'"),
        (("simulate", "--games", "-5"), "argument --games: must be at least 1, not -5"),
        (("simulate", "--session", "0"), "argument --session: must be at least 1, not 0"),
        (("play", "--ai", "bogus"), "argument --ai: invalid choice: 'bogus'"),
        (("play", "--rules", '{"nines": "no"}'), "--rules: rule 'nines'"),
        (("render", "--out", "/etc/passwd"), "--out /etc/passwd is a file"),
        (("replay", "/no/such/record.json"), "cannot read /no/such/record.json"),
        (("replay", "/dev/null"), "/dev/null is empty: give a doko-record/1 JSON file"),
        (("frobnicate",), "invalid choice: 'frobnicate'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    proc = run(*args)
    assert proc.returncode == 2
    assert message in one_line(proc)


def test_play_with_a_database_it_cannot_use_fails_with_one_line(tmp_path: Path) -> None:
    not_a_database = tmp_path / "notes.txt"
    not_a_database.write_text("shopping list\n" * 200)
    proc = run("play", "--db", str(not_a_database))
    assert proc.returncode == 1
    assert one_line(proc).startswith(f"cannot use the saved session {not_a_database} (")


def test_version_and_help_show_what_a_newcomer_needs() -> None:
    assert run("--version").stdout.startswith("dokobot ")
    help_run = run("run", "--help").stdout
    for name in ("DISCORD_TOKEN", "DOKOBOT_DB", "DOKOBOT_DEV_GUILD", "DOKOBOT_HEARTBEAT"):
        assert name in help_run
    help_sim = run("simulate", "--help").stdout
    assert "seed of the first deal" in help_sim and "(default: 1)" in help_sim
    assert "levels: easy, heuristic," in help_sim and "normal, random, strong" in help_sim
    assert "non-solo ± se" in help_sim
    help_play = run("play", "--help").stdout
    assert "(default: strong)" in help_play
    # Each default is said once, and only where there is one to say.
    for text in (help_sim, help_play):
        assert "(default: None)" not in text and "(default: False)" not in text
        assert not re.search(r"\(default: [^)]*\) \(default:", " ".join(text.split()))
    assert "(default: 40)" in help_sim and "only --samples count)" in help_sim


def test_render_writes_outside_the_checkout_by_default(tmp_path: Path) -> None:
    proc = run("render", cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert not (tmp_path / "renders").exists()
    first = Path(proc.stdout.split(" (", 1)[0])
    assert first.is_file() and first.parent.name == "dokobot-renders"


def test_a_record_without_names_renders_players_by_seat(tmp_path: Path) -> None:
    record = json.loads(_finished_record())
    record.pop("players", None)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    proc = run("render", "--record", str(path), "--out", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out" / "result.png").is_file()


def _finished_record() -> str:
    from tests.engine.test_records import finished_record

    return json.dumps(finished_record())


def test_health_reads_the_heartbeat(tmp_path: Path) -> None:
    path = tmp_path / "beat.json"
    env = {"DOKOBOT_HEARTBEAT": str(path)}
    missing = run("health", env=env)
    assert missing.returncode == 1 and "no heartbeat at" in one_line(missing)
    write_heartbeat(path, connected=True)
    assert run("health", env=env).returncode == 0
    write_heartbeat(path, connected=False)
    down = run("health", env=env)
    assert down.returncode == 1 and "not connected to Discord" in one_line(down)
    old = json.loads(path.read_text()) | {"at": time.time() - 300, "connected": True}
    path.write_text(json.dumps(old))
    stale = run("health", env=env)
    assert stale.returncode == 1 and "s old (more than 90 s): the bot hangs" in one_line(stale)


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
    assert "DISCORD_TOKEN is not set" in one_line(proc)


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dokobot", "run"],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
        cwd=str(tmp_path),
        env={"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "not-a-token", **env},
    )


def test_run_with_a_bad_server_id_says_what_it_must_be(tmp_path: Path) -> None:
    proc = run_bot(tmp_path, DOKOBOT_DEV_GUILD="mychannel")
    assert proc.returncode == 2
    assert one_line(proc) == (
        "DOKOBOT_DEV_GUILD must be a Discord id (a number; right-click → Copy ID), not 'mychannel'"
    )


def test_run_without_network_is_one_line_and_exit_1(tmp_path: Path) -> None:
    # Discord is unreachable from the test machines (no network but package registries).
    proc = run_bot(tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert one_line(proc).startswith("cannot reach Discord (")
    assert "check the network connection" in proc.stderr
    assert "voice will NOT be supported" not in proc.stdout + proc.stderr
