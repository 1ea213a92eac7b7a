"""AI players behind one ``Strategy`` protocol; they see a ``PlayerView``, never the state."""

from __future__ import annotations

from .base import RandomStrategy, Strategy
from .heuristic import HeuristicStrategy

LEVELS: dict[str, type[RandomStrategy] | type[HeuristicStrategy]] = {
    "random": RandomStrategy,
    "heuristic": HeuristicStrategy,
}


def make_strategy(level: str) -> Strategy:
    """A fresh AI player of ``level`` (``random`` or ``heuristic``)."""
    try:
        return LEVELS[level]()
    except KeyError:
        raise ValueError(f"unknown AI level {level!r}; choose {', '.join(LEVELS)}") from None


__all__ = ["LEVELS", "HeuristicStrategy", "RandomStrategy", "Strategy", "make_strategy"]
