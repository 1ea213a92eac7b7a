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


def _render(args: argparse.Namespace) -> int:
    """Write one image of each kind (or a recorded game's tricks and result) as PNG files."""
    from pathlib import Path

    from dokobot.render.samples import record_images, sample_images

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.record:
        try:
            with open(args.record, encoding="utf-8") as handle:
                images = record_images(handle.read())
        except (OSError, RecordError) as exc:
            print(f"cannot render {args.record}: {exc}", file=sys.stderr)
            return 2
    else:
        images = sample_images(args.seed)
    for name, png in images.items():
        path = out / f"{name}.png"
        path.write_bytes(png)
        print(f"{path} ({len(png) // 1024} KiB)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dokobot", description="Doppelkopf for Discord.")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="check a game record and print its outcome")
    replay.add_argument("file", help="a doko-record/1 JSON file, or - for standard input")
    replay.set_defaults(handler=_replay)
    render = commands.add_parser("render", help="write sample images (or a record's) as PNG")
    render.add_argument("--out", default="renders", help="folder for the PNG files")
    render.add_argument("--seed", type=int, default=7, help="seed of the sample game")
    render.add_argument("--record", help="a doko-record/1 file: its tricks and result")
    render.set_defaults(handler=_render)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
