"""Errors the command line reports as one line: bad input (exit 2) or the environment (exit 1)."""

from __future__ import annotations


class CommandError(Exception):
    """A command cannot go on; the message says what to do about it."""

    status = 1


class UsageError(CommandError):
    """The user gave something the command cannot use: fix the input (exit status 2)."""

    status = 2


class EnvironmentFailure(CommandError):
    """The machine let us down: network, disk, database (exit status 1)."""

    status = 1
