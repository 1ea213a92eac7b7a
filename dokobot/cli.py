"""The ``dokobot`` command line.

Every error is one line on standard error that says what to do: exit status 2
for bad input, 1 for a failure of the environment (network, disk). ``--debug``
shows the traceback instead.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sqlite3
import sys
import tempfile
import traceback
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, NoReturn

from dokobot.errors import CommandError, EnvironmentFailure, UsageError

AI_LEVELS = ("easy", "heuristic", "normal", "random", "strong")
ENVIRONMENT = """\
environment:
  DISCORD_TOKEN       the bot token (required; also read from ./.env)
  DOKOBOT_DB          SQLite database file (default: ./dokobot.sqlite3) or postgresql:// URL
  DOKOBOT_DEV_GUILD   a server id: slash commands are synced there on every start
  DOKOBOT_OWNER_ID    your user id: allows /doko sync
  DOKOBOT_CARD_IMAGES folder with the card faces (default: card_images/ of the source)
  DOKOBOT_HEARTBEAT   file the bot refreshes every 30 s; `dokobot health` checks it
  DOKOBOT_HEALTH_PORT port of the HTTP endpoint /health and /metrics (default: none)
  DOKOBOT_HEALTH_HOST address it listens on (default: 127.0.0.1)
  DOKOBOT_SHARD_COUNT shards of all processes together (default: Discord's advice)
  DOKOBOT_SHARDS      the shards this process runs, e.g. 0-3 (default: all)
  DOKOBOT_AI_WORKERS  processes for AI decisions (default: one per core)
  DOKOBOT_LOG_FORMAT  text or json (JSON lines)
"""
SIMULATE_COLUMNS = """\
columns:
  games          games the strategy played (one per seat it held)
  mean ± se      mean score per game and its standard error
  non-solo ± se  the same over games not scored as a solo (a silent marriage and a
                 marriage played alone are scored as solos, so they are left out here)
  Re won, Ko won how often the strategy's party won as Re / as Kontra (non-solo games)
  solos          how often the strategy declared a solo; solo won: how many it won
                 (silent marriages are not declared, so they are not counted as solos)
  ann., ann. won how often its party announced (Re/Kontra …), and how often it won then
  p50/p95/max ms time per decision
"""


def _version() -> str:
    try:
        return version("dokobot")
    except PackageNotFoundError:  # running from a checkout that was never installed
        return "unknown"


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 60:
        raise argparse.ArgumentTypeError(f"must be between 0 and 60 seconds, not {value:g}")
    return value


def _rules(text: str | None) -> Any:
    """House rules: a preset's name or JSON, checked against the rule set (docs/rules.md §9)."""
    from dokobot.engine import PRESETS, RuleError, RuleSet

    if not text:
        return None
    if text.strip() in PRESETS:
        return RuleSet.from_dict({"preset": text.strip()})
    try:
        return RuleSet.from_dict(json.loads(text))
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"--rules is neither a preset ({', '.join(PRESETS)}) nor JSON ({exc.msg}); "
            f"write it like pub or '{{\"poverty\": true}}'"
        ) from None
    except (RuleError, TypeError, AttributeError) as exc:
        raise UsageError(f"--rules: {exc}; see docs/rules.md for every key") from None


# ---------------------------------------------------------------------- commands


def _replay(args: argparse.Namespace) -> int:
    """Check a game record against the rules and print its outcome as JSON."""
    from dokobot.engine import RecordError, replay_text

    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UsageError(f"cannot read {args.file}: {reason}") from None
    if not text.strip():
        where = "standard input" if args.file == "-" else args.file
        raise UsageError(f"{where} is empty: give a doko-record/1 JSON file")
    try:
        result = replay_text(text)
    except RecordError as exc:
        raise UsageError(str(exc).splitlines()[0]) from None
    print(json.dumps(result))
    return 0


def _render(args: argparse.Namespace) -> int:
    """Write one image of each kind (or a recorded game's tricks and result) as PNG files."""
    from dokobot.engine import RecordError
    from dokobot.render.samples import record_images, sample_images

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file: name a folder for the PNG files")
    if args.record:
        try:
            with open(args.record, encoding="utf-8") as handle:
                images = record_images(handle.read())
        except OSError as exc:
            raise UsageError(f"cannot read {args.record}: {exc.strerror or exc}") from None
        except RecordError as exc:
            raise UsageError(f"{args.record}: {str(exc).splitlines()[0]}") from None
    else:
        images = sample_images(args.seed)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, png in images.items():
            path = out / f"{name}.png"
            path.write_bytes(png)
            print(f"{path} ({len(png) // 1024} KiB)")
    except OSError as exc:
        raise EnvironmentFailure(
            f"cannot write to {exc.filename or out}: {exc.strerror or exc}"
        ) from None
    return 0


def _simulate(args: argparse.Namespace) -> int:
    """Self-play N deals and print each strategy's results."""
    from dokobot.ai.arena import simulate
    from dokobot.engine import RuleSet

    players = [p.strip() for p in args.players.split(",")]
    if len(players) != 4:
        raise UsageError(
            f"--players needs four comma-separated AI levels, not {len(players)} "
            f"(levels: {', '.join(AI_LEVELS)})"
        )
    unknown = [p for p in players if p not in AI_LEVELS]
    if unknown:
        raise UsageError(f"unknown AI level {unknown[0]!r}; choose {', '.join(AI_LEVELS)}")
    rules = _rules(args.rules) or RuleSet()
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
            samples=args.samples,
            budget_ms=args.budget_ms,
            session=args.session or 0,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if progress:
        print(file=sys.stderr)
    print(simulation_table(summary))
    if args.json:
        print(json.dumps(summary))
    return 0


def _progress_bar(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} deals")
    sys.stderr.flush()


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


#: (header, width) of each column of the simulation table; the first is left-aligned.
_COLUMNS = (
    ("strategy", 10),
    ("games", 6),
    ("mean ± se", 15),
    ("non-solo ± se", 15),
    ("Re won", 7),
    ("Ko won", 7),
    ("solos", 6),
    ("solo won", 8),
    ("ann.", 5),
    ("ann. won", 8),
    ("p50 ms", 7),
    ("p95 ms", 7),
    ("max ms", 7),
)


def simulation_table(summary: dict[str, Any]) -> str:
    """The strategies' figures, one row each, every value under its header."""

    def line(cells: Sequence[str]) -> str:
        first, *rest = zip(cells, _COLUMNS, strict=True)
        return " ".join(
            [f"{first[0]:<{first[1][1]}}", *(f"{c:>{w}}" for c, (_, w) in rest)]
        ).rstrip()

    strategies: dict[str, dict[str, Any]] = summary["strategies"]
    timing: dict[str, dict[str, float]] = summary["decision_ms"]
    rotated = " (every deal in all four seat rotations)" if summary["rotate"] else ""
    lines = [f"{summary['deals']} deals, seed {summary['seed']}{rotated}", ""]
    lines.append(line([h for h, _ in _COLUMNS]))
    for name, s in strategies.items():
        t = timing[name]
        lines.append(
            line(
                [
                    name,
                    str(s["games"]),
                    f"{s['mean']:+.3f} ± {s['se']:.3f}",
                    f"{s['mean_non_solo']:+.3f} ± {s['se_non_solo']:.3f}",
                    _pct(s["re_win_rate"]),
                    _pct(s["kontra_win_rate"]),
                    _pct(s["solo_rate"]),
                    _pct(s["solo_success"]),
                    _pct(s["announce_rate"]),
                    _pct(s["announce_success"]),
                    f"{t['p50']:.3f}",
                    f"{t['p95']:.3f}",
                    f"{t['max']:.3f}",
                ]
            )
        )
    lines += [
        "",
        "non-solo: games not scored as a solo (silent marriages are scored as solos).",
        "dokobot simulate --help explains every column.",
    ]
    return "\n".join(lines)


def _play(args: argparse.Namespace) -> int:
    """Games in the terminal against three AI players; the session is saved."""
    import asyncio

    from dokobot.storage import StorageError
    from dokobot.terminal import default_database, default_lang, play

    rules = _rules(args.rules)
    database = Path(args.db) if args.db else default_database()
    try:
        database.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise EnvironmentFailure(
            f"cannot create {database.parent}: {exc.strerror}; give another file with --db"
        ) from None
    coro = play(
        seed=args.seed,
        ai_level=args.ai,
        games=args.games,
        read=input,
        out=sys.stdout,
        ai_pause=args.pause,
        database=database,
        rules=rules,
        new=args.new,
        lang=args.lang or default_lang(),
    )
    try:
        return asyncio.run(coro)
    except (sqlite3.Error, StorageError) as exc:
        raise EnvironmentFailure(
            f"cannot use the saved session {database} ({exc}); give another file with --db"
        ) from None
    except KeyboardInterrupt:
        # The session is saved and closed. A prompt's reader thread may still wait
        # in input(), and Python cannot shut down around it: leave at once.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)


def _health(args: argparse.Namespace) -> int:
    """Exit 0 when the running bot is healthy, else 1: its health endpoint when it has
    one (``DOKOBOT_HEALTH_PORT`` or ``--url``), else its heartbeat file."""
    import time

    from dokobot.health import check_endpoint, check_heartbeat
    from dokobot.ops import health_port

    url = args.url
    port = health_port()
    if url is None and port is not None:
        url = f"http://127.0.0.1:{port}/health"
    if url is not None:
        problem = check_endpoint(url)
        if problem:
            raise EnvironmentFailure(problem)
        print("healthy: connected to Discord, every shard ready, database reachable")
        return 0
    path = args.heartbeat or os.environ.get("DOKOBOT_HEARTBEAT")
    if not path:
        raise UsageError(
            "no health endpoint or heartbeat file: set DOKOBOT_HEALTH_PORT or "
            "DOKOBOT_HEARTBEAT (as for dokobot run)"
        )
    problem = check_heartbeat(path, now=time.time(), max_age=args.max_age)
    if problem:
        raise EnvironmentFailure(problem)
    print("healthy: connected to Discord")
    return 0


def _database(args: argparse.Namespace) -> str:
    from dokobot.storage import default_path

    return str(args.db or default_path())


def _where(args: argparse.Namespace) -> str:
    """The database of ``--db`` for messages (a URL without its password)."""
    from dokobot.storage.db import shown

    return shown(_database(args))


async def _open_database(target: str) -> Any:
    from dokobot.storage import Storage, StorageError

    try:
        return await Storage.open(target)
    except StorageError as exc:
        raise EnvironmentFailure(str(exc)) from None
    except sqlite3.Error as exc:
        raise EnvironmentFailure(f"cannot use the database {target}: {exc}") from None


def _migrate(args: argparse.Namespace) -> int:
    """Bring the database's schema up to date (the bot also does it when it starts)."""
    import asyncio

    from dokobot.storage import LATEST

    async def main() -> list[str]:
        storage = await _open_database(_database(args))
        await storage.close()
        return list(storage.db.applied)

    applied = asyncio.run(main())
    where = _where(args)
    if applied:
        print(f"{where}: applied {', '.join(applied)}; schema {LATEST}")
    else:
        print(f"{where}: schema {LATEST}, up to date")
    return 0


def _export_db(args: argparse.Namespace) -> int:
    """Write the whole database as JSON lines (to --out, else standard output)."""
    import asyncio

    from dokobot.storage.transfer import export_lines

    async def main() -> int:
        storage = await _open_database(_database(args))
        try:
            out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout  # noqa: SIM115
            lines = 0
            try:
                async for line in export_lines(storage.db):
                    out.write(line + "\n")
                    lines += 1
            finally:
                if args.out:
                    out.close()
        finally:
            await storage.close()
        return lines

    try:
        lines = asyncio.run(main())
    except OSError as exc:
        raise EnvironmentFailure(f"cannot write {args.out}: {exc.strerror}") from None
    if args.out:
        print(f"{args.out}: {lines - 1} rows of {_where(args)}", file=sys.stderr)
    return 0


def _import_db(args: argparse.Namespace) -> int:
    """Load a dump of ``export-db`` into an empty database (all of it, or nothing)."""
    import asyncio

    from dokobot.storage import StorageError
    from dokobot.storage.transfer import import_lines

    async def main() -> dict[str, int]:
        storage = await _open_database(_database(args))
        try:
            with open(args.dump, encoding="utf-8") as lines:
                return await import_lines(storage.db, lines)
        finally:
            await storage.close()

    try:
        loaded = asyncio.run(main())
    except OSError as exc:
        raise EnvironmentFailure(f"cannot read {args.dump}: {exc.strerror}") from None
    except StorageError as exc:
        raise UsageError(f"{args.dump}: {exc}; nothing was imported") from None
    total = sum(loaded.values())
    detail = ", ".join(f"{n} {t}" for t, n in loaded.items() if n)
    print(f"{_where(args)}: imported {total} rows ({detail})")
    return 0


def _run(args: argparse.Namespace) -> int:
    """Run the Discord bot (token from DISCORD_TOKEN or .env)."""
    from dokobot.bot import run

    return run()


# ---------------------------------------------------------------------- parser


class _Parser(argparse.ArgumentParser):
    """Bad arguments: one line naming the problem and where help is, exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


class _Help(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Shows each option's default and keeps the epilog's line breaks."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        # An option that says its own default, a flag and an option without one
        # would otherwise read "(default: 40) (default: None)" or "(default: False)".
        text = action.help or ""
        # By identity: a default of 0 equals False but is still worth showing.
        if "(default:" in text or any(
            action.default is v for v in (None, False, argparse.SUPPRESS)
        ):
            return action.help
        return super()._get_help_string(action)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="dokobot",
        description="Doppelkopf for Discord, and in the terminal.",
        epilog="Rules and house rules: docs/rules.md. Every command has --help.",
        formatter_class=_Help,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    parser.add_argument("--debug", action="store_true", help="show the full traceback of an error")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str, **kw: Any) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help, formatter_class=_Help, **kw)
        sub.add_argument(
            "--debug",
            action="store_true",
            default=argparse.SUPPRESS,
            help="show the full traceback of an error",
        )
        return sub

    run = command("run", "run the Discord bot", epilog=ENVIRONMENT)
    run.set_defaults(handler=_run)

    db_help = "a database file or postgresql:// URL (default: $DOKOBOT_DB or ./dokobot.sqlite3)"
    migrate = command("migrate", "upgrade a database's schema to this version's")
    migrate.add_argument("--db", help=db_help)
    migrate.set_defaults(handler=_migrate)
    export_db = command("export-db", "dump a whole database as JSON lines (for import-db)")
    export_db.add_argument("--db", help=db_help)
    export_db.add_argument("--out", help="file to write (default: standard output)")
    export_db.set_defaults(handler=_export_db)
    import_db = command("import-db", "load an export-db dump into an empty database")
    import_db.add_argument("dump", help="the file export-db wrote")
    import_db.add_argument("--db", help=db_help)
    import_db.set_defaults(handler=_import_db)

    health = command("health", "check the running bot's heartbeat (exit 0: connected; 1: not)")
    health.add_argument(
        "--url", help="the bot's health endpoint (default: port $DOKOBOT_HEALTH_PORT on localhost)"
    )
    health.add_argument("--heartbeat", help="the heartbeat file (default: $DOKOBOT_HEARTBEAT)")
    health.add_argument(
        "--max-age", type=float, default=90.0, help="seconds a heartbeat stays fresh"
    )
    health.set_defaults(handler=_health)

    play = command(
        "play",
        "play in the terminal against three AI players",
        epilog="The session is saved: quit any time (q or Ctrl-C), and the next "
        "`dokobot play` carries on with the same score sheet. --new, --seed or --rules "
        "start a new session.",
    )
    play.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    play.add_argument("--ai", default="strong", choices=AI_LEVELS, help="AI level")
    play.add_argument(
        "--games",
        type=_positive,
        default=None,
        help="stop after this many games (default: ask after each)",
    )
    play.add_argument("--pause", type=_seconds, default=0.6, help="seconds between AI moves")
    play.add_argument(
        "--rules",
        help="house rules: a preset (ddv, pub, beginners) or JSON, e.g. '{\"poverty\": true}'",
    )
    play.add_argument(
        "--db",
        help="file that keeps the session (default: $XDG_DATA_HOME/dokobot/terminal.sqlite3)",
    )
    play.add_argument("--new", action="store_true", help="start a new session")
    play.add_argument(
        "--lang",
        choices=("de", "en"),
        default=None,
        help="language (default: from the environment's locale, LANG)",
    )
    play.set_defaults(handler=_play)

    replay = command("replay", "check a game record and print its outcome as JSON")
    replay.add_argument("file", help="a doko-record/1 JSON file (docs/record-format.md), or -")
    replay.set_defaults(handler=_replay)

    sim = command("simulate", "AI self-play with statistics", epilog=SIMULATE_COLUMNS)
    sim.add_argument("--games", type=_positive, default=100, help="deals to play")
    sim.add_argument("--seed", type=int, default=1, help="seed of the first deal (reproducible)")
    sim.add_argument(
        "--players",
        default="heuristic,random,random,random",
        help=f"four AI levels, seat 0 first; levels: {', '.join(AI_LEVELS)}",
    )
    sim.add_argument("--rotate", action="store_true", help="play each deal in all four seatings")
    sim.add_argument(
        "--rules",
        help="house rules: a preset (ddv, pub, beginners) or JSON, e.g. '{\"poverty\": true}'",
    )
    sim.add_argument("--jobs", type=_positive, default=1, help="worker processes")
    sim.add_argument(
        "--samples", type=_positive, help="strong AI: sampled deals per decision (default: 40)"
    )
    sim.add_argument(
        "--budget-ms",
        type=float,
        help="strong AI: time per decision in ms (default: none, only --samples count)",
    )
    sim.add_argument(
        "--session",
        type=_positive,
        help="deals per session: the strong AI learns over a session's games how the "
        "others play, as at a table in the bot (default: each deal alone)",
    )
    sim.add_argument("--json", action="store_true", help="end with one JSON line")
    sim.set_defaults(handler=_simulate)

    render = command("render", "write sample images (or a record's) as PNG files")
    render.add_argument(
        "--out",
        default=str(Path(tempfile.gettempdir()) / "dokobot-renders"),
        help="folder for the PNG files",
    )
    render.add_argument("--seed", type=int, default=7, help="seed of the sample game")
    render.add_argument("--record", help="a doko-record/1 file: its tricks and result")
    render.set_defaults(handler=_render)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.debug:
        logging.basicConfig(level=logging.DEBUG)
    try:
        return int(args.handler(args))
    except CommandError as exc:
        if args.debug:
            traceback.print_exc()
        print(exc, file=sys.stderr)
        return exc.status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (``dokobot … | head``): nothing to say
        return 1
    except Exception as exc:
        if args.debug:
            raise
        print(
            f"dokobot {args.command}: unexpected error: {type(exc).__name__}: {exc} "
            "(run again with --debug for the traceback, and please report it)",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
