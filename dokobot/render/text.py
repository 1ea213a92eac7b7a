"""Display words: contract names, breakdown lines, card labels (English, German game terms)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

CONTRACT_NAMES = {
    "normal": "Normal game",
    "marriage": "Marriage (Hochzeit)",
    "marriage_alone": "Marriage, played alone",
    "silent_marriage": "Silent marriage",
    "poverty": "Poverty (Armut)",
    "solo:queen": "Queen solo (Damensolo)",
    "solo:jack": "Jack solo (Bubensolo)",
    "solo:king": "King solo",
    "solo:meatless": "Meatless (Fleischloser)",
    "solo:clubs": "Clubs solo ♣",
    "solo:spades": "Spades solo ♠",
    "solo:hearts": "Hearts solo ♥",
    "solo:diamonds": "Diamonds solo ♦",
}

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
}

ITEM_NAMES = {
    "won": "Won",
    "under_90": "Opponents under 90",
    "under_60": "Opponents under 60",
    "under_30": "Opponents under 30",
    "schwarz": "Opponents without a trick (schwarz)",
    "re_announced": "Re announced",
    "kontra_announced": "Kontra announced",
    "no90_announced": "No 90 announced",
    "no60_announced": "No 60 announced",
    "no30_announced": "No 30 announced",
    "schwarz_announced": "Schwarz announced",
    "120_against_no90": "120 against no 90",
    "90_against_no60": "90 against no 60",
    "60_against_no30": "60 against no 30",
    "30_against_schwarz": "30 against schwarz",
    "against_the_queens": "Against the queens (gegen die Alten)",
    "doppelkopf": "Doppelkopf (trick of 40+)",
    "fox_caught": "Fox caught (Fuchs)",
    "karlchen": "Karlchen (last trick with ♣J)",
    "re_doubles": "Re doubles",
    "kontra_doubles": "Kontra doubles",
}


ANNOUNCEMENT_NAMES = {
    "re": "Re",
    "kontra": "Kontra",
    "no90": "No 90",
    "no60": "No 60",
    "no30": "No 30",
    "schwarz": "Schwarz",
}

BID_NAMES = {
    "healthy": "Healthy (gesund)",
    "reservation": "Reservation (Vorbehalt)",
    "marriage": "Marriage (Hochzeit)",
    "poverty": "Poverty (Armut)",
    "throw": "Throw in the hand",
}


def bid_name(word: str) -> str:
    """``solo:queen`` → ``Queen solo (Damensolo)``, ``healthy`` → ``Healthy (gesund)``."""
    return BID_NAMES.get(word) or CONTRACT_NAMES.get(word, word)


def announcement_name(word: str) -> str:
    """``no90`` → ``No 90``."""
    return ANNOUNCEMENT_NAMES.get(word, word)


def contract_name(contract: str | None) -> str:
    if contract is None:
        return "Redeal"
    return CONTRACT_NAMES.get(contract, contract)


def item_name(item: str) -> str:
    return ITEM_NAMES.get(item, item.replace("_", " "))


def party_name(party: str | None) -> str:
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
