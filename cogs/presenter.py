"""Shows the table service's events in Discord: table message, tricks, results, panels."""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from dokobot.render import render_result, render_score_sheet, render_trick
from dokobot.table import events as ev
from dokobot.table.service import TableError

from .panels import hand_panel, table_text, table_view

if TYPE_CHECKING:
    from dokobot.bot import DokoBot

log = logging.getLogger("dokobot.discord")

#: Discord lets a bot edit an interaction's response for 15 minutes.
PANEL_LIFETIME = 14 * 60

Job = Callable[[], Awaitable[None]]


class Outbox:
    """Posts for one channel, in order, at most one per ``interval`` (Discord's rate limit)."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.jobs: deque[tuple[str, Job]] = deque()
        self.task: asyncio.Task[None] | None = None

    def put(self, key: str, job: Job) -> None:
        # Edits of the table message coalesce: only the latest state matters.
        if key == "table" and any(k == "table" for k, _ in self.jobs):
            return
        self.jobs.append((key, job))
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while self.jobs:
            _, job = self.jobs.popleft()
            try:
                await job()
            except discord.HTTPException as exc:
                log.warning(
                    "post failed (%s %s): %s", exc.status, getattr(exc, "code", ""), exc.text
                )
            except Exception:
                log.exception("post failed")
            if self.jobs and self.interval > 0:
                await asyncio.sleep(self.interval)

    async def drain(self) -> None:
        while self.task is not None and not self.task.done():
            await asyncio.wait([self.task])


class Presenter:
    """Turns domain events into Discord messages; a hand only ever goes to its owner."""

    def __init__(self, bot: DokoBot) -> None:
        self.bot = bot
        self.outboxes: dict[int, Outbox] = {}
        #: (channel, user) -> the interaction whose response is the user's hand panel.
        self.panels: dict[tuple[int, int], tuple[discord.Interaction[Any], float, int]] = {}
        self.messages: dict[int, int] = {}

    def outbox(self, channel_id: int) -> Outbox:
        if channel_id not in self.outboxes:
            self.outboxes[channel_id] = Outbox(self.bot.post_interval)
        return self.outboxes[channel_id]

    def remember_panel(
        self, channel_id: int, user_id: int, interaction: discord.Interaction[Any], action_no: int
    ) -> None:
        self.panels[(channel_id, user_id)] = (interaction, time.monotonic(), action_no)

    async def on_event(self, event: ev.Event) -> None:
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
            await self.refresh_panel(channel, event.player_id)
            return
        if isinstance(event, ev.TurnStarted):
            self.touch_table(channel)
            if not event.is_ai:
                await self.refresh_panel(channel, event.player_id)
            return
        if isinstance(event, ev.TrickCompleted):
            self.post_trick(event)
        elif isinstance(event, ev.AnnouncementMade):
            name = self.name(channel, event.seat)
            self.post(channel, f"📣 **{name}**: {_announcement(event.word)}!")
        elif isinstance(event, ev.TurnReminder):
            seconds = round(event.seconds_left)
            self.post(
                channel,
                f"⏰ <@{event.player_id}>, {seconds} seconds left for your turn.",
                mention=event.player_id,
            )
        elif isinstance(event, ev.TurnTimedOut):
            self.post(
                channel,
                f"⌛ {self.name(channel, event.seat)} ran out of time: the AI "
                f"{event.what} for them.",
            )
        elif isinstance(event, ev.SeatHandedToAI):
            self.post(
                channel,
                f"🤖 The AI plays for {self.name(channel, event.seat)} until they "
                "return (My cards → I'm back).",
            )
        elif isinstance(event, ev.PovertyStep):
            self.post(channel, _poverty_text(self.name(channel, event.seat), event))
        elif isinstance(event, ev.GameOver):
            self.post_result(event)
        elif isinstance(event, ev.SessionOver):
            self.post_sheet(event)
        elif isinstance(event, ev.TableResumed):
            self.post(channel, "♻️ DokoBot restarted: this table carries on where it stopped.")
        elif isinstance(event, ev.TableClosed):
            self.close_table(event)
            return
        self.touch_table(channel)

    def name(self, channel_id: int, seat: int) -> str:
        snapshot = self.bot.tables.snapshot(channel_id)
        return (
            discord.utils.escape_markdown(snapshot.names[seat]) if snapshot else f"Seat {seat + 1}"
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
    ) -> None:
        # Only reminders ping, and they mention nobody but the player whose turn it is.
        mentions = (
            discord.AllowedMentions(everyone=False, roles=False, users=True)
            if mention
            else discord.AllowedMentions.none()
        )

        async def send() -> None:
            kwargs: dict[str, Any] = {"allowed_mentions": mentions}
            if file is not None:
                kwargs["file"] = await file()
            await self.channel(channel_id).send(text, **kwargs)

        self.outbox(channel_id).put("post", send)

    def post_trick(self, event: ev.TrickCompleted) -> None:
        trick = event.trick
        cards = [(trick.seat_of(i), c) for i, c in enumerate(trick.cards)]

        async def image() -> discord.File:
            png = await asyncio.to_thread(
                render_trick,
                cards,
                event.names,
                leader=trick.leader,
                winner=trick.winner,
                points=trick.points,
                title=f"Trick {event.number}",
            )
            return discord.File(io.BytesIO(png), filename=f"trick-{event.number:02d}.png")

        winner = discord.utils.escape_markdown(event.names[trick.winner])
        self.post(
            event.channel_id,
            f"Trick {event.number} → **{winner}** ({trick.points} points)",
            file=image,
        )

    def post_result(self, event: ev.GameOver) -> None:
        async def image() -> discord.File:
            png = await asyncio.to_thread(
                render_result, event.result, event.names, title=f"Game {event.number}"
            )
            return discord.File(io.BytesIO(png), filename=f"game-{event.number}.png")

        result = event.result
        if result.get("redeal"):
            text = f"Game {event.number}: nobody took the poverty, the same dealer deals again."
        elif result["winner"]:
            winner = result["winner"].capitalize()
            text = f"Game {event.number}: **{winner}** wins, game value {result['game_value']}."
        else:
            text = f"Game {event.number}: nobody wins."
        self.post(event.channel_id, text, file=image)

    def post_sheet(self, event: ev.SessionOver) -> None:
        async def image() -> discord.File:
            snapshot = self.bot.tables.snapshot(event.channel_id)
            session = snapshot.session_id if snapshot else None
            sheet = await self.bot.storage.stats.score_sheet(session or 0)
            png = await asyncio.to_thread(
                render_score_sheet, sheet.players, sheet.rows, sheet.totals
            )
            return discord.File(io.BytesIO(png), filename="score-sheet.png")

        self.post(event.channel_id, "The session is over. Final score sheet:", file=image)

    # ------------------------------------------------------------------ table message

    def touch_table(self, channel_id: int) -> None:
        async def edit() -> None:
            snapshot = self.bot.tables.snapshot(channel_id)
            if snapshot is None:
                return
            message_id = await self.message_id(channel_id, snapshot.table_id)
            content = table_text(snapshot)
            view = table_view(snapshot)
            mentions = discord.AllowedMentions.none()
            if message_id is None:
                message = await self.channel(channel_id).send(
                    content, view=view, allowed_mentions=mentions
                )
                await self.bot.tables.set_message(channel_id, message.id)
                self.messages[channel_id] = message.id
            else:
                partial = self.bot.get_partial_messageable(channel_id).get_partial_message(
                    message_id
                )
                await partial.edit(content=content, view=view, allowed_mentions=mentions)

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

        async def edit() -> None:
            mid = message_id
            if mid is None:
                row = await self.bot.storage.tables.get(event.table_id)
                mid = row.message_id if row else None
            if mid is not None:
                partial = self.bot.get_partial_messageable(event.channel_id).get_partial_message(
                    mid
                )
                await partial.edit(
                    content=f"**Doppelkopf** · table closed ({event.reason}).", view=None
                )

        self.outbox(event.channel_id).put("close", edit)
        for key in [k for k in self.panels if k[0] == event.channel_id]:
            del self.panels[key]

    # ------------------------------------------------------------------ private panels

    async def refresh_panel(self, channel_id: int, user_id: int) -> None:
        """Redraw a player's open hand panel (only they see it), while Discord allows edits."""
        entry = self.panels.get((channel_id, user_id))
        if entry is None:
            return
        interaction, opened, shown = entry
        if time.monotonic() - opened > PANEL_LIFETIME:
            del self.panels[(channel_id, user_id)]
            return
        snapshot = self.bot.tables.snapshot(channel_id)
        if snapshot is None:
            return
        try:
            panel = self.bot.tables.panel(channel_id, user_id)
        except TableError:
            return
        if panel.action_no == shown:
            return
        content, file, view = await hand_panel(snapshot, panel)
        try:
            await interaction.edit_original_response(content=content, attachments=[file], view=view)
        except discord.HTTPException as exc:
            log.info("panel of user in channel %s not refreshed: %s", channel_id, exc.status)
            self.panels.pop((channel_id, user_id), None)
            return
        self.panels[(channel_id, user_id)] = (interaction, opened, panel.action_no)


def _poverty_text(name: str, event: ev.PovertyStep) -> str:
    if event.step == "put_down":
        return f"🪙 **{name}** is poor (Armut) and puts down three cards. Who takes them?"
    if event.step == "accepted":
        return f"🤝 **{name}** takes the poverty."
    if event.step == "declined":
        return f"{name} declines the poverty."
    return f"**{name}** gives three cards back, {event.trumps_returned} of them trumps."


def _announcement(word: str) -> str:
    return {
        "re": "Re",
        "kontra": "Kontra",
        "no90": "no 90",
        "no60": "no 60",
        "no30": "no 30",
        "schwarz": "schwarz",
    }.get(word, word)


def _detail(event: ev.Event) -> str:
    """Public facts for the log line (never a hand)."""
    if isinstance(event, ev.TrickCompleted):
        return f" trick={event.number}"
    if hasattr(event, "seat"):
        return f" seat={event.seat}"
    return ""
