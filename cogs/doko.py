"""The /doko commands and the buttons: parse the interaction, call the service, reply."""

from __future__ import annotations

import asyncio
import gzip
import io
import json
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from dokobot import metrics
from dokobot.engine import RuleError, RuleSet
from dokobot.i18n import N_, T, card_label, lang_of
from dokobot.i18n.cards import card_from_text
from dokobot.render import render_leaderboard, sort_hand
from dokobot.render.text import announcement_name, bid_label, contract_name
from dokobot.storage import Period
from dokobot.table.service import Member, Panel, TableError

from .commands import PERIODS, locale_str
from .modes import MODES, PLAN_OPTIONS, bock_text, plan_from, plan_text
from .panels import (
    DYNAMIC_ITEMS,
    PanelButton,
    TableButton,
    hand_panel,
)
from .presenter import Presenter
from .rules_help import (
    RULE_HELP,
    RULE_KEYS,
    explained,
    parse_value,
    rules_line,
    shown,
    suggestions,
    values_text,
)

if TYPE_CHECKING:
    from dokobot.bot import DokoBot

log = logging.getLogger("dokobot.discord")

__all__ = ["DYNAMIC_ITEMS", "DokoAdminCog", "DokoCog"]

#: What the bot needs in a channel to run a table there (in a thread, sending is
#: its own permission).
NEEDED = ("view_channel", "send_messages", "attach_files", "embed_links", "read_message_history")
NEEDED_IN_THREAD = (
    "view_channel",
    "send_messages_in_threads",
    "attach_files",
    "embed_links",
    "read_message_history",
)
#: Leave a little room below Discord's upload limit for the message around the file.
UPLOAD_MARGIN = 64 * 1024
#: The AI levels a table offers (docs/architecture.md: the AI players).
AI_CHOICES = [
    app_commands.Choice(name=locale_str("strong (thinks through sampled deals)"), value="strong"),
    app_commands.Choice(name=locale_str("heuristic (a decent club player)"), value="heuristic"),
    app_commands.Choice(name=locale_str("easy (makes mistakes)"), value="easy"),
    app_commands.Choice(name=locale_str("random (a beginner)"), value="random"),
]
#: Discord's limits: 4096 characters in an embed's description, 6000 in a message's embeds.
EMBED_TEXT = 4000
MESSAGE_EMBEDS_TEXT = 5800


def _t(interaction: discord.Interaction[Any], message: str, /, **params: Any) -> str:
    """``message`` in the language of the user who made ``interaction`` (private answers)."""
    return T(lang_of(interaction.locale), message, **params)


def member(user: discord.abc.User) -> Member:
    return Member(user.id, getattr(user, "display_name", None) or user.name)


async def defer(interaction: discord.Interaction[Any], *, update: bool = False) -> None:
    """Acknowledge at once, before anything that may wait (Discord allows 3 s).

    ``update``: a click on the private panel, which is then edited in place; else
    a private "thinking …" answer that the final answer replaces.
    """
    if not interaction.response.is_done():
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        acknowledged(interaction)


def acknowledged(interaction: discord.Interaction[Any]) -> None:
    """Count how long the first answer took, from Discord's timestamp of the click
    (the ``dokobot_interaction_seconds`` histogram)."""
    waited = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    metrics.INTERACTION_SECONDS.observe(max(0.0, waited))


async def defer_public(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge at once with a public "thinking …" that the public answer replaces."""
    interaction.extras["public"] = True
    await interaction.response.defer(thinking=True)
    acknowledged(interaction)


def _thinking(interaction: discord.Interaction[Any]) -> bool:
    """Deferred with "thinking …" and not answered yet: the answer replaces it."""
    return (
        interaction.response.type is discord.InteractionResponseType.deferred_channel_message
        and not interaction.extras.get("answered")
    )


async def tell(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """A private answer to whoever made the interaction (response, deferred answer or
    follow-up). If Discord does not take it, only showing failed: that is logged, and
    whatever the interaction did stands."""
    try:
        await _tell(interaction, text, **kwargs)
    except discord.HTTPException as exc:
        log.warning(
            "answer in channel %s not shown: %s %s", interaction.channel_id, exc.status, exc.code
        )


async def _tell(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True, **kwargs)
        acknowledged(interaction)
    elif _thinking(interaction) and interaction.extras.get("public"):
        # A private answer cannot replace a public "thinking …": send it, drop that.
        interaction.extras["answered"] = True
        await interaction.followup.send(text, ephemeral=True, **kwargs)
        await interaction.delete_original_response()
    elif _thinking(interaction):
        interaction.extras["answered"] = True
        if "file" in kwargs:
            kwargs["attachments"] = [kwargs.pop("file")]
        await interaction.edit_original_response(content=text, **kwargs)
    else:
        await interaction.followup.send(text, ephemeral=True, **kwargs)


@app_commands.guild_only()
@app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
class DokoCog(
    commands.GroupCog, name="doko", group_name="doko", group_description="Play Doppelkopf"
):
    """All of DokoBot's game commands live under /doko (servers only)."""

    def __init__(self, bot: DokoBot) -> None:
        self.bot = bot
        self.presenter = Presenter(bot)
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        self.presenter.saw(interaction)
        return True

    # ------------------------------------------------------------------ Discord takes away

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.bot.tables.close_channel(channel.id, "channel_deleted")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.bot.tables.close_channel(payload.thread_id, "channel_deleted")

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.bot.tables.close_guild(guild.id, "guild_left")

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, _before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        if self.bot.tables.snapshot(after.id) is None or after.guild.me is None:
            return
        if _missing(after.permissions_for(after.guild.me), thread=False):
            await self.presenter.channel_gone(after.id, "no_permission")

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Close the tables whose server or channel went away while the bot was offline."""
        for snapshot in self.bot.tables.tables():
            guild = self.bot.get_guild(snapshot.guild_id)
            if guild is None:
                await self.bot.tables.close_guild(snapshot.guild_id, "guild_left")
                continue
            if guild.unavailable or guild.get_channel_or_thread(snapshot.channel_id):
                continue
            try:  # an archived thread is not in the cache: ask
                await self.bot.fetch_channel(snapshot.channel_id)
            except discord.NotFound:
                await self.bot.tables.close_channel(snapshot.channel_id, "channel_deleted")
            except discord.Forbidden:
                await self.presenter.channel_gone(snapshot.channel_id, "no_permission")
            except discord.HTTPException:
                log.warning("channel %s of a table not checked", snapshot.channel_id)

    # ------------------------------------------------------------------ errors

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """The one error handler of the command tree: a private, specific answer."""
        original = getattr(error, "original", error)
        if isinstance(original, TableError):
            await tell(interaction, original.text(lang_of(interaction.locale)))
            return
        if isinstance(error, app_commands.MissingPermissions):
            await tell(
                interaction, _t(interaction, "You need the Manage Server permission for that.")
            )
            return
        if isinstance(error, app_commands.CheckFailure):
            await tell(interaction, _t(interaction, "You cannot use that command here."))
            return
        log.error(
            "command %s failed",
            interaction.command and interaction.command.qualified_name,
            exc_info=original,
        )
        await tell(
            interaction, _t(interaction, "Sorry, something went wrong; nothing was changed.")
        )

    # ------------------------------------------------------------------ lobby

    @app_commands.command(name="new", description="Open a Doppelkopf table in this channel")
    @app_commands.describe(**PLAN_OPTIONS, ai_level="How the AI players play")
    @app_commands.choices(mode=MODES, ai_level=AI_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        mode: str | None = None,
        rounds: app_commands.Range[int, 1, 50] | None = None,
        target: app_commands.Range[int, 1, 10000] | None = None,
        stake: app_commands.Range[int, 1, 10000] | None = None,
        currency: app_commands.Range[str, 1, 8] | None = None,
        ai_announces: bool | None = None,
        ai_level: str | None = None,
    ) -> None:
        thread = isinstance(interaction.channel, discord.Thread)
        missing = _missing(
            interaction.app_permissions, thread=thread, lang=lang_of(interaction.locale)
        )
        if missing:
            await tell(
                interaction,
                _t(
                    interaction,
                    "I can't run a table in this channel: I need {missing} here.",
                    missing=missing,
                ),
            )
            return
        assert interaction.guild_id is not None and interaction.channel_id is not None
        await defer(interaction)
        settings = await self.bot.storage.settings.get(interaction.guild_id)
        plan = plan_from(
            settings.table_defaults.get("plan", {}),
            mode=mode,
            rounds=rounds,
            target=target,
            stake=stake,
            currency=currency,
            ai_announces=ai_announces,
        )
        # The table message itself is posted by the channel's outbox: exactly one.
        await self.bot.tables.open_table(
            interaction.guild_id,
            interaction.channel_id,
            member(interaction.user),
            settings={"plan": plan.to_dict(), **({"ai_level": ai_level} if ai_level else {})},
        )
        await tell(
            interaction,
            _t(interaction, "Table opened. Others can join with the Join button or /doko join.")
            + "\n"
            + plan_text(plan, lang_of(interaction.locale)),
        )

    @app_commands.command(name="join", description="Sit down at this channel's table")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await self._join(interaction)

    async def _join(self, interaction: discord.Interaction[Any]) -> None:
        await defer(interaction)
        channel = self._channel(interaction)
        was = self.bot.tables.snapshot(channel)
        snapshot = await self.bot.tables.join(channel, member(interaction.user))
        if was is not None and was.status == "playing" and snapshot.status == "playing":
            await tell(
                interaction,
                _t(interaction, "You take your seat back from the AI. Press **My cards**."),
            )
        else:
            # Everybody who joins sees the rules before the first card (docs/rules.md §9).
            lang = lang_of(interaction.locale)
            await tell(
                interaction,
                T(
                    lang,
                    "You sit at the table.\n{rules} · /doko rules explains each of them.",
                    rules=rules_line(snapshot.rules, lang),
                ),
            )

    @app_commands.command(name="leave", description="Leave this channel's table")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self._leave(interaction)

    async def _leave(self, interaction: discord.Interaction[Any], *, sure: bool = False) -> None:
        channel = self._channel(interaction)
        snapshot = self.bot.tables.snapshot(channel)
        if snapshot is not None and snapshot.status == "playing" and not sure:
            # Leaving a running game hands the seat to the AI: ask first.
            view = discord.ui.View(timeout=None)
            view.add_item(TableButton("leaveok", snapshot.table_id, lang_of(interaction.locale)))
            await tell(
                interaction,
                _t(
                    interaction,
                    "Leave the game? The AI plays your seat from now on; you can take it back "
                    "with **Join** while the session runs.",
                ),
                view=view,
            )
            return
        await defer(interaction)
        snapshot = await self.bot.tables.leave(channel, interaction.user.id)
        if snapshot is not None and snapshot.status == "playing":
            await tell(
                interaction,
                _t(
                    interaction, "You left; the AI plays your seat. Press **Join** to take it back."
                ),
            )
        else:
            await tell(interaction, _t(interaction, "You left the table."))

    @app_commands.command(
        name="kick", description="Free a seat, or give it to another player (owner or manager)"
    )
    @app_commands.describe(
        seat="The seat number (1–4) as the table message shows it",
        replacement="Who takes the seat and its cards (empty: the AI plays it)",
    )
    async def kick(
        self,
        interaction: discord.Interaction[Any],
        seat: app_commands.Range[int, 1, 4],
        replacement: discord.Member | None = None,
    ) -> None:
        await defer(interaction)
        channel = self._channel(interaction)
        force = bool(interaction.permissions.manage_guild)
        await self.bot.tables.kick(
            channel,
            interaction.user.id,
            seat - 1,
            force=force,
            replacement=member(replacement) if replacement is not None else None,
        )
        if replacement is not None:
            await tell(
                interaction,
                _t(
                    interaction,
                    "{name} takes seat {seat}.",
                    name=replacement.display_name,
                    seat=seat,
                ),
            )
        else:
            await tell(
                interaction,
                _t(interaction, "Seat {seat} is free (during a game the AI plays it).", seat=seat),
            )

    @app_commands.command(name="start", description="Start the game (empty seats get AI players)")
    @app_commands.describe(ai_level="How the AI players play (default: as /doko new chose)")
    @app_commands.choices(ai_level=AI_CHOICES)
    async def start(
        self, interaction: discord.Interaction[Any], ai_level: str | None = None
    ) -> None:
        await defer(interaction)
        await self.bot.tables.start(
            self._channel(interaction), interaction.user.id, ai_level=ai_level
        )
        await tell(
            interaction, _t(interaction, "The game starts. Press **My cards** to see your hand.")
        )

    @app_commands.command(name="stop", description="Close this channel's table")
    async def stop(self, interaction: discord.Interaction[Any]) -> None:
        await defer(interaction)
        force = bool(interaction.permissions.manage_guild)
        await self.bot.tables.stop(self._channel(interaction), interaction.user.id, force=force)
        await tell(interaction, _t(interaction, "The table is closed."))

    # ------------------------------------------------------------------ playing

    @app_commands.command(name="hand", description="Show your cards (only you see them)")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        await self.send_panel(interaction)

    @app_commands.command(name="play", description="Play a card")
    @app_commands.describe(card="The card to play, e.g. ♣Q, CQ, Kreuz Dame or ♣D")
    async def play(self, interaction: discord.Interaction[Any], card: str) -> None:
        channel = self._channel(interaction)
        panel = self.bot.tables.panel(channel, interaction.user.id)
        try:
            parsed = card_from_text(card)
        except ValueError:
            await tell(
                interaction,
                _t(
                    interaction,
                    "I don't know the card {text}: write it like ♣Q, ♥10 or CQ.",
                    text=repr(card),
                ),
            )
            return
        await defer(interaction)
        await self.bot.tables.play(
            channel, interaction.user.id, parsed, game=panel.game_number, expected=panel.turn_no
        )
        await self.send_panel(
            interaction, prefix=_t(interaction, "You played {card}.", card=parsed.name)
        )

    @play.autocomplete("card")
    async def play_card_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        panel = self._panel_or_none(interaction)
        if panel is None:
            return []
        if not panel.is_turn:
            return []
        order = panel.view.order
        try:
            typed = card_from_text(current) if current.strip() else None
        except ValueError:
            typed = None
        wanted = current.strip().upper()
        return [
            app_commands.Choice(name=card_label(card, lang_of(interaction.locale)), value=card.name)
            for card in sort_hand(list(panel.playable), order)
            if not wanted or card == typed or wanted in card.name or wanted in card.label.upper()
        ][:25]

    @app_commands.command(name="announce", description="Announce Re, Kontra, no 90 …")
    @app_commands.describe(what="The announcement")
    async def announce(self, interaction: discord.Interaction[Any], what: str) -> None:
        channel = self._channel(interaction)
        panel = self.bot.tables.panel(channel, interaction.user.id)
        word = what.strip().lower().replace(" ", "")
        await defer(interaction)
        await self.bot.tables.announce(channel, interaction.user.id, word, game=panel.game_number)
        lang = lang_of(interaction.locale)
        await tell(
            interaction, T(lang, "You announced {what}.", what=announcement_name(word, lang))
        )

    @announce.autocomplete("what")
    async def announce_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        panel = self._panel_or_none(interaction)
        if panel is None:
            return []
        lang = lang_of(interaction.locale)
        typed = current.lower()
        return [
            app_commands.Choice(name=announcement_name(w, lang), value=w)
            for w in panel.announcements
            if typed in w or typed in announcement_name(w, lang).lower()
        ]

    @app_commands.command(name="bid", description="Say healthy or name a reservation")
    @app_commands.describe(what="healthy, marriage, poverty or a solo")
    async def bid(self, interaction: discord.Interaction[Any], what: str) -> None:
        channel = self._channel(interaction)
        panel = self.bot.tables.panel(channel, interaction.user.id)
        await defer(interaction)
        await self.bot.tables.bid(
            channel, interaction.user.id, what, game=panel.game_number, expected=panel.turn_no
        )
        lang = lang_of(interaction.locale)
        await self.send_panel(
            interaction, prefix=T(lang, "You said {bid}.", bid=bid_label(lang, what))
        )

    @bid.autocomplete("what")
    async def bid_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        panel = self._panel_or_none(interaction)
        if panel is None:
            return []
        lang = lang_of(interaction.locale)
        typed = current.lower()
        return [
            app_commands.Choice(name=bid_label(lang, b.value), value=b.value)
            for b in panel.bids
            if typed in b.value or typed in bid_label(lang, b.value).lower()
        ][:25]

    # ------------------------------------------------------------------ sheets and stats

    @app_commands.command(name="scores", description="The score sheet of this table's session")
    async def scores(self, interaction: discord.Interaction[Any]) -> None:
        snapshot = self.bot.tables.snapshot(self._channel(interaction))
        if snapshot is None or snapshot.session_id is None:
            await tell(
                interaction, _t(interaction, "No session has been played at this table yet.")
            )
            return
        await defer_public(interaction)
        lang = await self.presenter.guild_lang(snapshot.guild_id)
        file = await self.presenter.sheet_image(
            snapshot.session_id, snapshot.plan, lang, bock=bock_text(snapshot, lang)
        )
        await interaction.followup.send(file=file)

    @app_commands.command(name="leaderboard", description="This server's ranking")
    @app_commands.describe(period="Which games count")
    @app_commands.choices(period=PERIODS)
    async def leaderboard(self, interaction: discord.Interaction[Any], period: str = "all") -> None:
        assert interaction.guild_id is not None
        await defer_public(interaction)
        rows = await self.bot.storage.stats.leaderboard(
            interaction.guild_id, Period(period), limit=20
        )
        lang = await self.presenter.guild_lang(interaction.guild_id)
        title = {
            "all": T(lang, "Leaderboard · all time"),
            "month": T(lang, "Leaderboard · this month"),
            "30d": T(lang, "Leaderboard · last 30 days"),
        }[period]
        png = await asyncio.to_thread(render_leaderboard, rows, title=title, lang=lang)
        await interaction.followup.send(
            file=discord.File(io.BytesIO(png), filename="leaderboard.png")
        )

    @app_commands.command(name="stats", description="A player's statistics on this server")
    @app_commands.describe(user="Whose statistics (empty: yours)")
    async def stats(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        assert interaction.guild_id is not None
        target = user or interaction.user
        await defer_public(interaction)
        stats = await self.bot.storage.stats.player_stats(interaction.guild_id, target.id)
        if stats is None or stats.games == 0:
            await tell(
                interaction,
                _t(
                    interaction,
                    "{name} has not finished a game here yet.",
                    name=target.display_name,
                ),
            )
            return
        lang = await self.presenter.guild_lang(interaction.guild_id)
        embed = discord.Embed(
            title=T(lang, "{name} · statistics", name=stats.name),
            colour=discord.Colour.dark_green(),
        )
        embed.add_field(name=T(lang, "Points"), value=f"{stats.points:+d}")
        embed.add_field(name=T(lang, "Games"), value=str(stats.games))
        embed.add_field(name=T(lang, "Won"), value=f"{stats.won} ({stats.win_rate:.0%})")
        embed.add_field(name=T(lang, "Average"), value=f"{stats.average:+.2f}")
        for label, won, played in (
            (T(lang, "As Re"), stats.re_won, stats.re_games),
            (T(lang, "As Kontra"), stats.kontra_won, stats.kontra_games),
            (T(lang, "Solos"), stats.solos_won, stats.solos),
        ):
            embed.add_field(name=label, value=T(lang, "{won}/{played} won", won=won, played=played))
        await interaction.followup.send(embed=embed)

    @app_commands.command(name="replay", description="A finished game: summary and record file")
    @app_commands.describe(game="The game number (the result line says it)")
    async def replay(self, interaction: discord.Interaction[Any], game: int) -> None:
        assert interaction.guild_id is not None
        await defer_public(interaction)
        stored = await self.bot.storage.stats.game(interaction.guild_id, game)
        if stored is None or stored.status != "finished":
            await tell(
                interaction,
                _t(interaction, "There is no finished game {game} on this server.", game=game),
            )
            return
        lang = await self.presenter.guild_lang(interaction.guild_id)
        result = stored.result or {}
        names = stored.players
        if result.get("redeal"):
            summary = T(lang, "Redeal: nobody took the poverty.")
        else:
            verdict = (
                T(lang, "{party} wins", party=result["winner"].capitalize())
                if result["winner"]
                else T(lang, "nobody wins")
            )
            summary = T(
                lang,
                "{contract} · Re ({re}) {re_points} : {kontra_points} · {verdict} · value "
                "{value} · scores {scores}",
                contract=contract_name(result["contract"], lang),
                re=", ".join(names[s] for s in result["re"]),
                re_points=result["card_points"]["re"],
                kontra_points=result["card_points"]["kontra"],
                verdict=verdict,
                value=result["game_value"],
                scores=", ".join(
                    f"{n} {s:+d}" for n, s in zip(names, result["scores"], strict=True)
                ),
            )
        data = json.dumps(stored.record, ensure_ascii=False, indent=1).encode()
        await interaction.followup.send(
            T(
                lang,
                "**Game {game}**: {summary}\nCheck it with `dokobot replay game-{game}.json`.",
                game=game,
                summary=discord.utils.escape_markdown(summary),
            ),
            file=discord.File(io.BytesIO(data), filename=f"game-{game}.json"),
        )

    @app_commands.command(
        name="rules", description="The rules of this table; its owner changes them before Start"
    )
    @app_commands.describe(
        key="A rule to change at this table (its owner, before Start)", value="Its new value"
    )
    async def rules(
        self,
        interaction: discord.Interaction[Any],
        key: str | None = None,
        value: str | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        await defer(interaction)
        lang = lang_of(interaction.locale)
        channel = self._channel(interaction)
        snapshot = self.bot.tables.snapshot(channel)
        if key is not None:
            if snapshot is None:
                await tell(
                    interaction,
                    T(
                        lang,
                        "There is no table in this channel: open one with /doko new. Server "
                        "managers set the server's rules with /doko-admin rules.",
                    ),
                )
                return
            await self._change_rule(interaction, key, value, table_channel=channel)
            return
        if snapshot is not None:
            rules, title = snapshot.rules, T(lang, "Doppelkopf rules at this table")
        else:
            settings = await self.bot.storage.settings.get(interaction.guild_id)
            rules, title = (
                RuleSet.from_dict(settings.rules),
                T(lang, "Doppelkopf rules on this server"),
            )
        await send_rules(
            interaction,
            title,
            rules,
            lang,
            T(
                lang,
                "The table's owner changes a rule with /doko rules key value before Start; server "
                "managers set the server's with /doko-admin rules (docs/rules.md §9).",
            ),
        )

    @rules.autocomplete("key")
    async def rules_key_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return rule_key_choices(current)

    @rules.autocomplete("value")
    async def rules_value_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return rule_value_choices(interaction, current)

    async def _change_rule(
        self,
        interaction: discord.Interaction[Any],
        key: str,
        value: str | None,
        *,
        table_channel: int | None,
    ) -> None:
        """Check a rule change typed by a user, then make it at the table or on the server."""
        lang = lang_of(interaction.locale)
        if key not in RULE_KEYS:
            await tell(
                interaction,
                T(
                    lang,
                    "There is no rule {key}; /doko rules lists them all (docs/rules.md §9).",
                    key=repr(key),
                ),
            )
            return
        if value is None:
            await tell(interaction, rule_help(key, lang))
            return
        try:
            parsed = parse_value(key, value)
        except ValueError:
            await tell(
                interaction,
                T(
                    lang,
                    "{value} is not a value of **{key}**; it takes {values} (docs/rules.md §9).",
                    value=repr(value),
                    key=key,
                    values=values_text(key, lang),
                ),
            )
            return
        if table_channel is not None:
            snapshot = await self.bot.tables.set_rules(
                table_channel, interaction.user.id, key, parsed
            )
            await tell(
                interaction,
                T(
                    lang,
                    "Rule **{key}** is now `{value}` at this table.\n{rules}",
                    key=key,
                    value=shown(parsed),
                    rules=rules_line(snapshot.rules, lang),
                ),
            )
            return
        assert interaction.guild_id is not None
        settings = await self.bot.storage.settings.get(interaction.guild_id)
        spec = {"preset": parsed} if key == "preset" else {**settings.rules, key: parsed}
        try:
            rules = RuleSet.from_dict(spec)
        except RuleError as exc:
            await tell(interaction, str(exc))
            return
        # Stored as the preset and the keys changed after it, so that the preset stays known.
        await self.bot.storage.settings.set_rules(interaction.guild_id, spec)
        await tell(
            interaction,
            T(
                lang,
                "Rule **{key}** is now `{value}` (from the next session on).\n{rules}",
                key=key,
                value=shown(parsed),
                rules=rules_line(rules, lang),
            ),
        )

    @app_commands.command(name="help", description="How to play with DokoBot")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        text = _t(
            interaction,
            "**DokoBot** plays Doppelkopf (DDV rules) right here.\n"
            "• `/doko new` opens a table; others press **Join**; the owner presses **Start** "
            "(empty seats get AI players).\n"
            "• **My cards** (or `/doko hand`) shows your hand, only to you. Tap a card to play "
            "it.\n"
            "• Announce Re/Kontra, no 90 … with the red buttons or `/doko announce`.\n"
            "• Every trick is shown here; `/doko scores` is the score sheet, `/doko leaderboard` "
            "the server ranking, `/doko stats` your record, `/doko replay game:` a finished game.\n"
            "• `/doko new mode:` plays free, fixed rounds, to a points target, a tournament "
            "list (24 games, Pflichtsolo) or a duel; `stake:` keeps a tally in cents per point.\n"
            "• `/doko rules` explains the rules; before Start the table's owner changes one "
            "with `/doko rules key value`. Server managers set the server's rules with "
            "`/doko-admin rules key value` (a preset: `preset pub`), the default mode with "
            "`/doko-admin mode` and the language with `/doko-admin language`.",
        )
        await tell(interaction, text)

    @app_commands.command(
        name="forget-me", description="Delete your name and statistics from DokoBot"
    )
    async def forget_me(self, interaction: discord.Interaction[Any]) -> None:
        await defer(interaction)
        await self.bot.storage.admin.delete_player(interaction.user.id)
        await tell(
            interaction,
            _t(
                interaction,
                "Done: your name and statistics are deleted; your past seats are anonymous.",
            ),
        )

    @app_commands.command(
        name="sync", description="Re-sync DokoBot's slash commands (bot owner only)"
    )
    async def sync(self, interaction: discord.Interaction[Any]) -> None:
        if not await self.bot.is_owner(interaction.user):
            await tell(interaction, _t(interaction, "Only the bot's owner can sync its commands."))
            return
        await defer(interaction)
        await self.bot.sync_commands(force=True)
        await tell(interaction, _t(interaction, "Slash commands synced."))

    # ------------------------------------------------------------------ components

    async def on_component(
        self, interaction: discord.Interaction[Any], kind: str, **values: Any
    ) -> None:
        """Every button and select of DokoBot ends here."""
        self.presenter.saw(interaction)
        try:
            await self._component(interaction, kind, **values)
        except TableError as exc:
            text = exc.text(lang_of(interaction.locale))
            if exc.code == "stale":
                await self.send_panel(interaction, prefix=text)
            else:
                await tell(interaction, text)

    async def _component(self, interaction: discord.Interaction[Any], kind: str, **v: Any) -> None:
        channel = self._channel(interaction)
        snapshot = self.bot.tables.snapshot(channel)
        if snapshot is None or snapshot.table_id != v["table_id"]:
            await tell(
                interaction, _t(interaction, "This table is closed. Open a new one with /doko new.")
            )
            return
        tables, uid = self.bot.tables, interaction.user.id
        if kind == "table":
            action = v["action"]
            if action == "join":
                await self._join(interaction)
            elif action in ("leave", "leaveok"):
                await self._leave(interaction, sure=action == "leaveok")
            elif action == "ai":
                await defer(interaction)
                await tables.add_ai(channel, uid)
                await tell(interaction, _t(interaction, "An AI player sits down."))
            elif action == "start":
                await defer(interaction)
                await tables.start(channel, uid)
                await tell(
                    interaction,
                    _t(interaction, "The game starts. Press **My cards** to see your hand."),
                )
            else:  # cards, announce
                await self.send_panel(interaction)
            return
        # A click on the private panel: acknowledge now, edit the panel when done.
        await defer(interaction, update=True)
        if kind == "card":
            await tables.play(channel, uid, v["card"], game=v["game"], expected=v["n"])
        elif kind == "bid":
            await tables.bid(channel, uid, v["bid"], game=v["game"], expected=v["n"])
        elif kind == "announce":
            await tables.announce(channel, uid, v["word"], game=v["game"])
        elif kind == "declare":
            await tables.declare(channel, uid, v["what"], game=v["game"])
        elif kind == "genscher":
            await tables.genscher(channel, uid, v["seat"], game=v["game"], expected=v["n"])
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
        await self.send_panel(interaction)

    async def send_panel(self, interaction: discord.Interaction[Any], *, prefix: str = "") -> None:
        """Show the user's private hand panel: in place on a panel click, else as the
        private answer."""
        await defer(interaction)
        channel = self._channel(interaction)
        snapshot = self.bot.tables.snapshot(channel)
        in_place = interaction.response.type is (
            discord.InteractionResponseType.deferred_message_update
        )
        lang = lang_of(interaction.locale)
        try:
            panel = self.bot.tables.panel(channel, interaction.user.id)
        except TableError as exc:
            if exc.code != "no_game" or snapshot is None:
                await tell(interaction, exc.text(lang))
                return
            # Between games: say so, and let a player the AI stands in for come back.
            text = T(
                lang,
                "No game is running right now: the next one starts shortly (press My cards then).",
            )
            view = discord.ui.View(timeout=None)
            seat = next(
                (s for s in snapshot.seats if s and s.player_id == interaction.user.id), None
            )
            if seat is not None and seat.away:
                view.add_item(PanelButton("back", snapshot.table_id, 0, 0, row=0, lang=lang))
            if in_place:
                await interaction.edit_original_response(content=text, attachments=[], view=view)
            else:
                await tell(interaction, text, view=view)
            return
        assert snapshot is not None
        # Remember it first, so the events of this very move do not redraw it twice.
        self.presenter.remember_panel(
            channel, interaction.user.id, interaction, panel.action_no, in_place=in_place
        )
        interaction.extras["answered"] = True
        if in_place and not prefix:
            # A click on the panel: the player's one redraw task draws it, so pictures go
            # out one at a time, each of the table as it is then. The AI seats play on
            # while a picture renders, and an older one must never land after a newer one.
            self.presenter.redraw_panel(channel, interaction.user.id)
            return
        content, file, view = await hand_panel(snapshot, panel, lang)
        if prefix:
            content = f"{prefix}\n{content}"
        try:
            await interaction.edit_original_response(content=content, attachments=[file], view=view)
        except discord.HTTPException as exc:
            # Only showing failed: whatever the click did stands, and the panel is
            # redrawn (or follows the player) when the turn comes round.
            log.warning("panel in channel %s not shown: %s %s", channel, exc.status, exc.code)
            return
        if panel.is_turn:
            self.bot.tables.turn_shown(channel, snapshot.turn)

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


@app_commands.guild_only()
@app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
@app_commands.default_permissions(manage_guild=True)
class DokoAdminCog(
    commands.GroupCog,
    name="doko-admin",
    group_name="doko-admin",
    group_description="DokoBot settings for server managers",
):
    """Server managers' commands: their own group, so Discord hides it from everyone else
    (Discord applies default member permissions per top-level command only)."""

    def __init__(self, bot: DokoBot) -> None:
        self.bot = bot
        super().__init__()

    def presenter(self) -> Presenter:
        cog = self.bot.get_cog("doko")
        assert isinstance(cog, DokoCog)
        return cog.presenter

    @app_commands.command(name="rules", description="Change one of this server's rules")
    @app_commands.describe(
        key="The rule to change (preset: start from ddv, pub or beginners)", value="Its new value"
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def rules(
        self, interaction: discord.Interaction[Any], key: str, value: str | None = None
    ) -> None:
        await defer(interaction)
        cog = self.bot.get_cog("doko")
        assert isinstance(cog, DokoCog)
        await cog._change_rule(interaction, key, value, table_channel=None)

    @rules.autocomplete("key")
    async def rules_key_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return rule_key_choices(current)

    @rules.autocomplete("value")
    async def rules_value_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return rule_value_choices(interaction, current)

    @app_commands.command(name="mode", description="How this server's new tables play by default")
    @app_commands.describe(**PLAN_OPTIONS)
    @app_commands.choices(mode=MODES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def mode(
        self,
        interaction: discord.Interaction[Any],
        mode: str,
        rounds: app_commands.Range[int, 1, 50] | None = None,
        target: app_commands.Range[int, 1, 10000] | None = None,
        stake: app_commands.Range[int, 1, 10000] | None = None,
        currency: app_commands.Range[str, 1, 8] | None = None,
        ai_announces: bool | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        await defer(interaction)
        plan = plan_from(
            {},
            mode=mode,
            rounds=rounds,
            target=target,
            stake=stake,
            currency=currency,
            ai_announces=ai_announces,
        )
        settings = await self.bot.storage.settings.get(interaction.guild_id)
        defaults = {**settings.table_defaults, "plan": plan.to_dict()}
        await self.bot.storage.settings.set_table_defaults(interaction.guild_id, defaults)
        await tell(
            interaction,
            _t(
                interaction,
                "New tables on this server play: {plan}",
                plan=plan_text(plan, lang_of(interaction.locale)),
            ),
        )

    @app_commands.command(
        name="language", description="The language of this server's public messages and pictures"
    )
    @app_commands.describe(language="German or English")
    @app_commands.choices(
        language=[
            app_commands.Choice(name="Deutsch", value="de"),
            app_commands.Choice(name="English", value="en"),
        ]
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def language(self, interaction: discord.Interaction[Any], language: str) -> None:
        assert interaction.guild_id is not None
        await defer(interaction)
        settings = await self.bot.storage.settings.get(interaction.guild_id)
        defaults = {**settings.table_defaults, "language": language}
        await self.bot.storage.settings.set_table_defaults(interaction.guild_id, defaults)
        self.presenter().languages[interaction.guild_id] = language
        for snapshot in self.bot.tables.tables():
            if snapshot.guild_id == interaction.guild_id:
                self.presenter().touch_table(snapshot.channel_id)
        await tell(
            interaction,
            T(
                language,
                "From now on this server's tables speak {language}.",
                language=T(language, LANGUAGE_NAMES[language]),
            ),
        )

    @app_commands.command(
        name="reset-leaderboard", description="Start a fresh leaderboard (old games are archived)"
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def reset_leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        await defer_public(interaction)
        epoch = await self.bot.storage.admin.reset_leaderboard(interaction.guild_id)
        lang = await self.presenter().guild_lang(interaction.guild_id)
        await interaction.followup.send(
            T(lang, "The leaderboard starts afresh (season {season}).", season=epoch + 1)
        )

    @app_commands.command(
        name="export", description="This server's finished games (gzip-compressed JSON lines)"
    )
    @app_commands.describe(period="Which games (all time when left empty)")
    @app_commands.choices(period=PERIODS)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def export(self, interaction: discord.Interaction[Any], period: str = "all") -> None:
        assert interaction.guild_id is not None and interaction.guild is not None
        await defer(interaction)
        lines = [
            line
            async for line in self.bot.storage.admin.export_games(
                interaction.guild_id, Period(period)
            )
        ]
        limit = interaction.guild.filesize_limit - UPLOAD_MARGIN
        parts = await asyncio.to_thread(export_parts, lines, limit)
        if len(parts) > 10:
            await tell(
                interaction,
                _t(
                    interaction,
                    "{games} games are too many for one export ({files} files). "
                    "Choose a shorter period.",
                    games=len(lines),
                    files=len(parts),
                ),
            )
            return
        names = [f"games-{i + 1}.jsonl.gz" for i in range(len(parts))]
        if len(parts) == 1:
            names = ["games.jsonl.gz"]
        await tell(
            interaction,
            _t(
                interaction,
                "{games} games, gzip-compressed JSON lines in {parts} parts.",
                games=len(lines),
                parts=len(parts),
            )
            if len(parts) > 1
            else _t(interaction, "{games} games, gzip-compressed JSON lines.", games=len(lines)),
            files=[
                discord.File(io.BytesIO(data), filename=name)
                for data, name in zip(parts, names, strict=True)
            ],
        )


def export_parts(lines: list[str], limit: int) -> list[bytes]:
    """Gzip the JSON lines into as few files under ``limit`` bytes as it takes, each a
    whole number of games (every part is a valid JSON-lines file on its own)."""
    whole = gzip.compress(("".join(f"{line}\n" for line in lines)).encode(), mtime=0)
    if len(whole) <= limit or len(lines) <= 1:
        return [whole]
    half = len(lines) // 2
    return export_parts(lines[:half], limit) + export_parts(lines[half:], limit)


LANGUAGE_NAMES = {"en": N_("English"), "de": N_("German")}
#: Permission names as Discord's own settings show them.
PERMISSION_NAMES = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "attach_files": N_("Attach Files"),
    "embed_links": N_("Embed Links"),
    "read_message_history": N_("Read Message History"),
}


def rule_key_choices(current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a rule key: only keys there are."""
    return [app_commands.Choice(name=k, value=k) for k in suggestions(None, current)]


def rule_value_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete for a rule value: only the values of the key typed before it."""
    key = getattr(interaction.namespace, "key", None)
    if key not in RULE_KEYS:
        return []
    return [app_commands.Choice(name=v[:100], value=v[:100]) for v in suggestions(key, current)]


def rule_help(key: str, lang: str) -> str:
    """One rule's explanation and values, for ``/doko rules key`` without a value."""
    if key == "preset":
        return T(
            lang,
            "**preset**: start from a named rule set: `ddv` (tournament rules), `pub` or "
            "`beginners` (docs/rules.md §9.7).",
        )
    return T(
        lang,
        "**{key}**: {help}\nValues: {values}",
        key=key,
        help=T(lang, RULE_HELP[key]),
        values=values_text(key, lang),
    )


async def send_rules(
    interaction: discord.Interaction[Any], title: str, rules: RuleSet, lang: str, footer: str
) -> None:
    """Every rule with its value and one line of explanation, in as few private messages
    as Discord's embed limits allow."""
    embeds: list[discord.Embed] = []
    text = ""
    for line in explained(rules, lang):
        if len(text) + len(line) + 1 > EMBED_TEXT:
            embeds.append(discord.Embed(description=text, colour=discord.Colour.dark_green()))
            text = ""
        text += line + "\n"
    embeds.append(discord.Embed(description=text, colour=discord.Colour.dark_green()))
    embeds[0].title = title
    embeds[0].description = f"**{rules_line(rules, lang)}**\n\n{embeds[0].description}"
    embeds[-1].set_footer(text=footer)
    batch: list[discord.Embed] = []
    for embed in embeds:
        if batch and sum(len(e) for e in batch) + len(embed) > MESSAGE_EMBEDS_TEXT:
            await interaction.followup.send(embeds=batch, ephemeral=True)
            batch = []
        batch.append(embed)
    await interaction.followup.send(embeds=batch, ephemeral=True)


def _missing(permissions: discord.Permissions, *, thread: bool, lang: str = "en") -> str:
    """The permissions the bot lacks to run a table, as a user reads them ('' if none)."""
    needed = NEEDED_IN_THREAD if thread else NEEDED
    return ", ".join(T(lang, PERMISSION_NAMES[p]) for p in needed if not getattr(permissions, p))
