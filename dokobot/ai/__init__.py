"""AI players behind one ``Strategy`` protocol; they see a ``PlayerView``, never the state."""

from __future__ import annotations

from collections.abc import Callable

from .base import EasyStrategy, RandomStrategy, Strategy
from .heuristic import HeuristicStrategy
from .strong import StrongStrategy

#: The AI levels: ``random`` is the yardstick; ``heuristic`` is also called ``normal``.
LEVELS: dict[str, Callable[[], Strategy]] = {
    "random": RandomStrategy,
    "heuristic": HeuristicStrategy,
    "normal": HeuristicStrategy,
    "strong": StrongStrategy,
    "easy": EasyStrategy,
}


def make_strategy(
    level: str, *, samples: int | None = None, budget_ms: float | None = None
) -> Strategy:
    """A fresh AI player of ``level`` (``random``, ``heuristic``/``normal`` or ``strong``).

    ``samples`` and ``budget_ms`` set the strong player's search (others ignore them).
    """
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown AI level {level!r}; choose {', '.join(LEVELS)}") from None
    if factory is StrongStrategy and (samples is not None or budget_ms is not None):
        return StrongStrategy(samples=samples or StrongStrategy.samples, budget_ms=budget_ms)
    return factory()


__all__ = [
    "LEVELS",
    "EasyStrategy",
    "HeuristicStrategy",
    "RandomStrategy",
    "Strategy",
    "StrongStrategy",
    "make_strategy",
]
