"""Game records (docs/record-format.md) and ``dokobot replay``."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dokobot.cli import main
from dokobot.engine import Dullen, RecordError, RuleSet, outcome, replay, to_record

from .helpers import announce, bid, healthy, new, play
from .test_scoring import GAME_130, GAME_EXTRAS


def finished_record() -> dict[str, Any]:
    hands, lines = GAME_130
    state = play(announce(healthy(new(hands)), 0, "no60"), *lines)
    return to_record(state, players=["Anna", "Jürgen", "Zoë", "Bot 1"], game_id=7)


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_record_shape() -> None:
    record = finished_record()
    assert record["format"] == "doko-record/1"
    assert "rules" not in record  # DDV defaults are left out
    assert record["dealer"] == 3
    assert record["hands"][0] == [
        "C9",
        "CQ",
        "CK",
        "S10",
        "SQ",
        "H10",
        "HQ",
        "D9",
        "D9",
        "DJ",
        "DK",
        "DA",
    ]
    assert record["actions"][:5] == [
        {"seat": 0, "bid": "healthy"},
        {"seat": 1, "bid": "healthy"},
        {"seat": 2, "bid": "healthy"},
        {"seat": 3, "bid": "healthy"},
        {"seat": 0, "announce": "no60"},
    ]
    assert record["actions"][5] == {"seat": 0, "play": "D9"}
    assert record["players"][1] == "Jürgen"


def test_replay_prints_the_finished_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished_record()), encoding="utf-8")
    code, out, err = run_cli(capsys, "replay", str(path))
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "complete": True,
        "contract": "normal",
        "soloist": None,
        "re": [0, 2],
        "kontra": [1, 3],
        "card_points": {"re": 130, "kontra": 110},
        "tricks_won": {"re": 6, "kontra": 6},
        "winner": "kontra",
        "game_value": 7,
        "breakdown": [
            {"item": "won", "party": "kontra", "points": 1},
            {"item": "re_announced", "party": "kontra", "points": 2},
            {"item": "no90_announced", "party": "kontra", "points": 1},
            {"item": "no60_announced", "party": "kontra", "points": 1},
            {"item": "90_against_no60", "party": "kontra", "points": 1},
            {"item": "against_the_queens", "party": "kontra", "points": 1},
        ],
        "scores": [-7, 7, -7, 7],
    }


def test_replay_reads_standard_input() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "dokobot", "replay", "-"],
        input=json.dumps(finished_record()),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["scores"] == [-7, 7, -7, 7]


def test_unfinished_game() -> None:
    record = finished_record()
    # Cut after the bids, the announcement and trick 1's first card.
    record["actions"] = record["actions"][:6]
    assert outcome(replay(record)) == {
        "complete": False,
        "phase": "play",
        "to_act": 1,
        # Seat 1 must follow the led D9 with a trump; listed highest first.
        "legal": ["SQ", "CJ", "DA"],
        "may_announce": {
            "0": ["no30", "schwarz"],
            "1": ["kontra", "no90", "no60", "no30", "schwarz"],
            "2": ["no30", "schwarz"],
            "3": ["kontra", "no90", "no60", "no30", "schwarz"],
        },
    }


def test_unfinished_in_bidding_lists_the_bids() -> None:
    record = finished_record()
    record["actions"] = record["actions"][:1]
    result = outcome(replay(record))
    assert (result["phase"], result["to_act"]) == ("bidding", 1)
    assert result["legal"][0] == "healthy" and "solo:queen" in result["legal"]
    assert result["may_announce"] == {"0": [], "1": [], "2": [], "3": []}


def test_rules_round_trip() -> None:
    hands, _ = GAME_EXTRAS
    rules = RuleSet(dullen=Dullen.SECOND_WINS, poverty=True)
    state = healthy(new(hands, rules=rules))
    record = to_record(state)
    assert record["rules"] == {"dullen": "second_wins", "poverty": True}
    assert replay(json.loads(json.dumps(record))) == state


def errors_of(record: Any) -> str:
    with pytest.raises(RecordError) as err:
        replay(record)
    return str(err.value)


def test_broken_records_name_the_problem() -> None:
    good = finished_record()

    def changed(**kw: Any) -> dict[str, Any]:
        bad = copy.deepcopy(good)
        bad.update(kw)
        return bad

    hands = good["hands"]
    assert errors_of(changed(format="doko/2")) == 'format must be "doko-record/1", not "doko/2"'
    assert errors_of(changed(rules={"bock": True})) == "unknown rule 'bock'"
    assert errors_of(changed(rules={"dullen": "third"})) == (
        "rule 'dullen': invalid value 'third'; valid: first_wins, second_wins, "
        "second_wins_except_last, second_wins_only_last"
    )
    assert errors_of(changed(dealer=4)) == "dealer: seat must be 0-3, not 4"
    assert errors_of(changed(hands=[hands[0][:11], *hands[1:]])) == "seat 0 holds 11 cards, not 12"
    card_x = [[*hands[0][:11], "X5"], *hands[1:]]
    assert errors_of(changed(hands=card_x)) == 'hands[0]: unknown card "X5"'
    twice = [[*hands[0][:11], "CQ"], *hands[1:]]
    assert "the hands hold 3 CQ, a deck has 2" in errors_of(changed(hands=twice))
    actions = copy.deepcopy(good["actions"])
    actions[4] = {"seat": 0, "announce": "kontra"}
    assert errors_of(changed(actions=actions)) == (
        "action 4: seat 0 announced kontra but plays for Re"
    )
    actions[4] = {"seat": 0, "declare": "schweinchen"}
    assert errors_of(changed(actions=actions)) == (
        "action 4: seat 0 declared schweinchen, but schweinchen is not played under these rules"
    )


def test_illegal_play_in_a_record() -> None:
    record = finished_record()
    # Trick 1: D9 led by seat 0; seat 1 plays a plain card although holding trumps.
    record["actions"][6] = {"seat": 1, "play": "C10"}
    assert errors_of(record) == (
        "action 6: seat 1 played C10, but seat 1 must play a trump: it holds CJ"
    )
    # Out of turn: the reason speaks about seats only.
    record["actions"][6] = {"seat": 2, "play": "CJ"}
    assert errors_of(record) == "action 6: seat 2 played CJ, but it is seat 1's turn"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "invalid JSON: line 1 column 2"),
        ("[]", "a record must be a JSON object"),
        ('{"format": "doko-record/1", "dealer": 0, "hands": 5}', "hands must be a list"),
        ("[" * 100000, "invalid JSON"),
    ],
)
def test_malformed_input_exits_2_without_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = run_cli(capsys, "replay", str(path))
    assert (code, out) == (2, "")
    assert err.startswith(message)
    assert err.count("\n") == 1 and "Traceback" not in err


def test_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "replay", "/nonexistent/game.json")
    assert (code, out) == (2, "")
    assert err.startswith("cannot read /nonexistent/game.json")


def test_solo_record_replays_with_soloist() -> None:
    state = bid(new(), "solo:queen", "healthy", "healthy", "healthy")
    record = to_record(state)
    result = outcome(replay(record))
    assert result["complete"] is False
    assert result["to_act"] == 0
