"""``dokobot play``: scripted whole games that bid, announce and score, saved sessions."""

from __future__ import annotations

import io
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from dokobot.engine import NORMAL_ORDER, RuleSet, Session
from dokobot.terminal import play

# Seed 37 deals both queens of clubs to you (seat 0): a marriage.
MARRIAGE_SEED = 37


def scripted(out: io.StringIO, decide: Callable[[str, str], str]) -> Callable[[str], str]:
    """A player who reads the menu last printed and answers like a person would."""

    def read(prompt: str) -> str:
        menu = re.split(r"\n\[(?:Game|Spiel) ", out.getvalue())[-1]
        answer = decide(prompt, menu)
        out.write(f"{prompt}{answer}\n")
        return answer

    return read


def marriage_then_re(prompt: str, menu: str) -> str:
    if prompt.startswith("Another game"):
        return "n"
    if "reservations" in menu.splitlines()[0] and "Marriage (Hochzeit)" in menu:
        return "marriage"
    if ") Announce Re" in menu:
        return "re"  # typed by name, not by number
    return "1"


async def test_a_marriage_with_an_announcement_is_played_to_the_score(tmp_path: Path) -> None:
    out = io.StringIO()
    status = await play(
        seed=MARRIAGE_SEED,
        ai_level="heuristic",
        games=None,
        read=scripted(out, marriage_then_re),
        out=out,
        ai_pause=0,
        database=tmp_path / "t.sqlite3",
    )
    text = out.getvalue()
    assert status == 0
    assert "=== Game 1: You deal ===" in text
    assert "Your hand: ♣Q ♣Q ♥Q ♦Q ♦Q ♥J ♦J ♦J ♣10 ♠A ♠K ♥K" in text
    assert "   2) Marriage (Hochzeit)\n   3) Queen solo (Damensolo)" in text
    assert "Contract: Marriage (Hochzeit) (yours). Bot Berta leads." in text
    assert "Marriage: Bot Berta won trick 1 and plays with you." in text
    assert "Bot Cäsar announces Kontra!" in text
    # After the announcement it is still your turn: you are asked again, without Re.
    after = text.split("You announce Re!", 1)[1]
    assert "[Game 1 · trick 2 of 12 · Marriage (Hochzeit) (yours) · you are Re]" in after
    assert "Announced: Bot Cäsar Kontra, You Re" in after
    assert "Announce Re" not in after.split("Your choice", 1)[0]
    assert text.count("Trick ") == 12
    result = text.split("--- Game 1 over: Marriage (Hochzeit) ---", 1)[1]
    assert "Re (You, Bot Berta): 81 points" in result
    assert "Kontra (Bot Cäsar, Bot Dora): 159 points" in result
    assert "  +2  Re announced · Kontra" in result
    assert "Game value: 7" in result
    assert "Score sheet: You -7, Bot Berta -7, Bot Cäsar +7, Bot Dora +7" in result
    # Words a player uses, never the record's names.
    for internal in ("solo:", "no90", "announces kontra", "You deals", "You announces"):
        assert internal not in text


def hochzeit_und_re(prompt: str, menu: str) -> str:
    if prompt.startswith("Noch ein Spiel"):
        return "n"
    if "Vorbehalte" in menu.splitlines()[0] and "Hochzeit" in menu:
        return "hochzeit"
    if ") Re ansagen" in menu:
        return "re"
    return "1"


async def test_the_same_game_in_german(tmp_path: Path) -> None:
    out = io.StringIO()
    await play(
        seed=MARRIAGE_SEED,
        ai_level="heuristic",
        games=None,
        read=scripted(out, hochzeit_und_re),
        out=out,
        ai_pause=0,
        database=tmp_path / "de.sqlite3",
        lang="de",
    )
    text = out.getvalue()
    assert "=== Spiel 1: Du gibst ===" in text
    # German card letters: D(ame) and B(ube).
    assert "Dein Blatt: ♣D ♣D ♥D ♦D ♦D ♥B ♦B ♦B ♣10 ♠A ♠K ♥K" in text
    assert "   2) Hochzeit\n   3) Damensolo" in text
    assert "Spiel: Hochzeit von dir. Bot Berta spielt aus." in text
    assert "Hochzeit: Bot Berta hat Stich 1 gemacht und spielt mit dir." in text
    assert "Bot Cäsar sagt Kontra an!" in text and "Du sagst Re an!" in text
    assert "[Spiel 1 · Stich 2 von 12 · Hochzeit von dir · du bist Re]" in text
    result = text.split("--- Spiel 1 vorbei: Hochzeit ---", 1)[1]
    assert "Kontra (Bot Cäsar, Bot Dora): 159 Augen" in result
    assert "  +2  Re angesagt · Kontra" in result
    assert "Spielwert: 7" in result
    assert "Spielzettel: Du -7, Bot Berta -7, Bot Cäsar +7, Bot Dora +7" in result
    for english in ("Your hand", "announces", "Trick ", "points", "Game value", "Score sheet"):
        assert english not in text, english


async def test_a_session_is_saved_on_quit_and_carries_on(tmp_path: Path) -> None:
    db = tmp_path / "session.sqlite3"
    first = io.StringIO()

    def quit_in_trick_3(prompt: str, menu: str) -> str:
        return "q" if "· trick 3 of 12" in menu.splitlines()[0] else "1"

    await play(
        seed=5,
        ai_level="heuristic",
        games=None,
        read=scripted(first, quit_in_trick_3),
        out=first,
        ai_pause=0,
        database=db,
    )
    assert first.getvalue().rstrip().endswith(f"Saved in {db}: `dokobot play` carries on.")
    hand = first.getvalue().rsplit("Your hand: ", 1)[1].splitlines()[0]

    second = io.StringIO()
    await play(
        seed=None,
        ai_level="heuristic",
        games=1,
        read=scripted(second, lambda prompt, menu: "1"),
        out=second,
        ai_pause=0,
        database=db,
    )
    text = second.getvalue()
    assert text.startswith("Continuing your saved session at game 1.")
    assert "· trick 3 of 12" in text.split("\n[Game", 2)[1].splitlines()[0]
    assert f"Your hand: {hand}" in text
    assert "--- Game 1 over:" in text

    # A new session on request; the old one's sheet is not carried over.
    third = io.StringIO()
    await play(
        seed=None,
        ai_level="random",
        games=1,
        read=scripted(third, lambda prompt, menu: "1"),
        out=third,
        ai_pause=0,
        database=db,
        new=True,
    )
    text = third.getvalue()
    assert "Continuing" not in text
    assert "=== Game 2: " in text  # game numbers go on: they name games in the history
    value = int(text.split("Game value: ", 1)[1].split()[0])
    sheet = text.split("Score sheet: ", 1)[1].splitlines()[0]
    totals = [int(part.rsplit(" ", 1)[1]) for part in sheet.split(", ")]
    assert sorted(abs(t) for t in totals)[:3] == [abs(value)] * 3  # this game only


async def test_house_rules_apply_and_bad_input_is_explained(tmp_path: Path) -> None:
    out = io.StringIO()
    answers = iter(["99", "zebra", "?", "healthy"])

    def decide(prompt: str, menu: str) -> str:
        if prompt.startswith("Another game"):
            return "n"
        return next(answers, "1")

    await play(
        seed=3,
        ai_level="random",
        games=1,
        read=scripted(out, decide),
        out=out,
        ai_pause=0,
        database=tmp_path / "r.sqlite3",
        rules=RuleSet(nines=False),
    )
    text = out.getvalue()
    assert "There is no choice 99: type a number from 1 to " in text
    assert "'zebra' is not one of your choices now." in text
    assert "Type the number of your choice or its name" in text
    assert "You: Healthy (gesund)" in text
    assert "· trick 1 of 10 ·" in text  # without nines: ten tricks
    assert " 9" not in text.split("Your hand: ", 1)[1].splitlines()[0]


def dokobot(*args: str, **kw: object) -> subprocess.Popen[str]:
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")},
        "LANG": str(kw.pop("lang", "C.UTF-8")),
        "XDG_DATA_HOME": str(kw.pop("home")),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "dokobot", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # As in a terminal, Ctrl-C reaches the game: a CI runner that started the
        # tests in the background passes SIGINT down ignored.
        preexec_fn=_sigint_as_in_a_terminal,
    )


def _sigint_as_in_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_an_announcement_by_number_does_not_freeze_the_game(tmp_path: Path) -> None:
    # Seed 7: the second answer picks an announcement (the last entries of the menu).
    proc = dokobot("play", "--seed", "7", "--ai", "heuristic", "--pause", "0", home=tmp_path)
    out, err = proc.communicate("1\n7\n1\n1\n", timeout=60)
    assert proc.returncode == 0, err
    assert "You announce No 90!" in out
    after = out.split("You announce No 90!", 1)[1]
    assert after.count("Your choice") >= 3  # asked again, and on through the game
    assert "Bye." in out and "Traceback" not in err


def test_ctrl_c_at_a_prompt_quits_at_once_and_keeps_the_session(tmp_path: Path) -> None:
    proc = dokobot("play", "--seed", "7", "--ai", "heuristic", "--pause", "0", home=tmp_path)
    assert proc.stdout is not None
    seen = ""
    deadline = time.monotonic() + 60
    while "Your choice" not in seen and time.monotonic() < deadline:
        seen += proc.stdout.read(1)
    proc.send_signal(signal.SIGINT)
    started = time.monotonic()
    proc.wait(timeout=20)  # stdin stays open: nobody presses Enter
    assert time.monotonic() - started < 10
    out, err = seen + proc.stdout.read(), proc.stderr.read()  # type: ignore[union-attr]
    assert proc.returncode == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "Bye." in out and "terminal.sqlite3" in out
    assert (tmp_path / "dokobot" / "terminal.sqlite3").exists()


def poor_seeds() -> list[int]:
    """Seeds that give you (seat 0) at most three trumps: a poverty."""
    rules = RuleSet(poverty=True)
    return [
        seed
        for seed in range(400)
        if sum(
            NORMAL_ORDER.is_trump(c)
            for c in Session.start(rules).next_setup(random.Random(f"{seed}:0")).hands[0]
        )
        <= 3
    ]


async def test_a_poverty_is_put_down_by_typing_three_cards(tmp_path: Path) -> None:

    def decide(prompt: str, menu: str) -> str:
        if prompt.startswith("Another game"):
            return "n"
        if "Poverty (Armut)" in menu and "reservations" in menu.splitlines()[0]:
            return "poverty"
        if "or type three cards, e.g. " in menu:
            return menu.split("or type three cards, e.g. ", 1)[1].splitlines()[0]
        return "1"

    # The first of these deals where no AI player outbids the poverty with a solo.
    for seed in poor_seeds():
        out = io.StringIO()
        await play(
            seed=seed,
            ai_level="heuristic",
            games=1,
            read=scripted(out, decide),
            out=out,
            ai_pause=0,
            database=tmp_path / f"p{seed}.sqlite3",
            rules=RuleSet(poverty=True),
        )
        text = out.getvalue()
        if "Contract: Poverty" in text:
            break
    assert "Contract: Poverty (Armut) (yours)." in text
    assert "You are poor (Armut) and put down three cards." in text
    assert "[Game 1 · poverty exchange · Poverty (Armut) (yours)]" in text
    taken = "takes the poverty." in text
    assert taken or "Nobody took the poverty: the same dealer deals again." in text
    if taken:
        assert re.search(r"Bot \w+ gives three cards back, \d of them trumps\.", text)
        assert "--- Game 1 over: Poverty (Armut) ---" in text


async def test_house_rule_calls_and_a_thrown_in_hand(tmp_path: Path) -> None:
    # Seed 12 deals you both ♦A; seed 246 five nines (as on Discord).
    out = io.StringIO()

    def pigs(prompt: str, menu: str) -> str:
        if prompt.startswith("Another game"):
            return "n"
        return "schweinchen" if "Call Schweinchen" in menu else "1"

    await play(
        seed=12,
        ai_level="random",
        games=1,
        read=scripted(out, pigs),
        out=out,
        ai_pause=0,
        database=tmp_path / "pigs.sqlite3",
        rules=RuleSet.from_dict({"schweinchen": "at_once"}),
    )
    text = out.getvalue()
    assert "Call Schweinchen 🐷" in text
    assert "You call Schweinchen 🐷!" in text
    out = io.StringIO()

    def throw(prompt: str, menu: str) -> str:
        return "n" if prompt.startswith("Another game") else "throw"

    await play(
        seed=246,
        ai_level="random",
        games=1,
        read=scripted(out, throw),
        out=out,
        ai_pause=0,
        database=tmp_path / "throw.sqlite3",
        rules=RuleSet.from_dict({"redeal_on": ["five_nines"]}),
    )
    text = out.getvalue()
    assert "Throw in the hand" in text
    assert re.search(r"You throw your hand in: (\S+ ){11}\S+\. The same dealer deals again\.", text)
