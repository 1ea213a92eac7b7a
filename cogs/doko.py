"""The /doko commands and the buttons: parse the interaction, call the service, reply."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from dokobot.engine import NORMAL_ORDER, Card, RuleError, RuleSet, SoloType, card_order
from dokobot.render import render_leaderboard, render_score_sheet, sort_hand
from dokobot.render.text import contract_name
from dokobot.storage import Period
from dokobot.table.service import Member, Panel, TableError

from .panels import (
    ANNOUNCE_LABELS,
    DYNAMIC_ITEMS,
    BidButton,
    PanelButton,
    hand_panel,
    table_text,
    table_view,
)
from .presenter import Presenter

if TYPE_CHECKING:
    from dokobot.bot import DokoBot

log = logging.getLogger("dokobot.discord")

__all__ = ["DYNAMIC_ITEMS", "DokoCog"]

#: What the bot needs in a channel to run a table there.
NEEDED = ("view_channel", "send_messages", "attach_files", "embed_links", "read_message_history")
RULE_KEYS = (
    "nines",
    "dullen",
    "solos",
    "poverty",
    "poverty_fox_counts",
    "marriage_clarification",
    "reservation_priority",
    "soloist_leads",
    "announcement_doubles",
    "compulsory_solos",
)


def member(user: discord.abc.User) -> Member:
    return Member(user.id, getattr(user, "display_name", None) or user.name)


async def tell(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """A private answer to whoever made the interaction (response or follow-up)."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


class DokoCog(
    commands.GroupCog, name="doko", group_name="doko", group_description="Play Doppelkopf"
):
    """All of DokoBot's slash commands live under /doko."""

    def __init__(self, bot: DokoBot) -> None:
        self.bot = bot
        self.presenter = Presenter(bot)
        super().__init__()

    # ------------------------------------------------------------------ errors

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """The one error handler of the command tree: a private, specific answer."""
        original = getattr(error, "original", error)
        if isinstance(original, TableError):
            await tell(interaction, original.message)
            return
        if isinstance(error, app_commands.MissingPermissions):
            await tell(interaction, "You need the Manage Server permission for that.")
            return
        if isinstance(error, app_commands.CheckFailure):
            await tell(interaction, str(error) or "You cannot use that command here.")
            return
        log.error(
            "command %s failed: %s",
            interaction.command and interaction.command.qualified_name,
            type(original).__name__,
        )
        await tell(interaction, "Sorry, something went wrong; nothing was changed.")

    # ------------------------------------------------------------------ lobby

    @app_commands.command(name="new", description="Open a Doppelkopf table in this channel")
    @app_commands.guild_only()
    async def new(self, interaction: discord.Interaction[Any]) -> None:
        missing = [p for p in NEEDED if not getattr(interaction.app_permissions, p)]
        if missing:
            nice = ", ".join(p.replace("_", " ").title() for p in missing)
            await tell(interaction, f"I can't run a table in this channel: I need {nice} here.")
            return
        assert interaction.guild_id is not None and interaction.channel_id is not None
        try:
            snapshot = await self.bot.tables.open_table(
                interaction.guild_id, interaction.channel_id, member(interaction.user)
            )
        except TableError as exc:
            await tell(interaction, exc.message)
            return
        await tell(interaction, "Table opened. Others can join with the Join button or /doko join.")
        message = await interaction.channel.send(  # type: ignore[union-attr]
            table_text(snapshot),
            view=table_view(snapshot),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.presenter.messages[interaction.channel_id] = message.id
        await self.bot.tables.set_message(interaction.channel_id, message.id)

    @app_commands.command(name="join", description="Sit down at this channel's table")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.tables.join(self._channel(interaction), member(interaction.user))
        await tell(interaction, "You sit at the table.")

    @app_commands.command(name="leave", description="Leave this channel's table")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self._leave(interaction)

    async def _leave(self, interaction: discord.Interaction[Any]) -> None:
        snapshot = await self.bot.tables.leave(self._channel(interaction), interaction.user.id)
        if snapshot is not None and snapshot.status == "playing":
            await tell(interaction, "You left; the AI plays your seat until this session ends.")
        else:
            await tell(interaction, "You left the table.")

    @app_commands.command(name="start", description="Start the game (empty seats get AI players)")
    @app_commands.describe(ai_level="How the AI players play")
    @app_commands.choices(
        ai_level=[
            app_commands.Choice(name="heuristic (a decent club player)", value="heuristic"),
            app_commands.Choice(name="random (a beginner)", value="random"),
        ]
    )
    async def start(
        self, interaction: discord.Interaction[Any], ai_level: str = "heuristic"
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.tables.start(
            self._channel(interaction), interaction.user.id, ai_level=ai_level
        )
        await interaction.followup.send(
            "The game starts. Press **My cards** to see your hand.", ephemeral=True
        )

    @app_commands.command(name="stop", description="Close this channel's table")
    async def stop(self, interaction: discord.Interaction[Any]) -> None:
        force = bool(interaction.permissions.manage_guild)
        await self.bot.tables.stop(self._channel(interaction), interaction.user.id, force=force)
        await tell(interaction, "The table is closed.")

    # ------------------------------------------------------------------ playing

    @app_commands.command(name="hand", description="Show your cards (only you see them)")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        await self.send_panel(interaction)

    @app_commands.command(name="play", description="Play a card")
    @app_commands.describe(card="The card to play, e.g. ♣Q or CQ")
    async def play(self, interaction: discord.Interaction[Any], card: str) -> None:
        channel = self._channel(interaction)
        panel = self.bot.tables.panel(channel, interaction.user.id)
        try:
            parsed = _card_from_text(card)
        except ValueError:
            await tell(interaction, f"I don't know the card {card!r}: write it like ♣Q, ♥10 or CQ.")
            return
        await self.bot.tables.play(
            channel, interaction.user.id, parsed, game=panel.game_number, expected=panel.action_no
        )
        await self.send_panel(interaction, prefix=f"You played {parsed.label}.")

    @play.autocomplete("card")
    async def play_card_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        panel = self._panel_or_none(interaction)
        if panel is None:
            return []
        if not panel.is_turn:
            return []
        order = card_order(panel.view.contract) if panel.view.contract else NORMAL_ORDER
        wanted = current.strip().upper()
        return [
            app_commands.Choice(name=card.label, value=card.name)
            for card in sort_hand(list(panel.playable), order)
            if not wanted or wanted in card.name or wanted in card.label.upper()
        ][:25]

    @app_commands.command(name="announce", description="Announce Re, Kontra, no 90 …")
    @app_commands.describe(what="The announcement")
    async def announce(self, interaction: discord.Interaction[Any], what: str) -> None:
        channel = self._channel(interaction)
        panel = self.bot.tables.panel(channel, interaction.user.id)
        word = what.strip().lower().replace(" ", "")
        await self.bot.tables.announce(channel, interaction.user.id, word, game=panel.game_number)
        await tell(interaction, f"You announced {ANNOUNCE_LABELS.get(word, word)}.")

    @announce.autocomplete("what")
    async def announce_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        panel = self._panel_or_none(interaction)
        if panel is None:
            return []
        return [
            app_commands.Choice(name=ANNOUNCE_LABELS.get(w, w), value=w)
            for w in panel.announcements
            if current.lower() in w
        ]

    @app_commands.command(name="bid", description="Say healthy or name a reservation")
    @app_commands.describe(what="healthy, marriage, poverty or a solo")
    async def bid(self, interaction: discord.Interaction[Any], what: str) -> None:
        channel = self._channel(interaction)
        panel = self.bot.tables.panel(channel, interaction.user.id)
        await self.bot.tables.bid(
            channel, interaction.user.id, what, game=panel.game_number, expected=panel.action_no
        )
        await self.send_panel(interaction, prefix=f"You said {BidButton.LABELS.get(what, what)}.")

    @bid.autocomplete("what")
    async def bid_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        panel = self._panel_or_none(interaction)
        if panel is None:
            return []
        return [
            app_commands.Choice(name=BidButton.LABELS.get(b.value, b.value), value=b.value)
            for b in panel.bids
            if current.lower() in b.value
        ][:25]

    # ------------------------------------------------------------------ sheets and stats

    @app_commands.command(name="scores", description="The score sheet of this table's session")
    async def scores(self, interaction: discord.Interaction[Any]) -> None:
        snapshot = self.bot.tables.snapshot(self._channel(interaction))
        if snapshot is None or snapshot.session_id is None:
            await tell(interaction, "No session has been played at this table yet.")
            return
        await interaction.response.defer(thinking=True)
        sheet = await self.bot.storage.stats.score_sheet(snapshot.session_id)
        png = await asyncio.to_thread(render_score_sheet, sheet.players, sheet.rows, sheet.totals)
        await interaction.followup.send(
            file=discord.File(io.BytesIO(png), filename="score-sheet.png")
        )

    @app_commands.command(name="leaderboard", description="This server's ranking")
    @app_commands.choices(
        period=[
            app_commands.Choice(name="all time", value="all"),
            app_commands.Choice(name="this month", value="month"),
            app_commands.Choice(name="last 30 days", value="30d"),
        ]
    )
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction[Any], period: str = "all") -> None:
        assert interaction.guild_id is not None
        await interaction.response.defer(thinking=True)
        rows = await self.bot.storage.stats.leaderboard(
            interaction.guild_id, Period(period), limit=20
        )
        title = {
            "all": "Leaderboard · all time",
            "month": "Leaderboard · this month",
            "30d": "Leaderboard · last 30 days",
        }[period]
        png = await asyncio.to_thread(render_leaderboard, rows, title=title)
        await interaction.followup.send(
            file=discord.File(io.BytesIO(png), filename="leaderboard.png")
        )

    @app_commands.command(name="stats", description="A player's statistics on this server")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        assert interaction.guild_id is not None
        target = user or interaction.user
        stats = await self.bot.storage.stats.player_stats(interaction.guild_id, target.id)
        if stats is None or stats.games == 0:
            await tell(interaction, f"{target.display_name} has not finished a game here yet.")
            return
        embed = discord.Embed(
            title=f"{stats.name} · statistics", colour=discord.Colour.dark_green()
        )
        embed.add_field(name="Points", value=f"{stats.points:+d}")
        embed.add_field(name="Games", value=str(stats.games))
        embed.add_field(name="Won", value=f"{stats.won} ({stats.win_rate:.0%})")
        embed.add_field(name="Average", value=f"{stats.average:+.2f}")
        embed.add_field(name="As Re", value=f"{stats.re_won}/{stats.re_games} won")
        embed.add_field(name="As Kontra", value=f"{stats.kontra_won}/{stats.kontra_games} won")
        embed.add_field(name="Solos", value=f"{stats.solos_won}/{stats.solos} won")
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="replay", description="A finished game: summary and record file")
    @app_commands.describe(game="The game number")
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction[Any], game: int) -> None:
        assert interaction.guild_id is not None
        stored = await self.bot.storage.stats.game(interaction.guild_id, game)
        if stored is None or stored.status != "finished":
            await tell(interaction, f"There is no finished game {game} on this server.")
            return
        result = stored.result or {}
        names = stored.players
        if result.get("redeal"):
            summary = "Redeal: nobody took the poverty."
        else:
            re = ", ".join(names[s] for s in result["re"])
            summary = (
                f"{contract_name(result['contract'])} · Re ({re}) {result['card_points']['re']} : "
                f"{result['card_points']['kontra']} · "
                + (f"{result['winner'].capitalize()} wins" if result["winner"] else "nobody wins")
                + f" · value {result['game_value']} · scores "
                + ", ".join(f"{n} {s:+d}" for n, s in zip(names, result["scores"], strict=True))
            )
        data = json.dumps(stored.record, ensure_ascii=False, indent=1).encode()
        await interaction.response.send_message(
            f"**Game {game}**: {discord.utils.escape_markdown(summary)}\n"
            "Check it with `dokobot replay game-{game}.json`.".replace("{game}", str(game)),
            file=discord.File(io.BytesIO(data), filename=f"game-{game}.json"),
        )

    @app_commands.command(name="rules", description="Show this server's rules, or change one")
    @app_commands.describe(key="The rule to change (needs Manage Server)", value="Its new value")
    @app_commands.choices(key=[app_commands.Choice(name=k, value=k) for k in RULE_KEYS])
    @app_commands.guild_only()
    async def rules(
        self,
        interaction: discord.Interaction[Any],
        key: str | None = None,
        value: str | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        settings = await self.bot.storage.settings.get(interaction.guild_id)
        if key is not None:
            if not interaction.permissions.manage_guild:
                await tell(interaction, "Changing the rules needs the Manage Server permission.")
                return
            if value is None:
                await tell(interaction, f"Give a value for {key}.")
                return
            try:
                changed = {**settings.rules, key: _rule_value(key, value)}
                rules = RuleSet.from_dict(changed)
            except (RuleError, ValueError) as exc:
                await tell(interaction, f"That rule value is not valid: {exc}.")
                return
            await self.bot.storage.settings.set_rules(interaction.guild_id, rules.to_dict())
            await interaction.response.send_message(
                f"Rule **{key}** is now `{value}` (from the next session on)."
            )
            return
        rules = RuleSet.from_dict(settings.rules)
        embed = discord.Embed(
            title="Doppelkopf rules on this server",
            description="DDV tournament rules, with these house rules:"
            if settings.rules
            else "DDV tournament rules (no house rules).",
            colour=discord.Colour.dark_green(),
        )
        for name in RULE_KEYS:
            v = getattr(rules, name)
            shown = ", ".join(sorted(str(x) for x in v)) if isinstance(v, frozenset) else str(v)
            embed.add_field(name=name, value=shown)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="help", description="How to play with DokoBot")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        text = (
            "**DokoBot** plays Doppelkopf (DDV rules) right here.\n"
            "• `/doko new` opens a table; others press **Join**; the owner presses **Start** "
            "(empty seats get AI players).\n"
            "• **My cards** (or `/doko hand`) shows your hand, only to you. Tap a card to play "
            "it.\n"
            "• Announce Re/Kontra, no 90 … with the red buttons or `/doko announce`.\n"
            "• Every trick is shown here; `/doko scores` is the score sheet, `/doko leaderboard` "
            "the server ranking, `/doko stats` your record, `/doko replay game:` a finished game.\n"
            "• `/doko rules` shows the rules; server managers change them with "
            "`/doko rules key value`."
        )
        await tell(interaction, text)

    @app_commands.command(
        name="forget-me", description="Delete your name and statistics from DokoBot"
    )
    async def forget_me(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.storage.admin.delete_player(interaction.user.id)
        await tell(
            interaction,
            "Done: your name and statistics are deleted; your past seats are anonymous.",
        )

    @app_commands.command(
        name="reset-leaderboard", description="Start a fresh leaderboard (old games are archived)"
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def reset_leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        epoch = await self.bot.storage.admin.reset_leaderboard(interaction.guild_id)
        await interaction.response.send_message(
            f"The leaderboard starts afresh (season {epoch + 1})."
        )

    @app_commands.command(
        name="export", description="All finished games of this server (JSON lines)"
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        lines = [line async for line in self.bot.storage.admin.export_games(interaction.guild_id)]
        data = ("\n".join(lines) + "\n").encode() if lines else b""
        await interaction.followup.send(
            f"{len(lines)} games.",
            ephemeral=True,
            file=discord.File(io.BytesIO(data), filename="games.jsonl"),
        )

    @app_commands.command(
        name="sync", description="Re-sync DokoBot's slash commands (bot owner only)"
    )
    async def sync(self, interaction: discord.Interaction[Any]) -> None:
        if not await self.bot.is_owner(interaction.user):
            await tell(interaction, "Only the bot's owner can sync its commands.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.sync_commands(force=True)
        await interaction.followup.send("Slash commands synced.", ephemeral=True)

    # ------------------------------------------------------------------ components

    async def on_component(
        self, interaction: discord.Interaction[Any], kind: str, **values: Any
    ) -> None:
        """Every button and select of DokoBot ends here."""
        try:
            await self._component(interaction, kind, **values)
        except TableError as exc:
            if exc.code == "stale":
                await self.send_panel(interaction, prefix=exc.message, edit=kind != "table")
            else:
                await tell(interaction, exc.message)

    async def _component(self, interaction: discord.Interaction[Any], kind: str, **v: Any) -> None:
        channel = self._channel(interaction)
        snapshot = self.bot.tables.snapshot(channel)
        if snapshot is None or snapshot.table_id != v["table_id"]:
            await tell(interaction, "This table is closed. Open a new one with /doko new.")
            return
        tables, uid = self.bot.tables, interaction.user.id
        if kind == "table":
            action = v["action"]
            if action == "join":
                await tables.join(channel, member(interaction.user))
                await tell(interaction, "You sit at the table.")
            elif action == "leave":
                await self._leave(interaction)
            elif action == "ai":
                await tables.add_ai(channel, uid)
                await tell(interaction, "An AI player sits down.")
            elif action == "start":
                await interaction.response.defer(ephemeral=True, thinking=True)
                await tables.start(channel, uid)
                await interaction.followup.send(
                    "The game starts. Press **My cards** to see your hand.", ephemeral=True
                )
            else:  # cards, announce
                await self.send_panel(interaction)
            return
        if kind == "card":
            await tables.play(channel, uid, v["card"], game=v["game"], expected=v["n"])
        elif kind == "bid":
            await tables.bid(channel, uid, v["bid"], game=v["game"], expected=v["n"])
        elif kind == "announce":
            await tables.announce(channel, uid, v["word"], game=v["game"])
        elif kind == "cards":
            send = tables.poverty_pass if v["step"] == "pass" else tables.poverty_return
            await send(channel, uid, v["cards"], game=v["game"], expected=v["n"])
        elif kind == "panel":
            action = v["action"]
            if action == "back":
                await tables.come_back(channel, uid)
            elif action in ("accept", "decline"):
                await tables.poverty_reply(
                    channel, uid, action == "accept", game=v["game"], expected=v["n"]
                )
        await self.send_panel(interaction, edit=True)

    async def send_panel(
        self, interaction: discord.Interaction[Any], *, prefix: str = "", edit: bool = False
    ) -> None:
        """Show (or update in place) the user's private hand panel."""
        channel = self._channel(interaction)
        snapshot = self.bot.tables.snapshot(channel)
        try:
            panel = self.bot.tables.panel(channel, interaction.user.id)
        except TableError as exc:
            if exc.code != "no_game" or snapshot is None:
                await tell(interaction, exc.message)
                return
            # Between games: say so, and let a player the AI stands in for come back.
            text = (
                "No game is running right now: the next one starts shortly (press My cards then)."
            )
            view = discord.ui.View(timeout=None)
            seat = next(
                (s for s in snapshot.seats if s and s.player_id == interaction.user.id), None
            )
            if seat is not None and seat.away:
                view.add_item(PanelButton("back", snapshot.table_id, 0, 0, row=0))
            if edit and not interaction.response.is_done():
                await interaction.response.edit_message(content=text, attachments=[], view=view)
            else:
                await tell(interaction, text, view=view)
            return
        assert snapshot is not None
        # Remember it first, so the events of this very move do not redraw it twice.
        self.presenter.remember_panel(channel, interaction.user.id, interaction, panel.action_no)
        content, file, view = await hand_panel(snapshot, panel)
        if prefix:
            content = f"{prefix}\n{content}"
        if edit and not interaction.response.is_done():
            await interaction.response.edit_message(content=content, attachments=[file], view=view)
        elif interaction.response.is_done():
            await interaction.followup.send(content, file=file, view=view, ephemeral=True)
        else:
            await interaction.response.send_message(content, file=file, view=view, ephemeral=True)

    def _panel_or_none(self, interaction: discord.Interaction[Any]) -> Panel | None:
        """The user's panel for autocomplete (which must never fail loudly)."""
        try:
            return self.bot.tables.panel(self._channel(interaction), interaction.user.id)
        except TableError:
            return None

    def _channel(self, interaction: discord.Interaction[Any]) -> int:
        if interaction.channel_id is None or interaction.guild_id is None:
            raise TableError(
                "Doppelkopf is played in a server channel, not in direct messages.", "dm"
            )
        return interaction.channel_id


def _card_from_text(text: str) -> Card:
    """Parse ``CQ``, ``♣Q``, ``kreuz dame``-free short forms: code or symbol + rank."""
    t = text.strip().upper().replace(" ", "")
    for symbol, letter in (("♣", "C"), ("♠", "S"), ("♥", "H"), ("♦", "D")):
        t = t.replace(symbol, letter)
    return Card.parse(t)


def _rule_value(key: str, value: str) -> Any:
    """Turn the text a user typed into a rule value for ``RuleSet.from_dict``."""
    text = value.strip().lower()
    if key in ("nines", "poverty", "poverty_fox_counts", "soloist_leads", "announcement_doubles"):
        if text in ("true", "yes", "on", "1", "ja"):
            return True
        if text in ("false", "no", "off", "0", "nein"):
            return False
        raise ValueError(f"{key} takes true or false")
    if key == "compulsory_solos":
        return int(text)
    if key == "solos":
        names = [s.strip() for s in text.replace(";", ",").split(",") if s.strip()]
        for name in names:
            SoloType(name)
        return names
    return text
