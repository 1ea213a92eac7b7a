"""Game records (``doko-record/1``, docs/record-format.md): write, read and replay."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from .actions import (
    Action,
    Announce,
    Announcement,
    Bid,
    Declaration,
    Declare,
    Genscher,
    Party,
    PassCards,
    Play,
    PovertyReply,
    Reservation,
    ReturnCards,
)
from .cards import Card
from .game import apply, legal_actions, legal_bids, legal_cards, may_announce, throw_reasons
from .rules import RuleError, RuleSet
from .scoring import GameResult, score
from .state import GameSetup, GameState, IllegalActionError, Phase

FORMAT = "doko-record/1"
METADATA_KEYS = ("players", "started_at", "game_id", "session")


class RecordError(ValueError):
    """A record that is malformed or breaks a rule; the message is one line for a human."""


# --------------------------------------------------------------------------- writing


def action_to_json(state: GameState, action: Action) -> dict[str, Any]:
    """The record form of ``action`` taken in ``state`` (the state before it)."""
    if isinstance(action, Play):
        return {"seat": action.seat, "play": action.card.name}
    if isinstance(action, Announce):
        party = state.party(action.seat) or Party.RE
        return {"seat": action.seat, "announce": Announcement(action.level).word(party)}
    if isinstance(action, Bid):
        return {"seat": action.seat, "bid": Reservation(action.reservation).value}
    if isinstance(action, PassCards):
        return {"seat": action.seat, "pass": [c.name for c in action.cards]}
    if isinstance(action, PovertyReply):
        return {"seat": action.seat, "poverty": "accept" if action.accept else "decline"}
    if isinstance(action, Declare):
        return {"seat": action.seat, "declare": Declaration(action.what).value}
    if isinstance(action, Genscher):
        return {"seat": action.seat, "genscher": action.partner}
    return {"seat": action.seat, "return": [c.name for c in action.cards]}


def to_record(state: GameState, **metadata: Any) -> dict[str, Any]:
    """The ``doko-record/1`` object of a game (finished or not), with optional metadata."""
    setup = state.setup
    record: dict[str, Any] = {"format": FORMAT}
    rules = setup.rules.to_dict()
    if rules:
        record["rules"] = rules
    record["dealer"] = setup.dealer
    record["hands"] = [[c.name for c in hand] for hand in setup.hands]
    if any(setup.solo_owed):
        record["solo_owed"] = list(setup.solo_owed)
    if setup.forced is not None:
        record["forced"] = setup.forced
    if setup.bock > 1:
        record["bock"] = setup.bock
    for key in METADATA_KEYS:
        if metadata.get(key) is not None:
            record[key] = metadata[key]
    # Announcement words depend on the announcer's party, known from the calls log.
    log = iter(m for m in state.calls.log if not m.implied)
    actions = []
    for action in state.actions:
        if isinstance(action, Announce):
            made = next(log)
            word = Announcement(action.level).word(made.party)
            actions.append({"seat": action.seat, "announce": word})
        else:
            actions.append(action_to_json(state, action))
    record["actions"] = actions
    return record


# --------------------------------------------------------------------------- reading


def _seat(value: Any, where: str) -> int:
    if type(value) is not int or not 0 <= value <= 3:
        raise RecordError(f"{where}: seat must be 0-3, not {json.dumps(value)}")
    return value


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise RecordError(f'{where}: a card must be a code like "CQ", not {json.dumps(value)}')
    try:
        return Card.parse(value)
    except ValueError:
        raise RecordError(f"{where}: unknown card {json.dumps(value)}") from None


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise RecordError(f"{where}: expected a list of cards")
    return tuple(_card(v, where) for v in value)


def setup_from_record(record: Any) -> GameSetup:
    """The setup (rules, dealer, hands, session duties) a record describes."""
    if not isinstance(record, Mapping):
        raise RecordError("a record must be a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(
            f"format must be {json.dumps(FORMAT)}, not {json.dumps(record.get('format'))}"
        )
    try:
        rules = RuleSet.from_dict(record.get("rules", {}))
    except RuleError as exc:
        raise RecordError(str(exc)) from None
    if "dealer" not in record:
        raise RecordError("dealer is missing")
    dealer = _seat(record["dealer"], "dealer")
    hands_raw = record.get("hands")
    if not isinstance(hands_raw, list) or len(hands_raw) != 4:
        raise RecordError("hands must be a list of four hands")
    hands = tuple(tuple(sorted(_cards(h, f"hands[{i}]"))) for i, h in enumerate(hands_raw))
    owed_raw = record.get("solo_owed", [False] * 4)
    if (
        not isinstance(owed_raw, list)
        or len(owed_raw) != 4
        or not all(isinstance(v, bool) for v in owed_raw)
    ):
        raise RecordError("solo_owed must be a list of four true/false values")
    forced = record.get("forced")
    if forced is not None:
        forced = _seat(forced, "forced")
    bock = record.get("bock", 1)
    if type(bock) is not int or bock < 1 or bock & (bock - 1):
        raise RecordError(f"bock must be 1, 2, 4, 8 …, not {json.dumps(bock)}")
    try:
        return GameSetup(
            rules=rules,
            dealer=dealer,
            hands=hands,
            solo_owed=tuple(owed_raw),
            forced=forced,
            bock=bock,
        )
    except ValueError as exc:
        raise RecordError(str(exc)) from None


_ACTION_KEYS = ("bid", "pass", "poverty", "return", "announce", "play", "declare", "genscher")


def action_from_json(state: GameState, raw: Any, where: str) -> Action:
    """Parse one record action in the context of ``state`` (announcement words need parties)."""
    if not isinstance(raw, Mapping):
        raise RecordError(f"{where}: an action must be an object")
    seat = _seat(raw.get("seat"), where)
    keys = [k for k in _ACTION_KEYS if k in raw]
    if len(keys) != 1:
        raise RecordError(f"{where}: an action needs exactly one of {', '.join(_ACTION_KEYS)}")
    key = keys[0]
    value = raw[key]
    if key == "play":
        return Play(seat, _card(value, where))
    if key == "bid":
        try:
            return Bid(seat, Reservation(value))
        except ValueError:
            raise RecordError(f"{where}: unknown bid {json.dumps(value)}") from None
    if key == "announce":
        try:
            level, named = Announcement.parse(value) if isinstance(value, str) else (None, None)
        except ValueError:
            level = None
        if level is None:
            raise RecordError(f"{where}: unknown announcement {json.dumps(value)}")
        party = state.party(seat)
        if named is not None and party is not None and named is not party:
            raise RecordError(
                f"{where}: seat {seat} announced {value} but plays for {party.value.capitalize()}"
            )
        return Announce(seat, level)
    if key == "pass":
        return PassCards(seat, _cards(value, where))
    if key == "return":
        return ReturnCards(seat, _cards(value, where))
    if key == "poverty":
        if value not in ("accept", "decline"):
            raise RecordError(f'{where}: poverty must be "accept" or "decline"')
        return PovertyReply(seat, value == "accept")
    if key == "declare":
        try:
            return Declare(seat, Declaration(value))
        except ValueError:
            names = ", ".join(d.value for d in Declaration)
            raise RecordError(
                f"{where}: unknown declaration {json.dumps(value)}; valid: {names}"
            ) from None
    if type(value) is not int or not 0 <= value <= 3:
        raise RecordError(f"{where}: genscher names a partner seat 0-3, not {json.dumps(value)}")
    return Genscher(seat, value)


def replay(record: Any) -> GameState:
    """Play a record's actions through ``apply``; raises ``RecordError`` at the first bad one."""
    state = GameState.new(setup_from_record(record))
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("actions must be a list")
    for index, raw in enumerate(actions):
        where = f"action {index}"
        action = action_from_json(state, raw, where)
        try:
            state = apply(state, action)
        except IllegalActionError as exc:
            reason = _about_seat(str(exc), action.seat)
            raise RecordError(
                f"{where}: seat {action.seat} {_describe(action)}, but {reason}"
            ) from None
    return state


# The engine speaks to the player ("You must follow ♠: you hold S9"); a record's
# error speaks about the seat, in the third person.
_THIRD_PERSON = (
    (re.compile(r"\bYou do not\b"), "seat {seat} does not"),
    (re.compile(r"\bYou\b"), "seat {seat}"),
    (re.compile(r"\byou hold\b"), "it holds"),
    (re.compile(r"\byou have\b"), "it has"),
    (re.compile(r"\byou\b"), "it"),
)


def _about_seat(text: str, seat: int) -> str:
    """``You must follow ♣: you hold C9`` → ``seat 2 must follow ♣: it holds C9``."""
    for pattern, words in _THIRD_PERSON:
        text = pattern.sub(words.format(seat=seat), text)
    return text[:1].lower() + text[1:]


def _describe(action: Action) -> str:
    if isinstance(action, Play):
        return f"played {action.card.name}"
    if isinstance(action, Announce):
        return f"announced {Announcement(action.level).name.lower()}"
    if isinstance(action, Bid):
        return f"bid {action.reservation}"
    if isinstance(action, PovertyReply):
        return "accepted the poverty" if action.accept else "declined the poverty"
    if isinstance(action, Declare):
        return f"declared {Declaration(action.what).value}"
    if isinstance(action, Genscher):
        return f"named seat {action.partner} by Genscher"
    verb = "put down" if isinstance(action, PassCards) else "gave back"
    return f"{verb} {' '.join(c.name for c in action.cards)}"


# --------------------------------------------------------------------------- replay output


def result_to_json(result: GameResult) -> dict[str, Any]:
    """A finished game's outcome as ``dokobot replay`` prints it."""
    return {
        "complete": True,
        "contract": result.contract.value,
        "soloist": result.soloist,
        "re": list(result.re),
        "kontra": list(result.kontra),
        "card_points": {"re": result.re_points, "kontra": result.kontra_points},
        "tricks_won": {"re": result.re_tricks, "kontra": result.kontra_tricks},
        "winner": result.winner.value if result.winner else None,
        "game_value": result.game_value,
        "breakdown": [
            {"item": i.item, "party": i.party.value, "points": i.points} for i in result.breakdown
        ],
        "scores": list(result.scores),
        **({"bock": result.bock} if result.bock > 1 else {}),
        **({"bock_rounds": result.bock_rounds} if result.bock_rounds else {}),
        # A compulsory solo (Pflichtsolo) is marked, for the list's own column.
        **({"compulsory": True} if result.compulsory else {}),
    }


def outcome(state: GameState) -> dict[str, Any]:
    """The replay output for ``state``: a finished game's result or what may happen next."""
    if state.is_redeal:
        thrown = state.thrown_by
        return {
            "complete": True,
            "contract": state.parties.contract.value if state.parties.contract else None,
            "redeal": True,
            **(
                {
                    "thrown_by": thrown,
                    "thrown_for": [
                        r.value for r in throw_reasons(state.hands[thrown], state.rules)
                    ],
                }
                if thrown is not None
                else {}
            ),
            "soloist": None,
            "re": [],
            "kontra": [],
            "card_points": {"re": 0, "kontra": 0},
            "tricks_won": {"re": 0, "kontra": 0},
            "winner": None,
            "game_value": 0,
            "breakdown": [],
            "scores": [0, 0, 0, 0],
        }
    if state.phase is Phase.FINISHED:
        return result_to_json(score(state))
    return {
        "complete": False,
        "phase": state.phase.value,
        "to_act": state.to_act,
        "legal": legal_words(state),
        "may_announce": {
            str(seat): [
                lvl.word(state.party(seat) or Party.RE) for lvl in may_announce(state, seat)
            ]
            for seat in range(4)
        },
    }


def legal_words(state: GameState) -> list[str]:
    """What the seat to act may choose, each once: cards, bids or poverty answers."""
    if state.phase is Phase.BIDDING:
        return [bid.value for bid in legal_bids(state)]
    if state.phase is Phase.PLAY:
        order = state.parties.order
        words = [c.name for c in sorted(legal_cards(state), key=order.sort_key)]
        turn = state.to_act
        # Declarations the seat to act may make (house rules, docs/rules.md §9.1, §9.4).
        for action in legal_actions(state, turn):
            if isinstance(action, Declare):
                words.append(f"declare:{Declaration(action.what).value}")
            elif isinstance(action, Genscher):
                words.append(f"genscher:{action.partner}")
        return words
    poverty = state.poverty
    assert poverty is not None and state.to_act is not None
    if poverty.passed and poverty.acceptor is None:
        return ["accept", "decline"]
    # Only cards that belong to some legal set of three (the poor player's sets
    # hold all their trumps, docs/rules.md §4).
    cards = {
        c
        for action in legal_actions(state)
        if isinstance(action, (PassCards, ReturnCards))
        for c in action.cards
    }
    return [c.name for c in sorted(cards, key=state.parties.order.sort_key)]


def replay_text(text: str) -> dict[str, Any]:
    """Parse a record from JSON text and return the replay output; raises ``RecordError``."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"invalid JSON: line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise RecordError("invalid JSON: nested too deeply") from None
    return outcome(replay(record))
