"""The Doppelkopf rules engine: pure, standard library only.

``legal_actions(state)`` and ``apply(state, action)`` are the one source of truth
for what may happen in a game; ``score(state)`` says what a finished game is worth.
"""

from .actions import (
    Action,
    Announce,
    Announcement,
    Bid,
    Party,
    PassCards,
    Play,
    PovertyReply,
    Reservation,
    ReturnCards,
)
from .cards import CARDS, DECK_POINTS, Card, Rank, Suit, deal, make_deck, parse_cards
from .contracts import NORMAL_ORDER, TRUMP, CardOrder, Contract, card_order
from .game import (
    apply,
    legal_actions,
    legal_bids,
    legal_cards,
    may_announce,
    new_game,
    trick_winner,
    trump_count,
)
from .record import FORMAT, RecordError, outcome, replay, replay_text, to_record
from .rules import (
    DDV,
    Dullen,
    MarriageClarification,
    ReservationPriority,
    RuleError,
    RuleSet,
    SoloType,
)
from .scoring import GameNotFinishedError, GameResult, ScoreItem, score
from .session import Session, SessionGame
from .state import (
    Calls,
    GameSetup,
    GameState,
    IllegalActionError,
    Made,
    Parties,
    Phase,
    Poverty,
    Trick,
)
from .view import PlayerView, known_parties, player_view

__all__ = [
    "CARDS",
    "DDV",
    "DECK_POINTS",
    "FORMAT",
    "NORMAL_ORDER",
    "TRUMP",
    "Action",
    "Announce",
    "Announcement",
    "Bid",
    "Calls",
    "Card",
    "CardOrder",
    "Contract",
    "Dullen",
    "GameNotFinishedError",
    "GameResult",
    "GameSetup",
    "GameState",
    "IllegalActionError",
    "Made",
    "MarriageClarification",
    "Parties",
    "Party",
    "PassCards",
    "Phase",
    "Play",
    "PlayerView",
    "Poverty",
    "PovertyReply",
    "Rank",
    "RecordError",
    "Reservation",
    "ReservationPriority",
    "ReturnCards",
    "RuleError",
    "RuleSet",
    "ScoreItem",
    "Session",
    "SessionGame",
    "SoloType",
    "Suit",
    "Trick",
    "apply",
    "card_order",
    "deal",
    "known_parties",
    "legal_actions",
    "legal_bids",
    "legal_cards",
    "make_deck",
    "may_announce",
    "new_game",
    "outcome",
    "parse_cards",
    "player_view",
    "replay",
    "replay_text",
    "score",
    "to_record",
    "trick_winner",
    "trump_count",
]
