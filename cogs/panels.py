"""Discord views: the public table message and a player's private hand panel."""

from __future__ import annotations

import asyncio
import io
import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from dokobot.engine import Card, Phase
from dokobot.i18n import N_, T, card_label
from dokobot.render import render_hand, sort_hand
from dokobot.render.text import (
    announcement_name,
    bid_label,
    call_name,
    contract_name,
    party_name,
)
from dokobot.table.service import Panel, TableSnapshot

from .modes import progress_text
from .rules_help import rules_line

if TYPE_CHECKING:
    from dokobot.bot import DokoBot


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
        "join": (N_("Join"), discord.ButtonStyle.success),
        "leave": (N_("Leave"), discord.ButtonStyle.secondary),
        "leaveok": (N_("Yes, leave"), discord.ButtonStyle.danger),
        "ai": (N_("Add AI"), discord.ButtonStyle.secondary),
        "start": (N_("Start"), discord.ButtonStyle.primary),
        "cards": (N_("My cards"), discord.ButtonStyle.primary),
        "announce": (N_("Announce"), discord.ButtonStyle.secondary),
    }

    def __init__(self, action: str, table_id: int, lang: str = "en") -> None:
        label, style = self.LABELS[action]
        super().__init__(
            discord.ui.Button(
                label=T(lang, label), style=style, custom_id=f"doko:t:{action}:{table_id}"
            )
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
        lang: str = "en",
    ) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=f"{index + 1} · {card_label(card, lang)}",
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

    def __init__(
        self,
        table_id: int,
        game: int,
        n: int,
        bid: str,
        *,
        row: int | None = None,
        lang: str = "en",
    ) -> None:
        style = discord.ButtonStyle.success if bid == "healthy" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=bid_label(lang, bid),
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

    def __init__(
        self, table_id: int, game: int, word: str, *, row: int | None = None, lang: str = "en"
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=announcement_name(word, lang),
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


class CallButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"doko:d:(?P<table>\d+):(?P<game>\d+):(?P<what>[a-z_]+)",
):
    """Declare Schweinchen, Superschweinchen or half chicken (house rules)."""

    def __init__(self, table_id: int, game: int, what: str, *, lang: str = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=call_name(what, lang),
                style=discord.ButtonStyle.primary,
                custom_id=f"doko:d:{table_id}:{game}:{what}",
            )
        )
        self.table_id, self.game, self.what = table_id, game, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> CallButton:
        return cls(int(match["table"]), int(match["game"]), match["what"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(
            interaction, "declare", table_id=self.table_id, game=self.game, what=self.what
        )


class GenscherButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"doko:g:(?P<table>\d+):(?P<game>\d+):(?P<n>\d+):(?P<seat>[0-3])",
):
    """Genscher: name a new partner (house rule, docs/rules.md §9.4)."""

    def __init__(
        self, table_id: int, game: int, n: int, seat: int, name: str = "", *, lang: str = "en"
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=T(lang, "Genscher: {name}", name=name or str(seat + 1))[:80],
                style=discord.ButtonStyle.primary,
                custom_id=f"doko:g:{table_id}:{game}:{n}:{seat}",
            )
        )
        self.table_id, self.game, self.n, self.seat = table_id, game, n, seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> GenscherButton:
        return cls(int(match["table"]), int(match["game"]), int(match["n"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(
            interaction,
            "genscher",
            table_id=self.table_id,
            game=self.game,
            n=self.n,
            seat=self.seat,
        )


class PanelButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"doko:p:(?P<action>[a-z]+):(?P<table>\d+):(?P<game>\d+):(?P<n>\d+)",
):
    """Refresh, come back from the AI, accept or decline a poverty."""

    LABELS: ClassVar[dict[str, Any]] = {
        "refresh": (N_("Refresh"), discord.ButtonStyle.secondary),
        "back": (N_("I'm back"), discord.ButtonStyle.success),
        "accept": (N_("Accept the poverty"), discord.ButtonStyle.success),
        "decline": (N_("Decline"), discord.ButtonStyle.secondary),
    }

    def __init__(
        self,
        action: str,
        table_id: int,
        game: int,
        n: int,
        *,
        row: int | None = None,
        lang: str = "en",
    ) -> None:
        label, style = self.LABELS[action]
        super().__init__(
            discord.ui.Button(
                label=T(lang, label),
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
        self,
        step: str,
        table_id: int,
        game: int,
        n: int,
        cards: list[Card] | None = None,
        lang: str = "en",
        count: int = 3,
    ) -> None:
        placeholder = (
            T(lang, "Put down {count} cards (all your trumps)", count=count)
            if step == "pass"
            else T(lang, "Give back {count} cards", count=count)
        )
        options = [
            discord.SelectOption(label=f"{i + 1} · {card_label(c, lang)}", value=f"{i}:{c.name}")
            for i, c in enumerate(cards or [])
        ]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"doko:s:{step}:{table_id}:{game}:{n}",
            placeholder=placeholder,
            min_values=count,
            max_values=count,
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


DYNAMIC_ITEMS = (
    TableButton,
    CardButton,
    BidButton,
    AnnounceButton,
    CallButton,
    GenscherButton,
    PanelButton,
    CardsSelect,
)


# ---------------------------------------------------------------------------- table message


def table_view(snapshot: TableSnapshot, lang: str = "en") -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    actions = (
        ("cards", "announce", "leave")
        if snapshot.status == "playing"
        else ("join", "leave", "ai", "start")
    )
    for action in actions:
        view.add_item(TableButton(action, snapshot.table_id, lang))
    return view


#: How the table names each AI level.
AI_LEVEL_NAMES = {
    "easy": N_("easy"),
    "heuristic": N_("normal"),
    "normal": N_("normal"),
    "strong": N_("strong"),
    "random": N_("random"),
}


def table_text(snapshot: TableSnapshot, lang: str = "en") -> str:
    """The public table message: seats, dealer, whose turn, contract, announcements, totals."""
    names = snapshot.names
    game = T(lang, " · Game {number}", number=snapshot.game_number) if snapshot.game_number else ""
    lines = ["**Doppelkopf**" + game]
    seats = []
    for i, seat in enumerate(snapshot.seats):
        if seat is None:
            seats.append(f"{i + 1}. *{T(lang, 'free')}*")
            continue
        tag = (
            T(lang, " (AI · {level})", level=T(lang, AI_LEVEL_NAMES.get(seat.ai_level or "", "")))
            if seat.is_ai and seat.ai_level in AI_LEVEL_NAMES
            else T(lang, " (AI)")
            if seat.is_ai
            else (T(lang, " (AI plays)") if seat.away else "")
        )
        owner = " ★" if seat.player_id == snapshot.owner_id else ""
        dealer = T(lang, " · deals") if snapshot.dealer == i else ""
        seats.append(f"{i + 1}. {discord.utils.escape_markdown(seat.name)}{owner}{tag}{dealer}")
    lines.append(" | ".join(seats))
    lines.append(progress_text(snapshot, lang))
    # The lobby shows the rules too: everybody sees them before the first card.
    lines.append(rules_line(snapshot.rules, lang))
    if snapshot.status != "playing":
        lines.append(
            T(lang, "Join, add AI players, then the owner starts. Empty seats get AI players.")
        )
        if snapshot.games_played:
            lines.append(_totals(snapshot, lang))
        return "\n".join(lines)
    if snapshot.phase is Phase.BIDDING:
        lines.append(T(lang, "Reservations: healthy or a reservation?"))
    elif snapshot.contract is not None:
        text = contract_name(snapshot.contract.value, lang)
        if snapshot.declarer is not None:
            text += f" ({names[snapshot.declarer]})"
        lines.append(T(lang, "Contract: {contract}", contract=text))
    if snapshot.announcements:
        made = ", ".join(
            f"{announcement_name(w, lang)} ({names[s]})" for s, w in snapshot.announcements
        )
        lines.append(T(lang, "Announced: {made}", made=made))
    if snapshot.trick:
        played = ", ".join(f"{names[s]} {card_label(c, lang)}" for s, c in snapshot.trick)
        lines.append(
            T(lang, "Trick {number}: {played}", number=snapshot.tricks_played + 1, played=played)
        )
    if snapshot.to_act is not None:
        seat = snapshot.seats[snapshot.to_act]
        if seat is not None and not seat.is_ai and not seat.away:
            lines.append(T(lang, "▶ Your turn, <@{user}>", user=seat.player_id))
        else:
            lines.append(T(lang, "▶ {name} is thinking …", name=names[snapshot.to_act]))
    lines.append(_totals(snapshot, lang))
    return "\n".join(lines)


def _totals(snapshot: TableSnapshot, lang: str) -> str:
    totals = " · ".join(
        f"{name} {total:+d}" for name, total in zip(snapshot.names, snapshot.totals, strict=True)
    )
    return T(lang, "Score sheet: {totals}", totals=totals)


# ---------------------------------------------------------------------------- hand panel


async def hand_panel(
    snapshot: TableSnapshot, panel: Panel, lang: str = "en"
) -> tuple[str, discord.File, discord.ui.View]:
    """The private panel: text, the hand image and one button per card and choice."""
    view_ = panel.view
    order = view_.order
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
                    t,
                    g,
                    n,
                    i,
                    card,
                    disabled=not playing or card not in panel.playable,
                    row=i // 5,
                    lang=lang,
                )
            )
    elif view_.phase is Phase.BIDDING and panel.is_turn:
        for i, bid in enumerate(panel.bids):
            ui.add_item(BidButton(t, g, n, bid.value, row=i // 5, lang=lang))
    elif panel.poverty_step == "reply":
        ui.add_item(PanelButton("accept", t, g, n, row=0, lang=lang))
        ui.add_item(PanelButton("decline", t, g, n, row=0, lang=lang))
    elif panel.poverty_step in ("pass", "return"):
        count = view_.rules.poverty_cards
        ui.add_item(CardsSelect(panel.poverty_step, t, g, n, cards, lang, count=count))
    for word in panel.announcements[:5]:
        ui.add_item(AnnounceButton(t, g, word, row=3, lang=lang))
    ui.add_item(PanelButton("refresh", t, g, n, row=4, lang=lang))
    if panel.away:
        ui.add_item(PanelButton("back", t, g, n, row=4, lang=lang))
    # House-rule calls take the free places after the cards (discord.py finds them).
    for what in panel.declarations:
        ui.add_item(CallButton(t, g, what, lang=lang))
    for seat in panel.genscher:
        ui.add_item(GenscherButton(t, g, n, seat, snapshot.names[seat], lang=lang))
    return panel_text(snapshot, panel, lang), file, ui


def panel_text(snapshot: TableSnapshot, panel: Panel, lang: str = "en") -> str:
    view = panel.view
    names = snapshot.names
    contract = (
        contract_name(view.contract.value, lang) if view.contract else T(lang, "reservations")
    )
    party = view.own_party
    head = T(lang, "**Game {number}** · {contract}", number=panel.game_number, contract=contract)
    if party:
        head += T(lang, " · you play **{party}**", party=party_name(party.value))
    lines = [head]
    if panel.away:
        lines.append(T(lang, "The AI plays your seat. Press **I'm back** to take it over again."))
    if view.trick:
        played = ", ".join(f"{names[s]} {card_label(c, lang)}" for s, c in view.trick)
        lines.append(T(lang, "On the table: {played}", played=played))
    elif view.tricks:
        last = view.tricks[-1]
        lines.append(
            T(
                lang,
                "Last trick to {name} ({points} points)",
                name=names[last.winner],
                points=last.points,
            )
        )
    if panel.is_turn:
        if view.phase is Phase.BIDDING:
            lines.append(T(lang, "**Your turn:** healthy, or a reservation?"))
        elif panel.owed is not None:
            lines.append(
                T(
                    lang,
                    "**Your turn:** you won a first trick of 30 or more, so announce {what} "
                    "before you lead (Zwingen).",
                    what=announcement_name(panel.owed, lang),
                )
            )
        elif panel.poverty_step == "pass":
            lines.append(
                T(
                    lang,
                    "**Your turn:** put down {count} cards, all your trumps among them.",
                    count=view.rules.poverty_cards,
                )
            )
        elif panel.poverty_step == "reply":
            lines.append(
                T(
                    lang,
                    "**Your turn:** accept the poverty (you take {count} cards, give {count} "
                    "back)?",
                    count=view.rules.poverty_cards,
                )
            )
        elif panel.poverty_step == "return":
            lines.append(
                T(
                    lang,
                    "**Your turn:** give {count} cards back to the poor player.",
                    count=view.rules.poverty_cards,
                )
            )
        else:
            lines.append(T(lang, "**Your turn:** tap a card (the numbers match the picture)."))
    elif view.to_act is not None:
        lines.append(T(lang, "Waiting for {name}.", name=names[view.to_act]))
    if panel.announcements:
        words = ", ".join(announcement_name(w, lang) for w in panel.announcements)
        lines.append(T(lang, "You may announce: {words}", words=words))
    if panel.declarations:
        calls = ", ".join(call_name(w, lang) for w in panel.declarations)
        lines.append(T(lang, "You may call: {calls}", calls=calls))
    if panel.genscher:
        lines.append(
            T(
                lang,
                "Genscher: you hold both ♦K; name your new partner as you play the first.",
            )
        )
    return "\n".join(lines)
