"""Shows the table service's events in Discord: table message, tricks, results, panels."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from dokobot.engine import Plan, settle
from dokobot.i18n import DEFAULT, N_, T, card_label, lang_of
from dokobot.render import render_result, render_score_sheet, render_trick
from dokobot.render.text import announcement_name, call_name
from dokobot.table import events as ev
from dokobot.table.service import TableError

from .delivery import Outbox, RequestBudget
from .panels import TableButton, hand_panel, table_text, table_view

if TYPE_CHECKING:
    from dokobot.bot import DokoBot

log = logging.getLogger("dokobot.discord")

#: Discord lets a bot edit an interaction's response (and send follow-ups) for 15 minutes.
PANEL_LIFETIME = 14 * 60
#: After this many public messages below it, a private panel is out of sight.
SCROLL_LIMIT = 8

CLOSED_TEXT = {
    "stopped": N_("stopped"),
    "everybody_left": N_("everybody left"),
    "no_humans": N_("no human players left"),
    "nobody_plays": N_("nobody played the last game"),
    "restore_failed": N_("it could not be restored after a restart"),
    "session_over": N_("the session is over"),
}


@dataclasses.dataclass(eq=False)
class PanelSlot:
    """A player's private hand panel: how to edit it, and what it shows."""

    edit: Callable[..., Awaitable[Any]]
    opened: float
    shown: int
    #: The channel's public post count when the panel was posted.
    posted_at: int
    task: asyncio.Task[None] | None = None
    dirty: bool = False
    #: The language of the player's Discord client.
    lang: str = DEFAULT


class Presenter:
    """Turns domain events into Discord messages; a hand only ever goes to its owner.

    Nothing here waits for Discord while handling an event: posts go to the
    channel's outbox, panel refreshes to their own task per player, so one slow
    request delays neither the table's other messages nor any other table.
    """

    def __init__(self, bot: DokoBot) -> None:
        self.bot = bot
        self.outboxes: dict[int, Outbox] = {}
        self.budget = (
            RequestBudget(bot.requests_per_second, bot.clock) if bot.requests_per_second else None
        )
        #: (channel, user) -> the user's private hand panel.
        self.panels: dict[tuple[int, int], PanelSlot] = {}
        #: (channel, user) -> their latest interaction there and when it came.
        self.latest: dict[tuple[int, int], tuple[discord.Interaction[Any], float]] = {}
        #: channel -> the turn for which a public "your turn" line was posted.
        self.called: dict[int, tuple[int, int]] = {}
        self.messages: dict[int, int] = {}
        #: Fresh panels being sent below the public posts (kept so they are not collected).
        self._below: dict[tuple[int, int], asyncio.Task[None]] = {}
        #: guild -> the language of its public messages and pictures.
        self.languages: dict[int, str] = {}

    async def guild_lang(self, guild_id: int) -> str:
        """The server's language: its setting, else its preferred locale, else English."""
        lang = self.languages.get(guild_id)
        if lang is None:
            settings = await self.bot.storage.settings.get(guild_id)
            chosen = settings.table_defaults.get("language")
            if chosen is None:
                guild = self.bot.get_guild(guild_id)
                chosen = lang_of(guild.preferred_locale) if guild is not None else DEFAULT
            lang = self.languages[guild_id] = chosen
        return lang

    def lang(self, guild_id: int) -> str:
        """The server's language as known (``guild_lang`` loads it)."""
        return self.languages.get(guild_id, DEFAULT)

    def outbox(self, channel_id: int) -> Outbox:
        box = self.outboxes.get(channel_id)
        if box is None:

            async def gone(reason: str) -> None:
                await self.channel_gone(channel_id, reason)

            box = self.outboxes[channel_id] = Outbox(
                self.bot.post_interval, self.budget, gone, self.bot.clock.sleep
            )
        return box

    def saw(self, interaction: discord.Interaction[Any]) -> None:
        """Remember a user's latest interaction: its token can reach them privately."""
        if interaction.channel_id is not None:
            key = (interaction.channel_id, interaction.user.id)
            self.latest[key] = (interaction, time.monotonic())

    def remember_panel(
        self,
        channel_id: int,
        user_id: int,
        interaction: discord.Interaction[Any],
        action_no: int,
        *,
        in_place: bool = False,
    ) -> None:
        """The panel is the response of ``interaction``; ``in_place``: the same message
        as before was edited, so it has not moved down the channel."""
        old = self.panels.get((channel_id, user_id))
        posted_at = self.outbox(channel_id).posted
        if in_place and old is not None:
            posted_at = old.posted_at
        slot = PanelSlot(
            interaction.edit_original_response,
            time.monotonic(),
            action_no,
            posted_at,
            lang=lang_of(interaction.locale),
        )
        if old is not None and old.task is not None and not old.task.done():
            slot.task, slot.dirty = old.task, old.dirty
        self.panels[(channel_id, user_id)] = slot
        self.saw(interaction)

    async def on_event(self, event: ev.Event) -> None:
        lang = await self.guild_lang(event.guild_id)
        snapshot = self.bot.tables.snapshot(event.channel_id)
        if isinstance(event, ev.GameStarted | ev.GameOver):
            game: int | None = event.number
        else:
            game = snapshot.game_number if snapshot else None
        log.info(
            "%s guild=%s channel=%s table=%s game=%s%s",
            type(event).__name__,
            event.guild_id,
            event.channel_id,
            event.table_id,
            game,
            _detail(event),
        )
        channel = event.channel_id
        if isinstance(event, ev.HandChanged):
            self.refresh_panel(channel, event.player_id)
            return
        if isinstance(event, ev.TurnStarted):
            self.touch_table(channel)
            if not event.is_ai:
                self.follow(channel, event.player_id)
            return
        if isinstance(event, ev.TrickCompleted):
            self.post_trick(event)
        elif isinstance(event, ev.AnnouncementMade):
            name = self.name(channel, event.seat)
            self.post(channel, f"📣 **{name}**: {announcement_name(event.word, lang)}!")
        elif isinstance(event, ev.MarriageSettled):
            self.post(channel, _marriage_text(self.name, channel, event, lang))
        elif isinstance(event, ev.Declared):
            self.post(channel, _call_text(self.name, channel, event, lang))
        elif isinstance(event, ev.HandThrown):
            self.post(
                channel,
                T(
                    lang,
                    "🃏 **{name}** throws the hand in ({reasons}): {cards}. The same dealer deals "
                    "again.",
                    name=self.name(channel, event.seat),
                    reasons=", ".join(T(lang, REDEAL_NAMES.get(r, r)) for r in event.reasons),
                    cards=" ".join(card_label(c, lang) for c in event.cards),
                ),
            )
        elif isinstance(event, ev.PlaysAlone):
            self.post(
                channel,
                T(
                    lang,
                    "🐗 **{name}** won the second ♠Q in trick {trick} and plays alone (Schwarze "
                    "Sau).",
                    name=self.name(channel, event.seat),
                    trick=event.trick,
                ),
            )
        elif isinstance(event, ev.TurnReminder):
            self.post(
                channel,
                T(
                    lang,
                    "⏰ <@{user}>, {seconds} seconds left for your turn.",
                    user=event.player_id,
                    seconds=round(event.seconds_left),
                ),
                mention=event.player_id,
            )
        elif isinstance(event, ev.TurnTimedOut):
            self.post(
                channel,
                T(
                    lang,
                    "⌛ {name} ran out of time: the AI {what} for them.",
                    name=self.name(channel, event.seat),
                    what=T(lang, event.what, card=event.card),
                ),
            )
        elif isinstance(event, ev.SeatHandedToAI):
            self.post(
                channel,
                T(
                    lang,
                    "🤖 The AI plays for {name} until they return (My cards → I'm back).",
                    name=self.name(channel, event.seat),
                ),
            )
        elif isinstance(event, ev.PovertyStep):
            count = snapshot.rules.poverty_cards if snapshot else 3
            self.post(channel, _poverty_text(self.name(channel, event.seat), event, lang, count))
        elif isinstance(event, ev.GameOver):
            self.post_result(event)
        elif isinstance(event, ev.SessionOver):
            self.post_sheet(event)
        elif isinstance(event, ev.TableResumed):
            self.post(
                channel, T(lang, "♻️ DokoBot restarted: this table carries on where it stopped.")
            )
        elif isinstance(event, ev.TableClosed):
            self.close_table(event)
            return
        self.touch_table(channel)

    def name(self, channel_id: int, seat: int) -> str:
        snapshot = self.bot.tables.snapshot(channel_id)
        return (
            discord.utils.escape_markdown(snapshot.names[seat])
            if snapshot
            else T(DEFAULT, "Seat {seat}", seat=seat + 1)
        )

    def channel(self, channel_id: int) -> discord.abc.Messageable:
        return self.bot.get_partial_messageable(channel_id)

    # ------------------------------------------------------------------ posts

    def post(
        self,
        channel_id: int,
        text: str,
        *,
        mention: int | None = None,
        file: Callable[[], Awaitable[discord.File]] | None = None,
        view: discord.ui.View | None = None,
    ) -> None:
        # Only turn calls and reminders ping, and only the player whose turn it is.
        mentions = (
            discord.AllowedMentions(everyone=False, roles=False, users=True)
            if mention
            else discord.AllowedMentions.none()
        )
        box = self.outbox(channel_id)

        async def send() -> None:
            kwargs: dict[str, Any] = {"allowed_mentions": mentions}
            if file is not None:
                kwargs["file"] = await file()
            if view is not None:
                kwargs["view"] = view
            await self.channel(channel_id).send(text, **kwargs)
            box.posted += 1

        box.put("post", send)

    def post_trick(self, event: ev.TrickCompleted) -> None:
        trick = event.trick
        cards = [(trick.seat_of(i), c) for i, c in enumerate(trick.cards)]
        # What the table knows: a silent marriage looks like a normal game here.
        snapshot = self.bot.tables.snapshot(event.channel_id)
        contract = snapshot.contract if snapshot else None
        soloist = None
        if snapshot is not None and contract is not None and contract.is_solo_scored:
            soloist = snapshot.declarer
        lang = self.lang(event.guild_id)

        async def image() -> discord.File:
            png = await asyncio.to_thread(
                render_trick,
                cards,
                event.names,
                leader=trick.leader,
                winner=trick.winner,
                points=trick.points,
                title=T(lang, "Trick {number}", number=event.number),
                contract=contract.value if contract else None,
                soloist=soloist,
                lang=lang,
            )
            return discord.File(io.BytesIO(png), filename=f"trick-{event.number:02d}.png")

        self.post(
            event.channel_id,
            T(
                lang,
                "Trick {number} → **{name}** ({points} points)",
                number=event.number,
                name=discord.utils.escape_markdown(event.names[trick.winner]),
                points=trick.points,
            ),
            file=image,
        )

    def post_result(self, event: ev.GameOver) -> None:
        lang = self.lang(event.guild_id)

        async def image() -> discord.File:
            png = await asyncio.to_thread(
                render_result,
                event.result,
                event.names,
                title=T(lang, "Game {number}", number=event.number),
                lang=lang,
            )
            return discord.File(io.BytesIO(png), filename=f"game-{event.number}.png")

        result = event.result
        if result.get("redeal"):
            text = T(
                lang,
                "Game {number}: nobody took the poverty, the same dealer deals again.",
                number=event.number,
            )
        elif result["winner"]:
            text = T(
                lang,
                "Game {number}: **{party}** wins, game value {value}.",
                number=event.number,
                party=result["winner"].capitalize(),
                value=result["game_value"],
            )
        else:
            text = T(lang, "Game {number}: nobody wins.", number=event.number)
        self.post(event.channel_id, text, file=image)

    async def sheet_image(
        self,
        session_id: int,
        plan: Plan,
        lang: str,
        *,
        final: bool = False,
        bock: str | None = None,
    ) -> discord.File:
        """A session's score sheet as a file, with the stake's balance; the ``final`` one
        shows every game and a chart of the running totals."""
        sheet = await self.bot.storage.stats.score_sheet(session_id)
        png = await asyncio.to_thread(
            render_score_sheet,
            sheet.players,
            sheet.rows,
            sheet.totals,
            lang=lang,
            title=T(lang, "Final score sheet") if final else None,
            stake=plan.stake_cents / 100 if plan.stake_cents else None,
            currency=plan.currency,
            chart=final,
            max_rows=30 if final else 16,
            note=bock,
        )
        return discord.File(io.BytesIO(png), filename="score-sheet.png")

    def post_sheet(self, event: ev.SessionOver) -> None:
        """The final sheet of a session: every game, a chart of the running totals and,
        with a stake, each balance and who pays whom."""
        lang = self.lang(event.guild_id)
        plan, session = event.plan, event.session_id
        transfers = settle(event.totals, plan.stake_cents) if plan.stake_cents else []

        async def image() -> discord.File:
            return await self.sheet_image(session or 0, plan, lang, final=True)

        text = T(lang, "The session is over. Final score sheet:")
        names = [discord.utils.escape_markdown(n) for n in event.names]
        for payer, payee, cents in transfers:
            text += "\n" + T(
                lang,
                "💶 {payer} pays {payee} {amount} {currency}",
                payer=names[payer],
                payee=names[payee],
                amount=f"{cents / 100:.2f}",
                currency=plan.currency,
            )
        self.post(event.channel_id, text, file=image)

    # ------------------------------------------------------------------ table message

    def touch_table(self, channel_id: int) -> None:
        """Redraw the one table message of the channel (posting it if there is none)."""

        async def edit() -> None:
            snapshot = self.bot.tables.snapshot(channel_id)
            if snapshot is None:
                return
            message_id = await self.message_id(channel_id, snapshot.table_id)
            lang = await self.guild_lang(snapshot.guild_id)
            content = table_text(snapshot, lang)
            view = table_view(snapshot, lang)
            mentions = discord.AllowedMentions.none()
            if message_id is not None:
                partial = self.channel(channel_id).get_partial_message(  # type: ignore[attr-defined]
                    message_id
                )
                try:
                    await partial.edit(content=content, view=view, allowed_mentions=mentions)
                except discord.NotFound as exc:
                    if exc.code != 10008:
                        raise
                    message_id = None  # somebody deleted the table message: post it again
            if message_id is None:
                message = await self.channel(channel_id).send(
                    content, view=view, allowed_mentions=mentions
                )
                self.outbox(channel_id).posted += 1
                self.messages[channel_id] = message.id
                await self.bot.tables.set_message(channel_id, message.id)
            self.bot.tables.turn_shown(channel_id, snapshot.turn)

        self.outbox(channel_id).put("table", edit)

    async def message_id(self, channel_id: int, table_id: int) -> int | None:
        if channel_id not in self.messages:
            row = await self.bot.storage.tables.get(table_id)
            if row is None or row.message_id is None:
                return None
            self.messages[channel_id] = row.message_id
        return self.messages[channel_id]

    def close_table(self, event: ev.TableClosed) -> None:
        message_id = self.messages.pop(event.channel_id, None)
        for mapping in (self.panels, self.latest, self._below):
            for key in [k for k in mapping if k[0] == event.channel_id]:
                del mapping[key]
        self.called.pop(event.channel_id, None)
        box = self.outbox(event.channel_id)
        if not event.reachable:
            box.stop()
            self.outboxes.pop(event.channel_id, None)
            return
        lang = self.lang(event.guild_id)
        reason = T(lang, CLOSED_TEXT.get(event.reason, event.reason))

        async def edit() -> None:
            mid = message_id
            if mid is None:
                row = await self.bot.storage.tables.get(event.table_id)
                mid = row.message_id if row else None
            if mid is not None:
                partial = self.channel(event.channel_id).get_partial_message(  # type: ignore[attr-defined]
                    mid
                )
                with contextlib.suppress(discord.NotFound):
                    await partial.edit(
                        content=T(lang, "**Doppelkopf** · table closed ({reason}).", reason=reason),
                        view=None,
                    )

        box.put("close", edit)
        if event.reason == "restore_failed":
            self.post(
                event.channel_id,
                T(
                    lang,
                    "⚠️ This table could not be restored after a restart and is closed; its "
                    "finished games are kept. Open a new one with /doko new.",
                ),
            )
        elif event.reason in ("no_humans", "nobody_plays"):
            self.post(
                event.channel_id,
                T(
                    lang,
                    "The table is closed: {reason}. Finished games stay on the score sheet; "
                    "open a new one with /doko new.",
                    reason=reason,
                ),
            )

    async def channel_gone(self, channel_id: int, reason: str) -> None:
        """Discord says the channel is gone or closed to the bot: close its table for good."""
        snapshot = self.bot.tables.snapshot(channel_id)
        if not await self.bot.tables.close_channel(channel_id, reason):
            return
        if reason == "no_permission" and snapshot is not None and snapshot.owner_id:
            # Tell the owner privately; nothing can be posted in the channel any more.
            with contextlib.suppress(discord.HTTPException):
                user = self.bot.get_user(snapshot.owner_id) or await self.bot.fetch_user(
                    snapshot.owner_id
                )
                await user.send(
                    T(
                        self.lang(snapshot.guild_id),
                        "I lost the permissions I need in <#{channel}>, so the Doppelkopf "
                        "table there is closed. Its finished games are kept; give me View "
                        "Channel, Send Messages and Attach Files and open a new table with "
                        "/doko new.",
                        channel=channel_id,
                    )
                )

    # ------------------------------------------------------------------ private panels

    def redraw_panel(self, channel_id: int, user_id: int) -> None:
        """Draw a player's open panel anew in its redraw task, whatever it shows now."""
        slot = self.panels.get((channel_id, user_id))
        if slot is not None:
            slot.shown = -1
            self.refresh_panel(channel_id, user_id)

    def refresh_panel(self, channel_id: int, user_id: int) -> None:
        """Redraw a player's open hand panel in its own task (only they see it)."""
        slot = self.panels.get((channel_id, user_id))
        if slot is None:
            return
        if slot.task is not None and not slot.task.done():
            slot.dirty = True  # the running refresh goes round once more
            return
        slot.task = asyncio.create_task(self._refresh_loop(channel_id, user_id))

    async def _refresh_loop(self, channel_id: int, user_id: int) -> None:
        while (slot := self.panels.get((channel_id, user_id))) is not None:
            slot.dirty = False
            try:
                await self._refresh(channel_id, user_id, slot)
            except Exception:
                log.exception("panel refresh failed in channel %s", channel_id)
                return
            if not slot.dirty:
                return

    async def _refresh(self, channel_id: int, user_id: int, slot: PanelSlot) -> None:
        if time.monotonic() - slot.opened > PANEL_LIFETIME:
            self.panels.pop((channel_id, user_id), None)
            return
        snapshot = self.bot.tables.snapshot(channel_id)
        if snapshot is None:
            return
        try:
            panel = self.bot.tables.panel(channel_id, user_id)
        except TableError:
            return
        if panel.action_no == slot.shown:
            return
        content, file, view = await hand_panel(snapshot, panel, slot.lang)
        try:
            await slot.edit(content=content, attachments=[file], view=view)
        except discord.HTTPException as exc:
            log.info("panel of user in channel %s not refreshed: %s", channel_id, exc.status)
            if self.panels.get((channel_id, user_id)) is slot:
                self.panels.pop((channel_id, user_id), None)
            return
        slot.shown = panel.action_no
        if panel.is_turn:
            self.bot.tables.turn_shown(channel_id, snapshot.turn)

    def follow(self, channel_id: int, user_id: int) -> None:
        """It is the user's turn: make sure their panel is where they look.

        An open panel in sight is redrawn in place. One that expired or scrolled
        out of sight under public posts is replaced by a fresh private panel at
        the bottom (a follow-up on their latest interaction, while its token
        lives), else by a short public "your turn" line with a My cards button.
        """
        slot = self.panels.get((channel_id, user_id))
        now = time.monotonic()
        box = self.outbox(channel_id)
        if (
            slot is not None
            and now - slot.opened <= PANEL_LIFETIME
            and box.posted - slot.posted_at < SCROLL_LIMIT
        ):
            self.refresh_panel(channel_id, user_id)
            return
        latest = self.latest.get((channel_id, user_id))
        if latest is not None and now - latest[1] <= PANEL_LIFETIME:
            self._below[(channel_id, user_id)] = asyncio.create_task(
                self._panel_below(channel_id, user_id, *latest)
            )
            return
        self._call_turn(channel_id, user_id)

    async def _panel_below(
        self, channel_id: int, user_id: int, interaction: discord.Interaction[Any], since: float
    ) -> None:
        """A fresh private panel below the public posts, on ``interaction``'s token (which
        lives 15 minutes from ``since``)."""
        snapshot = self.bot.tables.snapshot(channel_id)
        try:
            panel = self.bot.tables.panel(channel_id, user_id)
        except TableError:
            return
        if snapshot is None:
            return
        lang = lang_of(interaction.locale)
        content, file, view = await hand_panel(snapshot, panel, lang)
        try:
            message = await interaction.followup.send(
                content, file=file, view=view, ephemeral=True, wait=True
            )
        except discord.HTTPException as exc:
            log.info("fresh panel in channel %s not sent: %s", channel_id, exc.status)
            self.latest.pop((channel_id, user_id), None)
            self._call_turn(channel_id, user_id)
            return
        self.panels[(channel_id, user_id)] = PanelSlot(
            message.edit, since, panel.action_no, self.outbox(channel_id).posted, lang=lang
        )
        self.bot.tables.turn_shown(channel_id, snapshot.turn)

    def _call_turn(self, channel_id: int, user_id: int) -> None:
        """A public line that calls the player to their turn (never their cards)."""
        snapshot = self.bot.tables.snapshot(channel_id)
        if (
            snapshot is None
            or snapshot.turn is None
            or self.called.get(channel_id) == snapshot.turn
        ):
            return
        self.called[channel_id] = snapshot.turn
        lang = self.lang(snapshot.guild_id)
        view = discord.ui.View(timeout=None)
        view.add_item(TableButton("cards", snapshot.table_id, lang))
        self.post(
            channel_id, T(lang, "▶ <@{user}>, your turn.", user=user_id), mention=user_id, view=view
        )


def _poverty_text(name: str, event: ev.PovertyStep, lang: str, count: int = 3) -> str:
    if event.step == "put_down":
        return T(
            lang,
            "🪙 **{name}** is poor (Armut) and puts down {count} cards. Who takes them?",
            name=name,
            count=count,
        )
    if event.step == "accepted":
        return T(lang, "🤝 **{name}** takes the poverty.", name=name)
    if event.step == "declined":
        return T(lang, "{name} declines the poverty.", name=name)
    return T(
        lang,
        "**{name}** gives {count} cards back, {trumps} of them trumps.",
        name=name,
        count=count,
        trumps=event.trumps_returned,
    )


#: The hands a player may throw in (house rule ``redeal_on``, docs/rules.md §9.2).
REDEAL_NAMES = {
    "five_nines": N_("five nines"),
    "five_kings": N_("five kings"),
    "four_nines_four_kings": N_("four nines and four kings"),
    "seven_full": N_("seven tens and aces"),
    "low_trumps": N_("no trump above the ♦K"),
}


def _call_text(
    name: Callable[[int, int], str], channel_id: int, event: ev.Declared, lang: str
) -> str:
    who = name(channel_id, event.seat)
    if event.what == "genscher":
        assert event.partner is not None
        return T(
            lang,
            "🔄 **{name}** plays Genscher and takes **{partner}** as partner.",
            name=who,
            partner=name(channel_id, event.partner),
        )
    if event.what == "half_chicken":
        return T(lang, "🐔 **{name}** has both ♦10: half chicken!", name=who)
    return T(
        lang,
        "🐷 **{name}** declares {call}: the highest trumps from now on.",
        name=who,
        call=call_name(event.what, lang),
    )


def _marriage_text(
    name: Callable[[int, int], str], channel_id: int, event: ev.MarriageSettled, lang: str
) -> str:
    bride = name(channel_id, event.seat)
    if event.partner is None:
        return T(
            lang,
            "💍 **{name}** won the first three tricks and plays the marriage alone.",
            name=bride,
        )
    return T(
        lang,
        "💍 **{partner}** won trick {trick} and plays with **{name}** (marriage).",
        partner=name(channel_id, event.partner),
        trick=event.trick,
        name=bride,
    )


def _detail(event: ev.Event) -> str:
    """Public facts for the log line (never a hand)."""
    if isinstance(event, ev.TrickCompleted):
        return f" trick={event.number}"
    if hasattr(event, "seat"):
        return f" seat={event.seat}"
    return ""
