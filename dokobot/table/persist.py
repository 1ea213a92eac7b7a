"""Between the engine and storage: records in, results out."""

from __future__ import annotations

from typing import Any

from dokobot.engine import GameState, outcome, to_record
from dokobot.storage import FinishedGame


def record_header(state: GameState) -> dict[str, Any]:
    """The record of a freshly dealt game without its actions."""
    record = to_record(state)
    record.pop("actions")
    return record


def finished_game(state: GameState) -> FinishedGame:
    """What storage keeps of a finished game: contract, result, each seat's score."""
    result = outcome(state)
    if result.get("redeal"):
        return FinishedGame(result["contract"], None, None, 0, (0, 0, 0, 0), (None,) * 4, result)
    parties = tuple("re" if seat in result["re"] else "kontra" for seat in range(4))
    return FinishedGame(
        contract=result["contract"],
        soloist=result["soloist"],
        winner=result["winner"],
        game_value=result["game_value"],
        scores=tuple(result["scores"]),
        parties=parties,
        result=result,
    )
