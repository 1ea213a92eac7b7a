"""Pillow images: hand, trick, game result, score sheet, leaderboard -> PNG bytes.

Every function is pure (same input, same bytes) and CPU-bound: call it off the
event loop (``asyncio.to_thread``).
"""

from .hand import render_hand, sort_hand
from .tables import render_leaderboard, render_result, render_score_sheet
from .trick import render_trick

__all__ = [
    "render_hand",
    "render_leaderboard",
    "render_result",
    "render_score_sheet",
    "render_trick",
    "sort_hand",
]
