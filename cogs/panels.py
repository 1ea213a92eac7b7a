"""Discord views: the public table message and a player's private hand panel."""

from __future__ import annotations

import asyncio
import io
import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from dokobot.engine import NORMAL_ORDER, Card, Phase, card_order
from dokobot.render import render_hand, sort_hand
from dokobot.render.text import contract_name, party_name
from dokobot.table.service import Panel, TableSnapshot

if TYPE_CHECKING:
    from dokobot.bot import DokoBot

ANNOUNCE_LABELS = {
    "re": "Re",
    "kontra": "Kontra",
    "no90": "No 90",
    "no60": "No 60",
    "no30": "No 30",
    "schwarz": "Schwarz",
}


def bot_of(interaction: discord.Interaction[Any]) -> DokoBot:
    return interaction.client  # type: ignore[no-any-return]


async def dispatch(interaction: discord.Interaction[Any], kind: str, **values: Any) -> None:
    cog = bot_of(interaction).get_cog("doko")
    await cog.on_component(interaction, kind, **values)  # type: ignore[union-attr]


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"doko:t:(?P<action>[a-z]+):(?P<table>\d+)",
):
    """A button of the public table message; survives restarts."""

    LABELS: ClassVar[dict[str, Any]] = {
        "join": ("Join", discord.ButtonStyle.success),
        "leave": ("Leave", discord.ButtonStyle.secondary),
        "leaveok": ("Yes, leave", discord.ButtonStyle.danger),
        "ai": ("Add AI", discord.ButtonStyle.secondary),
        "start": ("Start", discord.ButtonStyle.primary),
        "cards": ("My cards", discord.ButtonStyle.primary),
        "announce": ("Announce", discord.ButtonStyle.secondary),
    }

    def __init__(self, action: str, table_id: int) -> None:
        label, style = self.LABELS[action]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"doko:t:{action}:{table_id}")
        )
        self.action = action
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> TableButton:
        return cls(match["action"], int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, "table", action=self.action, table_id=self.table_id)


class CardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"doko:c:(?P<table>\d+):(?P<game>\d+):(?P<n>\d+):(?P<i>\d+):(?P<card>[A-Z0-9]+)",
):
    """Play one card of the hand panel."""

    def __init__(
        self,
        table_id: int,
        game: int,
        n: int,
        index: int,
        card: Card,
        *,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=f"{index + 1} · {card.label}",
            style=discord.ButtonStyle.primary if not disabled else discord.ButtonStyle.secondary,
            custom_id=f"doko:c:{table_id}:{game}:{n}:{index}:{card.name}",
            disabled=disabled,
            row=row,
        )
        super().__init__(button)
        self.table_id, self.game, self.n, self.card = table_id, game, n, card

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> CardButton:
        return cls(
            int(match["table"]),
            int(match["game"]),
            int(match["n"]),
            int(match["i"]),
            Card.parse(match["card"]),
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(
            interaction, "card", table_id=self.table_id, game=self.game, n=self.n, card=self.card
        )


class BidButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"doko:b:(?P<table>\d+):(?P<game>\d+):(?P<n>\d+):(?P<bid>[a-z.]+)",
):
    """Say healthy or a reservation."""

    LABELS: ClassVar[dict[str, Any]] = {
        "healthy": "Healthy",
        "marriage": "Marriage",
        "poverty": "Poverty",
        "solo:queen": "Queen solo",
        "solo:jack": "Jack solo",
        "solo:king": "King solo",
        "solo:meatless": "Meatless",
        "solo:clubs": "♣ solo",
        "solo:spades": "♠ solo",
        "solo:hearts": "♥ solo",
        "solo:diamonds": "♦ solo",
        "throw": "Throw in",
    }

    def __init__(
        self, table_id: int, game: int, n: int, bid: str, *, row: int | None = None
    ) -> None:
        style = discord.ButtonStyle.success if bid == "healthy" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=self.LABELS.get(bid, bid),
                style=style,
                row=row,
                custom_id=f"doko:b:{table_id}:{game}:{n}:{bid.replace(':', '.')}",
            )
        )
        self.table_id, self.game, self.n, self.bid = table_id, game, n, bid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> BidButton:
        return cls(
            int(match["table"]), int(match["game"]), int(match["n"]), match["bid"].replace(".", ":")
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(
            interaction, "bid", table_id=self.table_id, game=self.game, n=self.n, bid=self.bid
        )


class AnnounceButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"doko:a:(?P<table>\d+):(?P<game>\d+):(?P<word>[a-z0-9]+)",
):
    """Make an announcement (Re, Kontra, no 90 …)."""

    def __init__(self, table_id: int, game: int, word: str, *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=ANNOUNCE_LABELS.get(word, word),
                style=discord.ButtonStyle.danger,
                row=row,
                custom_id=f"doko:a:{table_id}:{game}:{word}",
            )
        )
        self.table_id, self.game, self.word = table_id, game, word

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> AnnounceButton:
        return cls(int(match["table"]), int(match["game"]), match["word"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(
            interaction, "announce", table_id=self.table_id, game=self.game, word=self.word
        )


class PanelButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"doko:p:(?P<action>[a-z]+):(?P<table>\d+):(?P<game>\d+):(?P<n>\d+)",
):
    """Refresh, come back from the AI, accept or decline a poverty."""

    LABELS: ClassVar[dict[str, Any]] = {
        "refresh": ("Refresh", discord.ButtonStyle.secondary),
        "back": ("I'm back", discord.ButtonStyle.success),
        "accept": ("Accept the poverty", discord.ButtonStyle.success),
        "decline": ("Decline", discord.ButtonStyle.secondary),
    }

    def __init__(
        self, action: str, table_id: int, game: int, n: int, *, row: int | None = None
    ) -> None:
        label, style = self.LABELS[action]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                row=row,
                custom_id=f"doko:p:{action}:{table_id}:{game}:{n}",
            )
        )
        self.action, self.table_id, self.game, self.n = action, table_id, game, n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> PanelButton:
        return cls(match["action"], int(match["table"]), int(match["game"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(
            interaction,
            "panel",
            action=self.action,
            table_id=self.table_id,
            game=self.game,
            n=self.n,
        )


class CardsSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"doko:s:(?P<step>pass|return):(?P<table>\d+):(?P<game>\d+):(?P<n>\d+)",
):
    """Choose three cards to put down (poverty) or to give back (acceptor)."""

    def __init__(
        self, step: str, table_id: int, game: int, n: int, cards: list[Card] | None = None
    ) -> None:
        placeholder = (
            "Put down three cards (all your trumps)" if step == "pass" else "Give back three cards"
        )
        options = [
            discord.SelectOption(label=f"{i + 1} · {c.label}", value=f"{i}:{c.name}")
            for i, c in enumerate(cards or [])
        ]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"doko:s:{step}:{table_id}:{game}:{n}",
            placeholder=placeholder,
            min_values=3,
            max_values=3,
            options=options or [discord.SelectOption(label="-")],
            row=0,
        )
        super().__init__(select)
        self.step, self.table_id, self.game, self.n = step, table_id, game, n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> CardsSelect:
        return cls(match["step"], int(match["table"]), int(match["game"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        cards = tuple(Card.parse(v.split(":")[1]) for v in values)
        await dispatch(
            interaction,
            "cards",
            step=self.step,
            table_id=self.table_id,
            game=self.game,
            n=self.n,
            cards=cards,
        )


DYNAMIC_ITEMS = (TableButton, CardButton, BidButton, AnnounceButton, PanelButton, CardsSelect)


# ---------------------------------------------------------------------------- table message


def table_view(snapshot: TableSnapshot) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    actions = (
        ("cards", "announce", "leave")
        if snapshot.status == "playing"
        else ("join", "leave", "ai", "start")
    )
    for action in actions:
        view.add_item(TableButton(action, snapshot.table_id))
    return view


def table_text(snapshot: TableSnapshot) -> str:
    """The public table message: seats, dealer, whose turn, contract, announcements, totals."""
    names = snapshot.names
    lines = ["**Doppelkopf**" + (f" · Game {snapshot.game_number}" if snapshot.game_number else "")]
    seats = []
    for i, seat in enumerate(snapshot.seats):
        if seat is None:
            seats.append(f"{i + 1}. *free*")
            continue
        tag = " (AI)" if seat.is_ai else (" (AI plays)" if seat.away else "")
        owner = " ★" if seat.player_id == snapshot.owner_id else ""
        dealer = " · deals" if snapshot.dealer == i else ""
        seats.append(f"{i + 1}. {discord.utils.escape_markdown(seat.name)}{owner}{tag}{dealer}")
    lines.append(" | ".join(seats))
    if snapshot.status != "playing":
        lines.append("Join, add AI players, then the owner starts. Empty seats get AI players.")
        if snapshot.games_played:
            lines.append(_totals(snapshot))
        return "\n".join(lines)
    if snapshot.phase is Phase.BIDDING:
        lines.append("Reservations: healthy or a reservation?")
    elif snapshot.contract is not None:
        text = contract_name(snapshot.contract.value)
        if snapshot.declarer is not None:
            text += f" ({names[snapshot.declarer]})"
        lines.append(f"Contract: {text}")
    if snapshot.announcements:
        made = ", ".join(
            f"{ANNOUNCE_LABELS.get(w, w)} ({names[s]})" for s, w in snapshot.announcements
        )
        lines.append(f"Announced: {made}")
    if snapshot.trick:
        played = ", ".join(f"{names[s]} {c.label}" for s, c in snapshot.trick)
        lines.append(f"Trick {snapshot.tricks_played + 1}: {played}")
    if snapshot.to_act is not None:
        seat = snapshot.seats[snapshot.to_act]
        if seat is not None and not seat.is_ai and not seat.away:
            lines.append(f"▶ Your turn, <@{seat.player_id}>")
        else:
            lines.append(f"▶ {names[snapshot.to_act]} is thinking …")
    lines.append(_totals(snapshot))
    return "\n".join(lines)


def _totals(snapshot: TableSnapshot) -> str:
    return "Score sheet: " + " · ".join(
        f"{name} {total:+d}" for name, total in zip(snapshot.names, snapshot.totals, strict=True)
    )


# ---------------------------------------------------------------------------- hand panel


async def hand_panel(
    snapshot: TableSnapshot, panel: Panel
) -> tuple[str, discord.File, discord.ui.View]:
    """The private panel: text, the hand image and one button per card and choice."""
    view_ = panel.view
    order = card_order(view_.contract) if view_.contract else NORMAL_ORDER
    cards = sort_hand(list(panel.cards), order)
    playing = view_.phase is Phase.PLAY and panel.is_turn
    png = await asyncio.to_thread(
        render_hand, cards, order=order, playable=panel.playable if playing else None
    )
    file = discord.File(io.BytesIO(png), filename="hand.png")
    ui = discord.ui.View(timeout=None)
    # Buttons carry the turn number, which announcements leave alone (see Panel.turn_no).
    t, g, n = snapshot.table_id, panel.game_number, panel.turn_no
    if view_.phase is Phase.PLAY:
        for i, card in enumerate(cards):
            ui.add_item(
                CardButton(
                    t, g, n, i, card, disabled=not playing or card not in panel.playable, row=i // 5
                )
            )
    elif view_.phase is Phase.BIDDING and panel.is_turn:
        for i, bid in enumerate(panel.bids):
            ui.add_item(BidButton(t, g, n, bid.value, row=i // 5))
    elif panel.poverty_step == "reply":
        ui.add_item(PanelButton("accept", t, g, n, row=0))
        ui.add_item(PanelButton("decline", t, g, n, row=0))
    elif panel.poverty_step in ("pass", "return"):
        ui.add_item(CardsSelect(panel.poverty_step, t, g, n, cards))
    for word in panel.announcements[:5]:
        ui.add_item(AnnounceButton(t, g, word, row=3))
    ui.add_item(PanelButton("refresh", t, g, n, row=4))
    if panel.away:
        ui.add_item(PanelButton("back", t, g, n, row=4))
    return panel_text(snapshot, panel), file, ui


def panel_text(snapshot: TableSnapshot, panel: Panel) -> str:
    view = panel.view
    names = snapshot.names
    contract = contract_name(view.contract.value) if view.contract else "reservations"
    party = view.own_party
    lines = [
        f"**Game {panel.game_number}** · {contract}"
        + (f" · you play **{party_name(party.value)}**" if party else "")
    ]
    if panel.away:
        lines.append("The AI plays your seat. Press **I'm back** to take it over again.")
    if view.trick:
        lines.append("On the table: " + ", ".join(f"{names[s]} {c.label}" for s, c in view.trick))
    elif view.tricks:
        last = view.tricks[-1]
        lines.append(f"Last trick to {names[last.winner]} ({last.points} points)")
    if panel.is_turn:
        if view.phase is Phase.BIDDING:
            lines.append("**Your turn:** healthy, or a reservation?")
        elif panel.poverty_step == "pass":
            lines.append("**Your turn:** put down three cards, all your trumps among them.")
        elif panel.poverty_step == "reply":
            lines.append(
                "**Your turn:** accept the poverty (you take three cards, give three back)?"
            )
        elif panel.poverty_step == "return":
            lines.append("**Your turn:** give three cards back to the poor player.")
        else:
            lines.append("**Your turn:** tap a card (the numbers match the picture).")
    elif view.to_act is not None:
        lines.append(f"Waiting for {names[view.to_act]}.")
    if panel.announcements:
        lines.append(
            "You may announce: " + ", ".join(ANNOUNCE_LABELS.get(w, w) for w in panel.announcements)
        )
    return "\n".join(lines)
