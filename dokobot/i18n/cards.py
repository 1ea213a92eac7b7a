"""Cards as players type them, in English or German: ``CQ``, ``♣Q``, ``Kreuz Dame``,
``Herz 10``, ``Dulle``, ``♣D``, ``KD``."""

from __future__ import annotations

import re

from dokobot.engine import Card

#: Suit words and letters → the record's suit letter. German letters: K Kreuz,
#: P Pik, H Herz, K(aro) clashes with Kreuz, so Karo is written out or as "Ka".
SUITS = {
    "♣": "C",
    "C": "C",
    "CLUBS": "C",
    "CLUB": "C",
    "KREUZ": "C",
    "KR": "C",
    "K": "C",
    "♠": "S",
    "S": "S",
    "SPADES": "S",
    "SPADE": "S",
    "PIK": "S",
    "P": "S",
    "♥": "H",
    "H": "H",
    "HEARTS": "H",
    "HEART": "H",
    "HERZ": "H",
    "♦": "D",
    "D": "D",
    "DIAMONDS": "D",
    "DIAMOND": "D",
    "KARO": "D",
    "KA": "D",
}
#: Rank words; German D = Dame (queen), B = Bube (jack), K = König, A/As = ace.
RANKS = {
    "9": "9",
    "NEUN": "9",
    "NINE": "9",
    "10": "10",
    "ZEHN": "10",
    "TEN": "10",
    "J": "J",
    "JACK": "J",
    "B": "J",
    "BUBE": "J",
    "Q": "Q",
    "QUEEN": "Q",
    "D": "Q",
    "DAME": "Q",
    "K": "K",
    "KING": "K",
    "KÖNIG": "K",
    "KOENIG": "K",
    "A": "A",
    "ACE": "A",
    "ASS": "A",
    "AS": "A",
}
NICKNAMES = {"DULLE": "H10", "FUCHS": "DA", "FOX": "DA", "KARLCHEN": "CJ", "ALTE": "CQ"}
_SPLIT = re.compile(r"^(♣|♠|♥|♦|[A-ZÄÖÜ]+?)\s*-?\s*(10|9|[A-ZÄÖÜ]+)$")


def card_from_text(text: str) -> Card:
    """The card a player typed; raises ``ValueError`` when it names none."""
    t = " ".join(text.strip().upper().split())
    if t in NICKNAMES:
        return Card.parse(NICKNAMES[t])
    try:
        return Card.parse(t.replace(" ", ""))
    except ValueError:
        pass
    words = t.split(" ")
    if len(words) == 2 and words[0] in SUITS and words[1] in RANKS:
        return Card.parse(SUITS[words[0]] + RANKS[words[1]])
    compact = t.replace(" ", "")
    for symbol in "♣♠♥♦":
        if compact.startswith(symbol):
            rank = RANKS.get(compact[1:])
            if rank:
                return Card.parse(SUITS[symbol] + rank)
    match = _SPLIT.match(compact)
    if match and match[1] in SUITS and match[2] in RANKS:
        return Card.parse(SUITS[match[1]] + RANKS[match[2]])
    raise ValueError(f"unknown card {text!r}")
