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


def _simulate(args: argparse.Namespace) -> int:
    """Self-play N deals and print each strategy's results."""
    from dokobot.ai.arena import simulate
    from dokobot.engine import RuleError, RuleSet

    players = [p.strip() for p in args.players.split(",")]
    if len(players) != 4:
        print("--players needs four comma-separated strategies", file=sys.stderr)
        return 2
    try:
        rules = RuleSet.from_dict(json.loads(args.rules)) if args.rules else RuleSet()
    except (json.JSONDecodeError, RuleError) as exc:
        print(f"--rules: {exc}", file=sys.stderr)
        return 2
    progress = _progress_bar if sys.stderr.isatty() else None
    try:
        summary = simulate(
            args.games,
            args.seed,
            players,
            rules,
            rotate=args.rotate,
            jobs=args.jobs,
            progress=progress,
        )
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    if progress:
        print(file=sys.stderr)
    print(_simulation_table(summary))
    if args.json:
        print(json.dumps(summary))
    return 0


def _progress_bar(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} deals")
    sys.stderr.flush()


def _pct(value: float | None) -> str:
    return "   —" if value is None else f"{value:4.0%}"


def _simulation_table(summary: dict[str, object]) -> str:
    strategies: dict[str, dict[str, float]] = summary["strategies"]  # type: ignore[assignment]
    timing: dict[str, dict[str, float]] = summary["decision_ms"]  # type: ignore[assignment]
    rotated = " (every deal in all four seat rotations)" if summary["rotate"] else ""
    lines = [f"{summary['deals']} deals, seed {summary['seed']}{rotated}", ""]
    lines.append(
        f"{'strategy':<10} {'games':>6} {'mean ± se':>14} {'non-solo ± se':>15} "
        f"{'Re won':>7} {'Ko won':>7} {'solos':>6} {'solo won':>8} {'ann.':>5} {'ann. won':>8} "
        f"{'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}"
    )
    for name, s in strategies.items():
        t = timing[name]
        lines.append(
            f"{name:<10} {s['games']:>6} {s['mean']:>+7.3f} ± {s['se']:.3f} "
            f"{s['mean_non_solo']:>+8.3f} ± {s['se_non_solo']:.3f} "
            f"{_pct(s['re_win_rate']):>7} {_pct(s['kontra_win_rate']):>7} "
            f"{_pct(s['solo_rate']):>6} {_pct(s['solo_success']):>8} "
            f"{_pct(s['announce_rate']):>5} {_pct(s['announce_success']):>8} "
            f"{t['p50']:>7.3f} {t['p95']:>7.3f} {t['max']:>7.3f}"
        )
    return "\n".join(lines)


def _play(args: argparse.Namespace) -> int:
    """A game in the terminal against three AI players."""
    from dokobot.terminal import main as play_main

    return play_main(args.seed, args.ai, args.games, args.pause)


def _run(args: argparse.Namespace) -> int:
    """Run the Discord bot (token from DISCORD_TOKEN or .env)."""
    from dokobot.bot import run

    return run()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dokobot", description="Doppelkopf for Discord.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run the Discord bot (DISCORD_TOKEN, DOKOBOT_DB)")
    run.set_defaults(handler=_run)
    replay = commands.add_parser("replay", help="check a game record and print its outcome")
    replay.add_argument("file", help="a doko-record/1 JSON file, or - for standard input")
    replay.set_defaults(handler=_replay)
    render = commands.add_parser("render", help="write sample images (or a record's) as PNG")
    render.add_argument("--out", default="renders", help="folder for the PNG files")
    render.add_argument("--seed", type=int, default=7, help="seed of the sample game")
    render.add_argument("--record", help="a doko-record/1 file: its tricks and result")
    render.set_defaults(handler=_render)
    play = commands.add_parser("play", help="play in the terminal against three AI players")
    play.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    play.add_argument("--ai", default="heuristic", help="AI level: heuristic or random")
    play.add_argument("--games", type=int, default=None, help="stop after this many games")
    play.add_argument("--pause", type=float, default=0.6, help="seconds between AI moves")
    play.set_defaults(handler=_play)
    sim = commands.add_parser("simulate", help="AI self-play with statistics")
    sim.add_argument("--games", type=int, default=100, help="deals to play")
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument(
        "--players", default="heuristic,random,random,random", help="four strategies, seat 0 first"
    )
    sim.add_argument("--rotate", action="store_true", help="play each deal in all four seatings")
    sim.add_argument("--rules", help='house rules as JSON, e.g. {"poverty": true}')
    sim.add_argument("--jobs", type=int, default=1, help="worker processes")
    sim.add_argument("--json", action="store_true", help="end with one JSON line")
    sim.set_defaults(handler=_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
