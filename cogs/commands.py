"""Slash commands in German and English: discord.py's ``app_commands.Translator``
reads the German names and descriptions from the catalogue (``dokobot/i18n/de.po``).

Command, group and option names are looked up with the message context
``command`` (they are single words that also occur in sentences); descriptions
and choices are ordinary texts.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import locale_str

from dokobot.i18n import lang_of, translations

__all__ = ["PERIODS", "Translator", "command_strings", "locale_str"]

PERIODS = [
    app_commands.Choice(name=locale_str("all time"), value="all"),
    app_commands.Choice(name=locale_str("this month"), value="month"),
    app_commands.Choice(name=locale_str("last 30 days"), value="30d"),
]
NAMES = (Where.command_name, Where.group_name, Where.parameter_name)


class Translator(app_commands.Translator):
    """German for the ``de`` locale; every other locale sees the English."""

    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        if lang_of(locale) != "de":
            return None
        catalogue = translations("de")
        if context.location in NAMES:
            text = str(catalogue.pgettext("command", string.message))
        else:
            text = catalogue.gettext(string.message)
        return text if text != string.message else None


def command_strings() -> Iterator[tuple[str | None, str]]:
    """(context, text) of every command, group, option and choice name and description."""
    from .doko import DokoAdminCog, DokoCog

    for cog in (DokoCog, DokoAdminCog):
        yield "command", str(cog.__cog_group_name__)
        yield None, str(cog.__cog_group_description__)
        for command in cog.__cog_app_commands__:
            yield "command", command.name
            yield None, str(command.description)
            for param in getattr(command, "parameters", []):
                yield "command", param.name
                yield None, str(param.description)
                for choice in param.choices:
                    yield None, str(choice.name)
