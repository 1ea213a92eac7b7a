"""The words that appear inside sentences as parameters (catalogue context ``term``)."""

from __future__ import annotations

TERM_WORDS = (
    # What a player tried to do (docs: the engine's wrong-phase message).
    "play a card",
    "bid",
    "put down cards",
    "answer the poverty",
    "give cards back",
    # Phases of a game.
    "bidding",
    "poverty",
    "play",
    "finished",
    # Announcements and parties.
    "Re",
    "Kontra",
    "no 90",
    "no 60",
    "no 30",
    "schwarz",
    # Solos.
    "queen",
    "jack",
    "king",
    "meatless",
    "clubs",
    "spades",
    "hearts",
    "diamonds",
    # House-rule calls (docs/rules.md §9.1).
    "Schweinchen",
    "Superschweinchen",
    "Half chicken",
)
