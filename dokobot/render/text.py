"""Display words: contract names, breakdown lines, bids and announcements, in both languages.

German game terms (Re, Kontra, Hochzeit, Armut, Fuchs, Karlchen, Doppelkopf) are
used in English too, where players use them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dokobot.i18n import DEFAULT, N_, T

CONTRACT_NAMES = {
    "normal": N_("Normal game"),
    "marriage": N_("Marriage (Hochzeit)"),
    "marriage_alone": N_("Marriage, played alone"),
    "silent_marriage": N_("Silent marriage"),
    "poverty": N_("Poverty (Armut)"),
    "solo:queen": N_("Queen solo (Damensolo)"),
    "solo:jack": N_("Jack solo (Bubensolo)"),
    "solo:king": N_("King solo (Königssolo)"),
    "solo:meatless": N_("Meatless (Fleischloser)"),
    "solo:clubs": N_("Clubs solo ♣"),
    "solo:spades": N_("Spades solo ♠"),
    "solo:hearts": N_("Hearts solo ♥"),
    "solo:diamonds": N_("Diamonds solo ♦"),
    "schwarze_sau": N_("Schwarze Sau"),
    "ramsch": N_("Ramsch"),
}

#: The score sheet's short tags (German terms in both languages, as on paper lists).
SHORT_CONTRACTS = {
    "normal": "",
    "marriage": "Hochzeit",
    "marriage_alone": "Hochzeit allein",
    "silent_marriage": "Stille Hochzeit",
    "poverty": "Armut",
    "solo:queen": "Damensolo",
    "solo:jack": "Bubensolo",
    "solo:king": "Königssolo",
    "solo:meatless": "Fleischloser",
    "solo:clubs": "Solo ♣",
    "solo:spades": "Solo ♠",
    "solo:hearts": "Solo ♥",
    "solo:diamonds": "Solo ♦",
    "schwarze_sau": "Schwarze Sau",
    "ramsch": "Ramsch",
}

ITEM_NAMES = {
    "won": N_("Won"),
    "under_90": N_("Opponents under 90"),
    "under_60": N_("Opponents under 60"),
    "under_30": N_("Opponents under 30"),
    "schwarz": N_("Opponents without a trick (schwarz)"),
    "re_announced": N_("Re announced"),
    "kontra_announced": N_("Kontra announced"),
    "no90_announced": N_("No 90 announced"),
    "no60_announced": N_("No 60 announced"),
    "no30_announced": N_("No 30 announced"),
    "schwarz_announced": N_("Schwarz announced"),
    "120_against_no90": N_("120 against no 90"),
    "90_against_no60": N_("90 against no 60"),
    "60_against_no30": N_("60 against no 30"),
    "30_against_schwarz": N_("30 against schwarz"),
    "against_the_queens": N_("Against the queens (gegen die Alten)"),
    "doppelkopf": N_("Doppelkopf (trick of 40+)"),
    "fox_caught": N_("Fox caught (Fuchs)"),
    "karlchen": N_("Karlchen (last trick with ♣J)"),
    "re_doubles": N_("Re doubles"),
    "kontra_doubles": N_("Kontra doubles"),
    "dulle_caught": N_("♥10 caught"),
    "aces_and_kings": N_("Trick of two aces and two kings"),
    "karlchen_caught": N_("Karlchen caught (♣J lost in the last trick)"),
    "lieschen_mueller": N_("Lieschen Müller (♦Q catches the ♣J)"),
    "solo_doubled": N_("Solo counts double"),
    "bock": N_("Bock (doubled)"),
    "ramsch_most_points": N_("Ramsch: the most card points lose"),
}

#: House-rule calls (docs/rules.md §9.1, §9.4), as buttons and in the channel.
CALL_NAMES = {
    "schweinchen": N_("Schweinchen 🐷"),
    "superschweinchen": N_("Superschweinchen 🐷🐷"),
    "half_chicken": N_("Half chicken 🐔"),
    "genscher": "Genscher",
}


def call_name(what: str, lang: str = DEFAULT) -> str:
    """``schweinchen`` → ``Schweinchen 🐷``."""
    return T(lang, CALL_NAMES.get(what, what))


ANNOUNCEMENT_NAMES = {
    "re": "Re",
    "kontra": "Kontra",
    "no90": N_("No 90"),
    "no60": N_("No 60"),
    "no30": N_("No 30"),
    "schwarz": N_("Schwarz"),
}

BID_NAMES = {
    "healthy": N_("Healthy (gesund)"),
    "reservation": N_("Reservation (Vorbehalt)"),
    "marriage": N_("Marriage (Hochzeit)"),
    "poverty": N_("Poverty (Armut)"),
    "throw": N_("Throw in the hand"),
}

#: Short bid words for buttons.
BID_LABELS = {
    "healthy": N_("Healthy"),
    "marriage": N_("Marriage"),
    "poverty": N_("Poverty"),
    "solo:queen": N_("Queen solo"),
    "solo:jack": N_("Jack solo"),
    "solo:king": N_("King solo"),
    "solo:meatless": N_("Meatless"),
    "solo:clubs": N_("♣ solo"),
    "solo:spades": N_("♠ solo"),
    "solo:hearts": N_("♥ solo"),
    "solo:diamonds": N_("♦ solo"),
    "throw": N_("Throw in"),
}


def bid_name(word: str, lang: str = DEFAULT) -> str:
    """``solo:queen`` → ``Queen solo (Damensolo)``, ``healthy`` → ``Healthy (gesund)``."""
    return T(lang, BID_NAMES.get(word) or CONTRACT_NAMES.get(word, word))


def bid_label(lang: str, word: str) -> str:
    """A bid's button: ``Healthy``, ``Queen solo`` …"""
    return T(lang, BID_LABELS.get(word, word))


def announcement_name(word: str, lang: str = DEFAULT) -> str:
    """``no90`` → ``No 90`` (``Keine 90``)."""
    return T(lang, ANNOUNCEMENT_NAMES.get(word, word))


def contract_name(contract: str | None, lang: str = DEFAULT) -> str:
    if contract is None:
        return T(lang, "Redeal")
    return T(lang, CONTRACT_NAMES.get(contract, contract))


def item_name(item: str, lang: str = DEFAULT) -> str:
    return T(lang, ITEM_NAMES.get(item, item.replace("_", " ")))


def party_name(party: str | None) -> str:
    """Re and Kontra are the same words in both languages."""
    return {"re": "Re", "kontra": "Kontra"}.get(party or "", "—")


def signed_breakdown(result: dict[str, Any]) -> list[tuple[str, str, int]]:
    """The value breakdown as it adds up: ``(item, party, points)`` with the points of
    the side the value is scored for (the winners; Re when nobody wins) positive and
    the other side's extra points negative, so the lines sum to the game value."""
    side = result.get("winner") or "re"
    return [
        (i["item"], i["party"], i["points"] if i["party"] == side else -i["points"])
        for i in result.get("breakdown", [])
    ]


def balances(totals: Sequence[int], stake: float) -> list[int]:
    """What each player receives (+) or pays (−) in cents at ``stake`` per point,
    everyone settling against the table's average."""
    average = sum(totals) / len(totals)
    return [round((total - average) * stake * 100) for total in totals]
