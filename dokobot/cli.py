"""The ``dokobot`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from dokobot.engine import RecordError, replay_text


def _replay(args: argparse.Namespace) -> int:
    """Check a game record against the rules and print its outcome as JSON."""
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    try:
        result = replay_text(text)
    except RecordError as exc:
        print(str(exc).splitlines()[0], file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dokobot", description="Doppelkopf for Discord.")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="check a game record and print its outcome")
    replay.add_argument("file", help="a doko-record/1 JSON file, or - for standard input")
    replay.set_defaults(handler=_replay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
