"""The table service: seats, lobby, turn loop, AI players, timeouts and persistence.

It speaks in domain events (``dokobot.table.events``), never in Discord messages.
Every applied action is committed to storage before its events go out; after a
restart ``restore()`` rebuilds every unfinished table by replaying its log.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from concurrent.futures import BrokenExecutor
from typing import Any

from dokobot import metrics
from dokobot.ai import LEVELS, StrongStrategy, make_strategy
from dokobot.ai.skill import Skill, judge, table_noise
from dokobot.engine import (
    DUEL_SEATS,
    Action,
    Announce,
    Announcement,
    Bid,
    Card,
    Contract,
    Declaration,
    Declare,
    GameState,
    Genscher,
    IllegalActionError,
    Mode,
    Party,
    PassCards,
    Phase,
    Plan,
    Play,
    PlayerView,
    PovertyReply,
    RecordError,
    Reservation,
    ReturnCards,
    RuleError,
    RuleSet,
    Session,
    legal_actions,
    owed_announcement,
    player_view,
    replay,
    score,
    throw_reasons,
)
from dokobot.engine import apply as engine_apply
from dokobot.engine.record import action_to_json
from dokobot.engine.view import trumps_returned
from dokobot.i18n import N_, T
from dokobot.storage import Storage

from . import events as ev
from .clock import Clock, SystemClock
from .persist import finished_game, record_header
from .workers import Workers

log = logging.getLogger(__name__)

Listener = Callable[[ev.Event], Awaitable[None]]
AI_NAMES = ("Anton", "Berta", "Cäsar", "Dora")
#: The level of AI seats unless the table says otherwise (issue: the strong AI fills seats).
DEFAULT_AI = "strong"
#: The level that decides when a worker fails or is too slow.
FALLBACK_AI = "heuristic"
#: The strong AI's time per decision in the bot (docs/architecture.md).
STRONG_BUDGET_MS = 450.0


class TableError(Exception):
    """A refused request, with a sentence for the user who made it (and only them).

    The sentence is kept as its catalogue id and values: ``text(lang)`` says it in
    the user's language, ``message`` in English.
    """

    def __init__(self, template: str, code: str = "refused", **params: Any) -> None:
        self.template = template
        self.params = params
        self.message = template.format(**params) if params else template
        super().__init__(self.message)
        self.code = code

    def text(self, lang: str) -> str:
        return T(lang, self.template, **self.params)


@dataclasses.dataclass(frozen=True, slots=True)
class Member:
    """A Discord user as the service needs them."""

    user_id: int
    name: str


@dataclasses.dataclass(slots=True)
class Seat:
    player_id: int
    name: str
    ai_level: str | None = None

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None


@dataclasses.dataclass(frozen=True, slots=True)
class SeatInfo:
    player_id: int
    name: str
    is_ai: bool
    away: bool
    #: The AI level of an AI seat (``easy``, ``heuristic``, ``strong`` …).
    ai_level: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class TableSnapshot:
    """What everybody may see of a table."""

    table_id: int
    guild_id: int
    channel_id: int
    owner_id: int | None
    status: str
    seats: tuple[SeatInfo | None, ...]
    rules: RuleSet
    game_number: int | None
    action_no: int
    phase: Phase | None
    dealer: int | None
    to_act: int | None
    contract: Contract | None
    declarer: int | None
    announcements: tuple[tuple[int, str], ...]
    tricks_played: int
    totals: tuple[int, ...]
    games_played: int
    deadline: float | None
    session_id: int | None
    #: The trick in progress: (seat, card) in play order; public.
    trick: tuple[tuple[int, Card], ...] = ()
    #: Whose turn this is: (game id, number of moves that are not announcements).
    turn: tuple[int, int] | None = None
    plan: Plan = dataclasses.field(default_factory=Plan)
    #: The session's deals (``None``: open-ended) and how many are played.
    deals: int | None = None
    deals_played: int = 0
    #: Compulsory solos each seat still owes in a tournament list.
    solos_owed: tuple[int, ...] = (0, 0, 0, 0)
    #: Bock rounds still due: games left in each, the running one first (§9.6).
    bock_queue: tuple[int, ...] = ()
    #: The Bock factor of the game being played or dealt next.
    bock: int = 1

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name if s else "—" for s in self.seats)


@dataclasses.dataclass(frozen=True, slots=True)
class Panel:
    """What one seated player may see and do now: the basis of their private hand panel."""

    seat: int
    game_number: int
    action_no: int
    #: The turn number the panel's buttons carry: announcements do not change it.
    turn_no: int
    view: PlayerView
    is_turn: bool
    away: bool
    cards: tuple[Card, ...]
    playable: frozenset[Card]
    bids: tuple[Reservation, ...]
    announcements: tuple[str, ...]
    poverty_step: str | None
    #: House-rule calls the seat may make now: ``schweinchen``, ``half_chicken`` …
    declarations: tuple[str, ...] = ()
    #: Genscher: the seats the player may name as partner now.
    genscher: tuple[int, ...] = ()
    #: Zwingen: the announcement the seat owes before it may play (docs/rules.md §9.4).
    owed: str | None = None


@dataclasses.dataclass(eq=False)
class _Table:
    table_id: int
    guild_id: int
    channel_id: int
    owner_id: int | None
    status: str
    seats: list[Seat | None]
    settings: dict[str, Any]
    lock: asyncio.Lock = dataclasses.field(default_factory=asyncio.Lock)
    rules: RuleSet = dataclasses.field(default_factory=RuleSet)
    session: Session | None = None
    session_id: int | None = None
    seed: int = 0
    seq: int = 0
    game: GameState | None = None
    game_id: int | None = None
    game_number: int | None = None
    away: set[int] = dataclasses.field(default_factory=set)
    leaving: set[int] = dataclasses.field(default_factory=set)
    timeouts: list[int] = dataclasses.field(default_factory=lambda: [0, 0, 0, 0])
    turn_marker: tuple[int, int] | None = None
    deadline: float | None = None
    timer: asyncio.Task[None] | None = None
    driver: asyncio.Task[None] | None = None
    next_game: asyncio.Task[None] | None = None
    recovery: asyncio.Task[None] | None = None
    #: The pause between games is over and the next game is being dealt.
    starting: bool = False
    #: The current human turn has been shown in Discord: its countdown starts then.
    shown: bool = False
    #: Why the table closes once the current game is over; ``None``: it plays on.
    closing: str | None = None
    #: A human made a move in the current game (a table nobody plays at stops).
    human_acted: bool = False
    #: Games in a row in which no human made a move.
    idle_games: int = 0
    #: seat -> the user who left it (they may take it back from the AI).
    left_by: dict[int, int] = dataclasses.field(default_factory=dict)
    #: Background failures in a row, for the back-off before the next try.
    failures: int = 0

    @property
    def plan(self) -> Plan:
        """The table's way of playing, fixed when it was opened (docs/rules.md §10)."""
        return Plan.from_dict(self.settings.get("plan", {}))

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.player_id == user_id:
                return i
        return None

    def names(self) -> tuple[str, ...]:
        return tuple(s.name if s else "—" for s in self.seats)

    def name(self, seat: int) -> str:
        s = self.seats[seat]
        return s.name if s else f"seat {seat + 1}"

    def plays_by_ai(self, seat: int) -> bool:
        s = self.seats[seat]
        return s is None or s.is_ai or seat in self.away

    def humans_playing(self) -> list[int]:
        """Seats a human plays (not left, not handed to the AI)."""
        return [
            i
            for i, s in enumerate(self.seats)
            if s is not None and not s.is_ai and i not in self.away and i not in self.leaving
        ]

    def humans_staying(self) -> list[int]:
        """Seats of humans who have not left (they may be away for a turn or two)."""
        return [
            i
            for i, s in enumerate(self.seats)
            if s is not None and not s.is_ai and i not in self.leaving
        ]


class _Outlet:
    """One table's events, handed to the listener in order, on their own task.

    A slow or failing delivery at one table never holds up another table's events.
    """

    __slots__ = ("queue", "task")

    def __init__(self) -> None:
        self.queue: deque[ev.Event] = deque()
        self.task: asyncio.Task[None] | None = None


def turn_no(state: GameState) -> int:
    """How many moves of the game were not announcements: the turn a button belongs to."""
    return sum(1 for a in state.actions if not isinstance(a, Announce))


def _ai_name(seat: int) -> str:
    return f"Bot {AI_NAMES[seat]}"


class TableService:
    """All tables of the bot, one lock each; tables never block each other."""

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Clock | None = None,
        listener: Listener | None = None,
        ai_pause: float = 1.0,
        turn_seconds: float = 90.0,
        between_games: float = 4.0,
        seed_source: Callable[[], int] | None = None,
        await_shown: bool = False,
        show_grace: float = 30.0,
        retry_seconds: float = 2.0,
        ai_budget_ms: float = STRONG_BUDGET_MS,
        ai_timeout: float | None = None,
        ai_workers: int | None = None,
        owns: Callable[[int], bool] | None = None,
        default_ai: str = DEFAULT_AI,
    ) -> None:
        """``await_shown``: a human's turn clock starts only once ``turn_shown`` says the
        turn is on screen (or after ``show_grace`` seconds, if it cannot be shown).

        The strong AI thinks in worker processes for ``ai_budget_ms`` per decision (a
        table may set its own ``ai_budget_ms``); past ``ai_timeout`` seconds (default:
        four budgets and a second) the normal AI decides instead. With ``ai_workers``
        every AI level thinks in that many worker processes (the bot: one per core);
        without, only the strong AI does and the others think in a thread.

        ``default_ai``: the level of AI seats when neither the command nor the table
        names one. ``owns(guild_id)``: whether this process serves that server (its shards);
        ``restore`` brings back only those tables."""
        self.storage = storage
        self.clock = clock or SystemClock()
        self.listener = listener
        self.ai_pause = ai_pause
        self.turn_seconds = turn_seconds
        self.between_games = between_games
        self.await_shown = await_shown
        self.show_grace = show_grace
        self.retry_seconds = retry_seconds
        self._seed_source = seed_source or (lambda: secrets.randbits(48))
        self._tables: dict[int, _Table] = {}
        self._outlets: dict[int, _Outlet] = {}
        self._fallback = make_strategy(FALLBACK_AI)
        self.default_ai = default_ai
        self.ai_budget_ms = ai_budget_ms
        self.ai_timeout = ai_timeout
        self.ai_workers = ai_workers
        self._workers = Workers(ai_workers or os.cpu_count() or 2)
        self._owns = owns or (lambda guild_id: True)

    # ------------------------------------------------------------------ lifecycle

    async def restore(self) -> list[TableSnapshot]:
        """Rebuild every table that was open or playing, and carry on where each stopped.

        A table whose log cannot be replayed is set aside (closed, with a notice in its
        channel and a log line); every other table starts.
        """
        restored = []
        for row in await self.storage.tables.live():
            if row.channel_id in self._tables or not self._owns(row.guild_id):
                continue
            try:
                restored.append(await self._restore_table(row))
            except Exception:
                log.exception("table %s: cannot be restored; it is set aside", row.table_id)
                self._tables.pop(row.channel_id, None)
                try:
                    await self.storage.tables.set_status(row.table_id, "closed")
                except Exception:
                    log.exception("table %s: cannot be marked closed", row.table_id)
                self._emit(
                    ev.TableClosed(
                        row.guild_id, row.channel_id, row.table_id, "restore_failed", True
                    )
                )
        return restored

    async def _restore_table(self, row: Any) -> TableSnapshot:
        names = await self.storage.players.names([p for p in row.seats if p is not None])
        levels = {int(k): v for k, v in row.settings.get("ai_levels", {}).items()}
        # AI seats are named by their seat, as when they sat down; the players
        # table keeps the level in their name for leaderboards.
        seats: list[Seat | None] = [
            None
            if p is None
            else Seat(p, _ai_name(i) if i in levels else names.get(p, "?"), levels.get(i))
            for i, p in enumerate(row.seats)
        ]
        table = _Table(
            row.table_id,
            row.guild_id,
            row.channel_id,
            row.owner_id,
            row.status,
            seats,
            dict(row.settings),
        )
        table.away = set(row.settings.get("away", []))
        table.leaving = set(row.settings.get("leaving", []))
        table.left_by = {int(k): v for k, v in row.settings.get("left_by", {}).items()}
        table.closing = row.settings.get("closing")
        self._tables[row.channel_id] = table
        if row.status == "playing":
            await self._restore_session(table)
        else:
            with contextlib.suppress(TableError):  # Start explains broken server rules
                await self._load_rules(table)
        if table.game is not None:
            # Only where a game was interrupted is there anything to say.
            self._emit(ev.TableResumed(table.guild_id, table.channel_id, table.table_id))
        async with table.lock:
            await self._advance(table)
        return self._snapshot(table)

    async def _restore_session(self, table: _Table) -> None:
        row = await self.storage.games.open_session(table.table_id)
        if row is None:
            table.status = "open"
            await self.storage.tables.set_status(table.table_id, "open")
            return
        try:
            table.rules = RuleSet.from_dict(row.rules)
            planned = table.plan.session(table.rules, first_dealer=row.first_dealer)
            session = dataclasses.replace(planned, rules=table.rules, deals=row.deals)
            for record in await self.storage.games.session_records(row.session_id):
                state = replay(record)
                session = session.record(state, None if state.is_redeal else score(state))
        except (RecordError, RuleError, ValueError, KeyError, TypeError) as exc:
            raise RecordError(f"session {row.session_id} cannot be replayed: {exc}") from exc
        table.session, table.session_id, table.seed = session, row.session_id, row.seed
        table.seq = await self.storage.games.games_in_session(row.session_id)
        running = await self.storage.games.running_for_table(table.table_id)
        if running is not None:
            table.game = replay(running.record())
            table.game_id, table.game_number = running.game_id, running.number
            log.info(
                "table %s resumed game %s at action %s",
                table.table_id,
                running.number,
                len(running.actions),
            )

    async def close(self) -> None:
        """Stop all background work (the database keeps everything)."""
        tasks = [
            task
            for table in self._tables.values()
            for task in (table.timer, table.driver, table.next_game, table.recovery)
            if task is not None and not task.done()
        ]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.idle_events()
        self._workers.discard()

    async def idle(self) -> None:
        """Wait until no AI move or event is pending (timers keep waiting on the clock)."""
        for _ in range(10_000):
            await self.idle_events()
            busy = [
                task
                for t in self._tables.values()
                for task in (t.driver, t.next_game if t.starting else None)
                if task is not None and not task.done()
            ]
            if not busy:
                await asyncio.sleep(0)
                if not any(o.queue for o in self._outlets.values()):
                    return
                continue
            await asyncio.wait(busy, timeout=0.05)
        raise RuntimeError("the table service did not become idle")

    async def idle_events(self) -> None:
        """Wait until every event so far has been handed to the listener."""
        while pending := [
            o.task for o in self._outlets.values() if o.task is not None and not o.task.done()
        ]:
            await asyncio.wait(pending)

    # ------------------------------------------------------------------ lobby

    def snapshot(self, channel_id: int) -> TableSnapshot | None:
        table = self._tables.get(channel_id)
        return None if table is None else self._snapshot(table)

    @property
    def table_count(self) -> int:
        """How many tables are open (without building their snapshots)."""
        return len(self._tables)

    def count(self, status: str) -> int:
        """How many tables have ``status`` (``open``, ``playing``), without snapshots:
        the metrics ask on every scrape."""
        return sum(t.status == status for t in self._tables.values())

    def tables(self) -> list[TableSnapshot]:
        return [self._snapshot(t) for t in self._tables.values()]

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        owner: Member,
        *,
        settings: dict[str, Any] | None = None,
        sit: bool = True,
    ) -> TableSnapshot:
        """Open a table in a channel, its owner in seat 1 (unless ``sit`` is false)."""
        if channel_id in self._tables:
            raise TableError(
                "This channel already has a table. Use /doko join to sit down.", "exists"
            )
        await self.storage.players.upsert(owner.user_id, owner.name)
        table_id = await self.storage.tables.create(guild_id, channel_id, owner.user_id, settings)
        seats: list[Seat | None] = [
            Seat(owner.user_id, owner.name) if sit else None,
            None,
            None,
            None,
        ]
        table = _Table(
            table_id, guild_id, channel_id, owner.user_id, "open", seats, dict(settings or {})
        )
        self._tables[channel_id] = table
        with contextlib.suppress(TableError):  # Start explains broken server rules
            await self._load_rules(table)
        await self._save_seats(table)
        self._changed(table)
        return self._snapshot(table)

    async def join(self, channel_id: int, member: Member) -> TableSnapshot:
        table = self._table(channel_id)
        async with table.lock:
            seat = table.seat_of(member.user_id)
            if seat is not None and seat in table.leaving:
                # §: a player who left may take their seat back while the session runs.
                self._return(table, seat)
                await self._save_seats(table)
                await self._advance(table)
                self._changed(table)
                return self._snapshot(table)
            if seat is not None:
                raise TableError(
                    "You already sit at this table (seat {seat}).", "seated", seat=seat + 1
                )
            if table.status == "playing":
                back = [
                    i
                    for i, user in table.left_by.items()
                    if user == member.user_id and (s := table.seats[i]) is not None and s.is_ai
                ]
                if not back:
                    raise TableError(
                        "A session is running at this table; join when it is over.", "busy"
                    )
                await self.storage.players.upsert(member.user_id, member.name)
                self._take_seat(table, back[0], member)
                await self._save_seats(table)
                await self._advance(table)
                self._changed(table)
                return self._snapshot(table)
            free = [i for i, s in enumerate(table.seats) if s is None]
            if not free:
                ai = [i for i, s in enumerate(table.seats) if s is not None and s.is_ai]
                if not ai:
                    raise TableError("The table is full.", "full")
                free = ai  # a human takes an AI's seat
            await self.storage.players.upsert(member.user_id, member.name)
            table.seats[free[0]] = Seat(member.user_id, member.name)
            await self._save_seats(table)
        self._changed(table)
        return self._snapshot(table)

    async def leave(self, channel_id: int, user_id: int) -> TableSnapshot | None:
        """Leave a table; during a session the AI takes over the seat. ``None``: table closed."""
        table = self._table(channel_id)
        async with table.lock:
            seat = self._seated(table, user_id)
            if table.status == "playing":
                if seat in table.leaving:
                    raise TableError(
                        "You have left already; the AI plays your seat. "
                        "Join again to take it back.",
                        "left",
                    )
                table.away.add(seat)
                table.leaving.add(seat)
                table.left_by[seat] = user_id
                if not table.humans_staying():
                    table.closing = "no_humans"
                await self._save_seats(table)
                self._emit(
                    ev.SeatHandedToAI(table.guild_id, channel_id, table.table_id, seat, user_id)
                )
                if table.closing and table.game is None:
                    await self._close(table, table.closing)
                    return None
                await self._advance(table)
            else:
                table.seats[seat] = None
                await self._save_seats(table)
            if user_id == table.owner_id:
                humans = [
                    s
                    for s in table.seats
                    if s is not None and not s.is_ai and s.player_id != user_id
                ]
                table.owner_id = humans[0].player_id if humans else None
            if table.owner_id is None and table.status != "playing":
                await self._close(table, "everybody_left")
                return None
        self._changed(table)
        return self._snapshot(table)

    async def kick(
        self,
        channel_id: int,
        user_id: int,
        seat: int,
        *,
        force: bool = False,
        replacement: Member | None = None,
    ) -> TableSnapshot | None:
        """The owner (or, with ``force``, a server manager) frees or hands over a seat.

        Without ``replacement`` a human there is handed to the AI during a session;
        with one, the replacement takes the seat (and its cards) at once.
        """
        table = self._table(channel_id)
        if not force:
            self._owner_only(table, user_id)
        if not 0 <= seat <= 3 or table.seats[seat] is None:
            raise TableError("Seat {seat} is empty.", "empty", seat=seat + 1)
        target = table.seats[seat]
        assert target is not None
        if target.player_id == user_id and replacement is None:
            raise TableError("Use Leave to leave your own seat.", "self")
        if replacement is not None:
            async with table.lock:
                if table.seat_of(replacement.user_id) is not None:
                    raise TableError(
                        "{name} sits at this table already.", "seated", name=replacement.name
                    )
                await self.storage.players.upsert(replacement.user_id, replacement.name)
                self._take_seat(table, seat, replacement)
                await self._save_seats(table)
                await self._advance(table)
            self._changed(table)
            return self._snapshot(table)
        if target.is_ai and table.status != "playing":
            async with table.lock:
                table.seats[seat] = None
                await self._save_seats(table)
            self._changed(table)
            return self._snapshot(table)
        return await self.leave(channel_id, target.player_id)

    async def add_ai(
        self, channel_id: int, user_id: int, level: str | None = None
    ) -> TableSnapshot:
        table = self._table(channel_id)
        level = level or table.settings.get("ai_level") or self.default_ai
        if level not in LEVELS:
            raise TableError(
                "Unknown AI level {level}: choose {levels}.",
                "level",
                level=repr(level),
                levels=", ".join(LEVELS),
            )
        async with table.lock:
            if user_id != table.owner_id:
                self._seated(table, user_id)
            if table.status == "playing":
                raise TableError("A session is running at this table.", "busy")
            free = [i for i, s in enumerate(table.seats) if s is None]
            if not free:
                raise TableError("The table is full.", "full")
            await self._seat_ai(table, free[0], level)
            await self._save_seats(table)
        self._changed(table)
        return self._snapshot(table)

    async def start(
        self,
        channel_id: int,
        user_id: int,
        *,
        ai_level: str | None = None,
        deals: int | None = None,
    ) -> TableSnapshot:
        """Fill empty seats with AI players and start a session of games.

        ``ai_level`` defaults to the level the table was opened with, else the normal AI.
        """
        table = self._table(channel_id)
        self._owner_only(table, user_id)
        ai_level = ai_level or table.settings.get("ai_level") or self.default_ai
        if ai_level not in LEVELS:
            raise TableError(
                "Unknown AI level {level}: choose {levels}.",
                "level",
                level=repr(ai_level),
                levels=", ".join(LEVELS),
            )
        async with table.lock:
            if table.status == "playing":
                raise TableError("The game is already running.", "busy")
            humans = [s for s in table.seats if s is not None and not s.is_ai]
            if table.plan.mode is Mode.DUEL and len(humans) != 2:
                # Refused before anything changes: no AI has sat down yet.
                raise TableError(
                    "A duel is two players against two AI players; this table has {count}.",
                    "duel",
                    count=len(humans),
                )
            for i, s in enumerate(table.seats):
                if s is None:
                    await self._seat_ai(table, i, ai_level)
            await self._load_rules(table)
            plan = table.plan
            if plan.mode is Mode.DUEL:
                self._seat_duel(table)
            session = plan.session(table.rules, first_dealer=0)
            deals = deals if deals is not None else table.settings.get("deals")
            if deals is not None:
                session = dataclasses.replace(session, deals=deals)
            table.session, table.rules = session, session.rules
            table.seed = self._seed_source()
            table.session_id = await self.storage.games.start_session(
                table.table_id,
                table.guild_id,
                rules=table.rules.to_dict(),
                first_dealer=0,
                deals=table.session.deals,
                seed=table.seed,
            )
            table.seq = 0
            table.status = "playing"
            table.away.clear()
            table.leaving.clear()
            table.left_by.clear()
            table.closing = None
            table.timeouts = [0, 0, 0, 0]
            await self._save_seats(table)
            await self.storage.tables.set_status(table.table_id, "playing")
            self._changed(table)
            try:
                await self._start_game(table)
            except Exception:  # the session stands; dealing is tried again shortly
                self._recover_later(table, "dealing")
        return self._snapshot(table)

    def _seat_duel(self, table: _Table) -> None:
        """A duel: the two humans sit opposite (seats 1 and 3 of the table)."""
        humans = [s for s in table.seats if s is not None and not s.is_ai]
        ais = [s for s in table.seats if s is not None and s.is_ai]
        order = {DUEL_SEATS[0]: humans[0], DUEL_SEATS[1]: humans[1]}
        others = iter(ais)
        table.seats = [order.get(i) or next(others) for i in range(4)]
        # The AI seats are named by their new seats.
        for i, seat in enumerate(table.seats):
            if seat is not None and seat.is_ai:
                table.seats[i] = Seat(seat.player_id, _ai_name(i), seat.ai_level)

    async def close_channel(self, channel_id: int, reason: str) -> bool:
        """Close the channel's table because Discord took the channel away (deleted,
        the bot removed, permissions lost): no message goes to it any more."""
        table = self._tables.get(channel_id)
        if table is None:
            return False
        async with table.lock:
            if self._tables.get(channel_id) is not table:
                return False
            await self._close(table, reason, reachable=False)
        return True

    async def close_guild(self, guild_id: int, reason: str) -> int:
        """Close every table of a server the bot is no longer in."""
        channels = [t.channel_id for t in self._tables.values() if t.guild_id == guild_id]
        return sum([await self.close_channel(c, reason) for c in channels])

    def turn_shown(self, channel_id: int, turn: tuple[int, int] | None) -> None:
        """The Discord layer showed ``turn``: its player's clock starts now."""
        table = self._tables.get(channel_id)
        if table is not None and turn is not None and table.turn_marker == turn:
            table.shown = True

    async def stop(self, channel_id: int, user_id: int, *, force: bool = False) -> None:
        """Close the table (the owner, or someone with ``force``: a server manager)."""
        table = self._table(channel_id)
        if not force:
            self._owner_only(table, user_id)
        async with table.lock:
            await self._close(table, "stopped")

    async def set_message(self, channel_id: int, message_id: int | None) -> None:
        """Remember the public table message (so it can be edited after a restart)."""
        table = self._table(channel_id)
        await self.storage.tables.set_message(table.table_id, message_id)

    # ------------------------------------------------------------------ playing

    def panel(self, channel_id: int, user_id: int) -> Panel:
        """The private view of the user's seat: hand, legal choices, action number."""
        table = self._table(channel_id)
        seat = self._seated(table, user_id)
        state = table.game
        if state is None or table.game_number is None:
            raise TableError("No game is running at this table right now.", "no_game")
        view = player_view(state, seat)
        plays = frozenset(a.card for a in view.legal if isinstance(a, Play))
        bids = tuple(a.reservation for a in view.legal if isinstance(a, Bid))
        party = state.party(seat)
        words = tuple(
            a.level.word(party or Party.RE) for a in view.legal if isinstance(a, Announce)
        )
        step = None
        if state.phase is Phase.POVERTY and state.to_act == seat and state.poverty is not None:
            pov = state.poverty
            step = "pass" if not pov.passed else ("reply" if pov.acceptor is None else "return")
        owed = owed_announcement(state)
        return Panel(
            seat,
            table.game_number,
            len(state.actions),
            turn_no(state),
            view,
            state.to_act == seat,
            seat in table.away,
            state.hands[seat],
            plays,
            bids,
            words,
            step,
            declarations=tuple(
                Declaration(a.what).value for a in view.legal if isinstance(a, Declare)
            ),
            genscher=tuple(a.partner for a in view.legal if isinstance(a, Genscher)),
            owed=owed[1].word(party or Party.RE) if owed and owed[0] == seat else None,
        )

    async def play(
        self, channel_id: int, user_id: int, card: Card | str, *, game: int, expected: int | None
    ) -> None:
        """Play a card for the user's seat."""
        try:
            parsed = Card.parse(card) if isinstance(card, str) else card
        except ValueError:
            raise TableError("There is no card {card}.", "unknown", card=repr(card)) from None
        await self._human(channel_id, user_id, game, expected, lambda seat: Play(seat, parsed))

    async def bid(
        self, channel_id: int, user_id: int, word: str, *, game: int, expected: int | None
    ) -> None:
        try:
            reservation = Reservation(word)
        except ValueError:
            raise TableError("There is no reservation {bid}.", "unknown", bid=repr(word)) from None
        await self._human(channel_id, user_id, game, expected, lambda seat: Bid(seat, reservation))

    async def announce(self, channel_id: int, user_id: int, word: str, *, game: int) -> None:
        """Announce for the user's party; not tied to the turn, so no action number check."""
        try:
            level, named = Announcement.parse(word)
        except ValueError:
            raise TableError(
                "There is no announcement {what}.", "unknown", what=repr(word)
            ) from None
        table = self._table(channel_id)
        seat = self._seated(table, user_id)
        party = table.game.party(seat) if table.game else None
        if named is not None and party is not None and named is not party:
            own, other = party.value.capitalize(), named.value.capitalize()
            raise TableError(
                "You play for {own}: announce {own}, not {other}.", "party", own=own, other=other
            )
        await self._human(channel_id, user_id, game, None, lambda s: Announce(s, level))

    async def declare(self, channel_id: int, user_id: int, what: str, *, game: int) -> None:
        """Schweinchen, Superschweinchen or half chicken for the seat (docs/rules.md §9.1)."""
        try:
            declaration = Declaration(what)
        except ValueError:
            raise TableError("There is no call {what}.", "unknown", what=repr(what)) from None
        await self._human(channel_id, user_id, game, None, lambda s: Declare(s, declaration))

    async def genscher(
        self, channel_id: int, user_id: int, partner: int, *, game: int, expected: int | None
    ) -> None:
        """Genscher: the user names seat ``partner`` as the new partner (docs/rules.md §9.4)."""
        await self._human(channel_id, user_id, game, expected, lambda s: Genscher(s, partner))

    async def set_rules(self, channel_id: int, user_id: int, key: str, value: Any) -> TableSnapshot:
        """The owner changes one of the table's rules before the first deal (docs/rules.md §9).

        ``key`` ``preset`` starts from that preset; the server's rules are the default.
        """
        table = self._table(channel_id)
        self._owner_only(table, user_id)
        async with table.lock:
            if table.status == "playing":
                raise TableError(
                    "The rules are fixed once the first card is dealt; change them before Start.",
                    "busy",
                )
            spec = dict(table.settings.get("rules") or await self._server_rules(table))
            spec = {"preset": value} if key == "preset" else {**spec, key: value}
            try:
                rules = RuleSet.from_dict(spec)
            except RuleError as exc:
                raise TableError(
                    "These rules do not go together ({problem}).", "rules", problem=str(exc)
                ) from None
            table.settings["rules"] = spec
            table.rules = rules
            await self.storage.tables.set_settings(table.table_id, table.settings)
        self._changed(table)
        return self._snapshot(table)

    async def _server_rules(self, table: _Table) -> dict[str, Any]:
        settings = await self.storage.settings.get(table.guild_id)
        return dict(settings.rules)

    async def _load_rules(self, table: _Table) -> None:
        """The rules a table will play: its own, else the server's (docs/rules.md §9)."""
        spec = table.settings.get("rules") or await self._server_rules(table)
        try:
            table.rules = RuleSet.from_dict(spec)
        except RuleError as exc:
            raise TableError(
                "This server's rules are broken ({problem}); fix them with /doko-admin rules.",
                problem=str(exc),
            ) from None

    async def poverty_pass(
        self,
        channel_id: int,
        user_id: int,
        cards: Sequence[Card],
        *,
        game: int,
        expected: int | None,
    ) -> None:
        await self._human(channel_id, user_id, game, expected, lambda s: PassCards(s, tuple(cards)))

    async def poverty_reply(
        self, channel_id: int, user_id: int, accept: bool, *, game: int, expected: int | None
    ) -> None:
        await self._human(channel_id, user_id, game, expected, lambda s: PovertyReply(s, accept))

    async def poverty_return(
        self,
        channel_id: int,
        user_id: int,
        cards: Sequence[Card],
        *,
        game: int,
        expected: int | None,
    ) -> None:
        await self._human(
            channel_id, user_id, game, expected, lambda s: ReturnCards(s, tuple(cards))
        )

    async def come_back(self, channel_id: int, user_id: int) -> None:
        """A human takes their seat back from the AI (one click)."""
        table = self._table(channel_id)
        async with table.lock:
            seat = self._seated(table, user_id)
            if seat not in table.away:
                raise TableError("You are playing your seat yourself already.", "not_away")
            self._return(table, seat)
            await self._save_seats(table)
            await self._advance(table)
        self._changed(table)

    # ------------------------------------------------------------------ internals

    def _table(self, channel_id: int) -> _Table:
        table = self._tables.get(channel_id)
        if table is None:
            raise TableError(
                "There is no table in this channel. Open one with /doko new.", "no_table"
            )
        return table

    def _seated(self, table: _Table, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("You are not sitting at this table.", "not_seated")
        return seat

    def _owner_only(self, table: _Table, user_id: int) -> None:
        if user_id != table.owner_id:
            owner = next((s.name for s in table.seats if s and s.player_id == table.owner_id), None)
            if owner:
                raise TableError(
                    "Only the table's owner ({name}) can do that.", "not_owner", name=owner
                )
            raise TableError("Only the table's owner can do that.", "not_owner")

    async def _seat_ai(self, table: _Table, seat: int, level: str) -> None:
        player_id = -(100 * (list(LEVELS).index(level) + 1) + seat + 1)
        name = _ai_name(seat)
        await self.storage.players.upsert(player_id, f"{name} ({level})", is_ai=True)
        table.seats[seat] = Seat(player_id, name, level)

    def _take_seat(self, table: _Table, seat: int, member: Member) -> None:
        """``member`` plays ``seat`` from now on, cards and all."""
        table.seats[seat] = Seat(member.user_id, member.name)
        self._return(table, seat)
        self._hand(table, seat)

    async def _save_seats(self, table: _Table) -> None:
        table.settings["ai_levels"] = {
            str(i): s.ai_level for i, s in enumerate(table.seats) if s is not None and s.is_ai
        }
        table.settings["away"] = sorted(table.away)
        table.settings["leaving"] = sorted(table.leaving)
        table.settings["left_by"] = {str(k): v for k, v in table.left_by.items()}
        table.settings["closing"] = table.closing
        await self.storage.tables.set_seats(
            table.table_id, [s.player_id if s else None for s in table.seats]
        )
        await self.storage.tables.set_settings(table.table_id, table.settings)

    def _return(self, table: _Table, seat: int) -> None:
        table.away.discard(seat)
        table.leaving.discard(seat)
        table.left_by.pop(seat, None)
        table.timeouts[seat] = 0
        table.closing = None
        table.human_acted = True
        s = table.seats[seat]
        assert s is not None
        self._emit(
            ev.SeatReturned(table.guild_id, table.channel_id, table.table_id, seat, s.player_id)
        )

    async def _human(
        self,
        channel_id: int,
        user_id: int,
        game: int,
        expected: int | None,
        build: Callable[[int], Action],
    ) -> None:
        table = self._table(channel_id)
        async with table.lock:
            seat = self._seated(table, user_id)
            state = table.game
            if state is None or table.game_number != game:
                raise TableError("That was for an earlier game; open My cards again.", "stale")
            # Announcements do not move the turn on, so a card button stays valid
            # across anybody's Re or Kontra; only a later turn makes it stale.
            if expected is not None and expected != turn_no(state):
                raise TableError(
                    "That button is out of date: the game has moved on. Here is the current state.",
                    "stale",
                )
            action = build(seat)
            was_away = seat in table.away
            await self._apply(table, seat, action)
            table.timeouts[seat] = 0
            table.human_acted = True
            if was_away:
                self._return(table, seat)
                await self._save_seats(table)
                await self._advance(table)

    def _explain(self, table: _Table, error: IllegalActionError) -> TableError:
        if error.code == "not_your_turn" and error.seat is not None:
            return TableError("It's {name}'s turn.", error.code, name=table.name(error.seat))
        return TableError(error.template, error.code, **error.params)

    async def _apply(self, table: _Table, seat: int, action: Action) -> None:
        """Apply, commit, then announce: the order that makes crashes lose nothing."""
        state = table.game
        assert state is not None and table.game_id is not None
        try:
            new = engine_apply(state, action)
        except IllegalActionError as exc:
            raise self._explain(table, exc) from None
        await self.storage.games.append_action(
            table.game_id, len(state.actions), action_to_json(state, action)
        )
        table.game = new
        self._events_for(table, state, new, action)
        await self._advance(table)

    async def _advance(self, table: _Table) -> None:
        """``_after_change`` that never fails its caller: the move is committed already,
        so a failure of what follows is logged and retried in the background."""
        try:
            await self._after_change(table)
        except Exception:
            self._recover_later(table, "moving on")

    def _events_for(self, table: _Table, old: GameState, new: GameState, action: Action) -> None:
        base = (table.guild_id, table.channel_id, table.table_id)
        seat = action.seat
        if isinstance(action, Bid):
            word = "healthy" if action.reservation is Reservation.HEALTHY else "reservation"
            self._emit(ev.BidMade(*base, seat, word))
        elif isinstance(action, Play):
            self._emit(ev.CardPlayed(*base, seat, action.card))
            self._hand(table, seat)
            if len(new.tricks) > len(old.tricks):
                self._emit(ev.TrickCompleted(*base, len(new.tricks), new.tricks[-1], table.names()))
        elif isinstance(action, Announce):
            made = new.calls.log[-1]
            word = made.party.value if made.level == 0 else action.level.name.lower()
            self._emit(ev.AnnouncementMade(*base, seat, word))
            # Everybody's choices change (Kontra may answer Re; a party's level is gone).
            for other in range(4):
                self._hand(table, other)
        elif isinstance(action, PassCards):
            self._emit(ev.PovertyStep(*base, seat, "put_down"))
            self._hand(table, seat)
        elif isinstance(action, PovertyReply):
            self._emit(ev.PovertyStep(*base, seat, "accepted" if action.accept else "declined"))
            if action.accept:
                self._hand(table, seat)
        elif isinstance(action, ReturnCards):
            pov = new.poverty
            assert pov is not None
            self._emit(ev.PovertyStep(*base, seat, "returned", trumps_returned(new)))
            self._hand(table, seat)
            self._hand(table, pov.poor)
        elif isinstance(action, Declare | Genscher):
            call = new.calls.declared[-1]
            self._emit(ev.Declared(*base, seat, call.what, call.partner))
            # The card order or the parties changed: every panel shows it.
            for other in range(4):
                self._hand(table, other)
        if isinstance(action, Bid) and new.thrown_by is not None:
            hand = new.hands[seat]
            reasons = tuple(r.value for r in throw_reasons(hand, new.rules))
            self._emit(ev.HandThrown(*base, seat, hand, reasons))
        if isinstance(action, PovertyReply) and new.phase is Phase.PLAY and not action.accept:
            # Schwarze Sau or Ramsch: the poor player has the cards back.
            assert new.poverty is not None
            self._hand(table, new.poverty.poor)
        was, now = old.parties, new.parties
        if was.contract is Contract.SCHWARZE_SAU and was.re is None and now.re is not None:
            assert now.declarer is not None and now.clarified_in is not None
            self._emit(ev.PlaysAlone(*base, now.declarer, now.clarified_in))
        if was.contract is Contract.MARRIAGE and was.re is None and now.re is not None:
            # docs/rules.md §4: the clarification trick decides the partner.
            assert now.declarer is not None and now.clarified_in is not None
            partner = now.partner if now.contract is Contract.MARRIAGE else None
            self._emit(ev.MarriageSettled(*base, now.declarer, partner, now.clarified_in))
        if old.phase is not new.phase and new.phase is Phase.PLAY and new.contract is not None:
            public = Contract.NORMAL if new.contract is Contract.SILENT_MARRIAGE else new.contract
            declarer = None if public is Contract.NORMAL else new.parties.declarer
            self._emit(ev.ContractSettled(*base, public.value, declarer, new.leader))
        if old.phase is Phase.BIDDING and new.phase is Phase.POVERTY and new.contract is not None:
            self._emit(
                ev.ContractSettled(*base, new.contract.value, new.parties.declarer, new.leader)
            )

    def _hand(self, table: _Table, seat: int) -> None:
        s = table.seats[seat]
        if s is not None and not s.is_ai:
            self._emit(
                ev.HandChanged(table.guild_id, table.channel_id, table.table_id, seat, s.player_id)
            )

    async def _after_change(self, table: _Table) -> None:
        """Whatever comes next: score a finished game, time a human's turn, or let the AI move."""
        state = table.game
        if table.status != "playing":
            return
        if state is None:
            if table.closing:
                await self._close(table, table.closing)
                return
            if (
                table.session is not None
                and not table.session.is_over
                and not self._pending(table.next_game)
            ):
                table.next_game = self._spawn(table, self._next_game_later(table), "next game")
            return
        if state.is_finished:
            await self._finish_game(table)
            return
        if state.phase is Phase.PLAY and not state.tricks and not state.trick:
            # AI seats make their calls (Schweinchen …) before the first card, which is
            # when schweinchen: at_once allows them (docs/rules.md §9.1).
            for s in range(4):
                calls = [a for a in legal_actions(state, s) if isinstance(a, Declare)]
                if calls and table.plays_by_ai(s):
                    await self._apply(table, s, calls[0])
                    return
        seat = state.to_act
        assert seat is not None
        marker = (table.game_id or 0, turn_no(state))
        new_turn = marker != table.turn_marker
        table.turn_marker = marker
        if table.plays_by_ai(seat):
            table.deadline = None
            self._cancel(table.timer)
            if new_turn:
                self._turn_event(table, seat, None)
            if not self._pending(table.driver):
                table.driver = self._spawn(table, self._drive(table), "AI driver")
            return
        if new_turn or not self._pending(table.timer):
            self._cancel(table.timer)
            table.shown = not self.await_shown
            table.deadline = self.clock.now() + self.turn_seconds if table.shown else None
            table.timer = self._spawn(table, self._turn_timer(table, marker, seat), "turn timer")
            self._hand(table, seat)
            self._turn_event(table, seat, table.deadline)

    def _spawn(
        self, table: _Table, work: Coroutine[Any, Any, None], what: str
    ) -> asyncio.Task[None]:
        """A background task of the table that survives any exception: it is logged with
        its traceback and the table carries on after a back-off."""

        async def guarded() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception:
                self._recover_later(table, what)
            else:
                table.failures = 0

        task = asyncio.create_task(guarded())
        # A task cancelled before it ran never started ``work``: close it quietly.
        task.add_done_callback(lambda _: work.close())
        return task

    def _recover_later(self, table: _Table, what: str) -> None:
        table.failures += 1
        delay = min(60.0, self.retry_seconds * 2 ** (table.failures - 1))
        log.exception(
            "table %s: %s failed (%d in a row); carrying on in %.0f s",
            table.table_id,
            what,
            table.failures,
            delay,
        )

        async def recover() -> None:
            await self.clock.sleep(delay)
            async with table.lock:
                if self._tables.get(table.channel_id) is table:
                    await self._after_change(table)

        if not self._pending(table.recovery):
            table.recovery = self._spawn(table, recover(), "recovery")

    def _turn_event(self, table: _Table, seat: int, deadline: float | None) -> None:
        s = table.seats[seat]
        assert s is not None
        self._emit(
            ev.TurnStarted(
                table.guild_id,
                table.channel_id,
                table.table_id,
                seat,
                s.player_id,
                table.plays_by_ai(seat),
                deadline,
            )
        )

    @staticmethod
    def _pending(task: asyncio.Task[None] | None) -> bool:
        return task is not None and not task.done()

    @staticmethod
    def _cancel(task: asyncio.Task[None] | None) -> None:
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()

    async def _drive(self, table: _Table) -> None:
        """Play the turns of AI seats (and of humans handed to the AI), paced for humans."""
        while True:
            async with table.lock:
                state = table.game
                if table.status != "playing" or state is None or state.is_finished:
                    return
                seat = state.to_act
                assert seat is not None
                if not table.plays_by_ai(seat):
                    return
                expected, game_id = len(state.actions), table.game_id
            await self.clock.sleep(self.ai_pause)
            s = table.seats[seat]
            level = (
                s.ai_level
                if s is not None and s.ai_level
                else table.settings.get("ai_level") or self.default_ai
            )
            seed = f"{table.seed}:{table.seq}:{expected}"
            view = player_view(state, seat)
            if not table.plan.ai_announces:
                view = _quiet(view)
            try:
                action = await self._decide(table, seat, level, view, seed)
            except Exception:  # an AI bug must not stop the table: play a legal move
                log.exception("table %s: AI %s failed to choose", table.table_id, seat)
                action = view.legal[0]
            async with table.lock:
                if (
                    table.game_id != game_id
                    or table.game is None
                    or len(table.game.actions) != expected
                ):
                    continue
                try:
                    await self._apply(table, seat, action)
                except TableError as exc:  # pragma: no cover - an AI bug must not stop the table
                    log.error(
                        "table %s: AI %s chose an illegal action: %s", table.table_id, seat, exc
                    )
                    fallback = player_view(table.game, seat).legal[0]
                    await self._apply(table, seat, fallback)

    async def _decide(
        self, table: _Table, seat: int, level: str, view: PlayerView, seed: str
    ) -> Action:
        """The AI's choice. The strong AI is CPU-bound Python: it runs in a worker process
        so that the event loop stays free; a crash or a timeout there falls back to the
        normal AI for this one decision."""
        if level != "strong" and not self.ai_workers:
            strategy = make_strategy(level)
            metrics.AI_DECISIONS.labels(level, "thread").inc()
            return await asyncio.to_thread(strategy.choose, view, random.Random(seed))
        budget = float(table.settings.get("ai_budget_ms", self.ai_budget_ms))
        timeout = self.ai_timeout if self.ai_timeout is not None else 4 * budget / 1000 + 1
        try:
            # The budget counts from now: time queued for a busy worker is thinking time lost.
            due = time.time() + budget / 1000
            noise = self._table_noise(table) if level == "strong" else None
            work = self._workers.run(ai_decision, level, view, seed, due, noise)
            action = await asyncio.wait_for(work, timeout)
            metrics.AI_DECISIONS.labels(level, "worker").inc()
            return action
        except Exception as exc:
            metrics.AI_FALLBACKS.inc()
            log.warning(
                "table %s: the %s AI of seat %s failed (%s); the normal AI decides",
                table.table_id,
                level,
                seat,
                type(exc).__name__,
            )
            if isinstance(exc, BrokenExecutor):
                # A worker died: the next decision starts fresh workers.
                self._workers.discard()
            return self._fallback.choose(view, random.Random(seed))

    def _table_noise(self, table: _Table) -> tuple[float | None, ...]:
        """Per seat, the ε the table judged its player's cards to in earlier games."""
        known = table.settings.get("skill", {})
        tallies = [known.get(str(s.player_id)) if s is not None else None for s in table.seats]
        skills = [Skill(*tally) if tally else None for tally in tallies]
        return table_noise(skills, StrongStrategy.model_noise)

    async def _judge(self, table: _Table, state: GameState) -> None:
        """Judge each player's cards of the finished game into the table's sheet
        (``skill``, persisted with the table), which the strong AI takes as its prior
        for each player; only a table with a strong AI needs it."""
        if not any(s is not None and s.ai_level == "strong" for s in table.seats):
            return
        judged = judge(state)  # a dozen cards, no search
        known = table.settings.setdefault("skill", {})
        for seat, s in enumerate(table.seats):
            if s is None or seat in table.away:
                continue  # an away player's cards were the AI's
            tally = Skill(*known.get(str(s.player_id), ()))
            tally.add(j for j in judged if j.seat == seat)
            if tally.cards:
                known[str(s.player_id)] = tally.as_list()
        try:
            await self.storage.tables.set_settings(table.table_id, table.settings)
        except Exception as exc:  # the sheet is saved with the table's next change anyway
            log.warning("table %s: the skill sheet was not saved (%s)", table.table_id, exc)

    async def _turn_timer(self, table: _Table, marker: tuple[int, int], seat: int) -> None:
        """Remind once, then let the AI play the turn; two in a row hand the seat to the AI."""
        if not table.shown:
            await self._until_shown(table)
            if table.turn_marker != marker:
                return
            table.deadline = self.clock.now() + self.turn_seconds
        remind_after = self.turn_seconds * 2 / 3
        await self.clock.sleep(remind_after)
        s = table.seats[seat]
        if table.turn_marker != marker or s is None:
            return
        self._emit(
            ev.TurnReminder(
                table.guild_id,
                table.channel_id,
                table.table_id,
                seat,
                s.player_id,
                self.turn_seconds - remind_after,
            )
        )
        await self.clock.sleep(self.turn_seconds - remind_after)
        async with table.lock:
            state = table.game
            if table.turn_marker != marker or state is None or state.to_act != seat:
                return
            if table.plays_by_ai(seat):
                return
            rng = random.Random(f"{table.seed}:{table.seq}:{len(state.actions)}:timeout")
            action = self._fallback.choose(player_view(state, seat), rng)
            table.timeouts[seat] += 1
            base = (table.guild_id, table.channel_id, table.table_id)
            card = action.card.name if isinstance(action, Play) else None
            self._emit(ev.TurnTimedOut(*base, seat, s.player_id, describe(action), card))
            if table.timeouts[seat] >= 2:
                table.away.add(seat)
                await self._save_seats(table)
                self._emit(ev.SeatHandedToAI(*base, seat, s.player_id))
            await self._apply(table, seat, action)

    async def _until_shown(self, table: _Table) -> None:
        """Wait until the turn is on screen, or ``show_grace`` seconds at the most.

        It looks every half second: a plain sleep, which every clock (and SimCord's
        virtual one) understands, and cheap next to the turn's 90 s.
        """
        waited = 0.0
        while not table.shown and waited < self.show_grace:
            await self.clock.sleep(0.5)
            waited += 0.5

    async def _start_game(self, table: _Table) -> None:
        session = table.session
        assert session is not None and table.session_id is not None
        table.human_acted = False
        for seat in sorted(table.leaving):
            await self._seat_ai(table, seat, table.settings.get("ai_level") or self.default_ai)
            table.away.discard(seat)
        if table.leaving:
            table.leaving.clear()
            await self._save_seats(table)
            self._changed(table)
        rng = random.Random(f"{table.seed}:{table.seq}")
        state = GameState.new(session.next_setup(rng))
        players = [s.player_id for s in table.seats if s is not None]
        ref = await self.storage.games.start_game(
            table.session_id, table.seq, record_header(state), players
        )
        table.game, table.game_id, table.game_number = state, ref.game_id, ref.number
        table.seq += 1
        table.turn_marker = None
        base = (table.guild_id, table.channel_id, table.table_id)
        self._emit(ev.GameStarted(*base, ref.number, state.setup.dealer, table.names()))
        for seat in range(4):
            self._hand(table, seat)
        await self._advance(table)

    async def _next_game_later(self, table: _Table) -> None:
        await self.clock.sleep(self.between_games)
        table.starting = True
        try:
            async with table.lock:
                if table.status == "playing" and table.game is None:
                    await self._start_game(table)
        finally:
            table.starting = False

    async def _finish_game(self, table: _Table) -> None:
        state = table.game
        assert state is not None and table.game_id is not None and table.session is not None
        finished = finished_game(state)
        await self.storage.games.finish_game(table.game_id, finished)
        metrics.GAMES_FINISHED.inc()
        table.session = table.session.record(state, None if state.is_redeal else score(state))
        self._cancel(table.timer)
        table.deadline = None
        base = (table.guild_id, table.channel_id, table.table_id)
        self._emit(
            ev.GameOver(
                *base, table.game_number or 0, finished.result, table.names(), table.session.totals
            )
        )
        table.game = None
        await self._judge(table, state)
        table.idle_games = 0 if table.human_acted else table.idle_games + 1
        if table.closing is None and not table.humans_staying():
            table.closing = "no_humans"
        elif table.closing is None and not table.humans_playing() and table.idle_games >= 2:
            table.closing = "nobody_plays"  # the AI played two whole games for everybody
        if table.closing:
            await self._close(table, table.closing)
            return
        if table.session.is_over:
            self._emit(
                ev.SessionOver(
                    *base, table.session.totals, table.names(), table.session_id, table.plan
                )
            )
            assert table.session_id is not None
            await self.storage.games.end_session(table.session_id)
            if table.plan.mode is not Mode.FREE:
                # The evening's list is complete: the table closes with its final sheet.
                await self._close(table, "session_over")
                return
            table.status = "open"
            await self.storage.tables.set_status(table.table_id, "open")
            self._changed(table)
            return
        table.next_game = self._spawn(table, self._next_game_later(table), "next game")

    async def _close(self, table: _Table, reason: str, *, reachable: bool = True) -> None:
        """Close the table for good; its finished games stay in the history.

        A session that ends early (stopped, everybody left) still gets its final sheet."""
        for task in (table.timer, table.driver, table.next_game, table.recovery):
            self._cancel(task)
        session = table.session
        if reachable and session is not None and session.games and not session.is_over:
            base = (table.guild_id, table.channel_id, table.table_id)
            self._emit(
                ev.SessionOver(*base, session.totals, table.names(), table.session_id, table.plan)
            )
        if table.game_id is not None and table.game is not None and not table.game.is_finished:
            await self.storage.games.abort_game(table.game_id)
        if table.session_id is not None:
            await self.storage.games.end_session(table.session_id)
        await self.storage.tables.set_status(table.table_id, "closed")
        table.status = "closed"
        table.game = None
        self._tables.pop(table.channel_id, None)
        self._emit(
            ev.TableClosed(table.guild_id, table.channel_id, table.table_id, reason, reachable)
        )

    def _changed(self, table: _Table) -> None:
        self._emit(ev.TableChanged(table.guild_id, table.channel_id, table.table_id))

    def _emit(self, event: ev.Event) -> None:
        if self.listener is None:
            return
        outlet = self._outlets.get(event.table_id)
        if outlet is None:
            outlet = self._outlets[event.table_id] = _Outlet()
        outlet.queue.append(event)
        if outlet.task is None or outlet.task.done():
            outlet.task = asyncio.create_task(self._deliver(event.table_id, outlet))

    async def _deliver(self, table_id: int, outlet: _Outlet) -> None:
        """Hand one table's queued events to the listener in order; ends when none are left."""
        while outlet.queue:
            event = outlet.queue.popleft()
            try:
                assert self.listener is not None
                await self.listener(event)
            except Exception:
                log.exception("table %s: listener failed on %s", table_id, type(event).__name__)
            if isinstance(event, ev.TableClosed):  # the table's last event
                self._outlets.pop(table_id, None)

    def _snapshot(self, table: _Table) -> TableSnapshot:
        state = table.game
        seats = tuple(
            None
            if s is None
            else SeatInfo(s.player_id, s.name, s.is_ai, i in table.away, s.ai_level)
            for i, s in enumerate(table.seats)
        )
        contract = declarer = None
        announcements: tuple[tuple[int, str], ...] = ()
        if state is not None:
            contract = state.contract
            declarer = state.parties.declarer
            if contract is Contract.SILENT_MARRIAGE:
                contract, declarer = Contract.NORMAL, None
            if contract is Contract.NORMAL:
                declarer = None
            announcements = tuple(
                (m.seat, m.party.value if m.level == 0 else Announcement(m.level).name.lower())
                for m in state.calls.log
            )
        session = table.session
        owed = tuple(session.solos_owed(s) for s in range(4)) if session else (0, 0, 0, 0)
        return TableSnapshot(
            table_id=table.table_id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            owner_id=table.owner_id,
            status=table.status,
            seats=seats,
            rules=table.rules,
            game_number=table.game_number if state is not None else None,
            action_no=len(state.actions) if state else 0,
            phase=state.phase if state else None,
            dealer=state.setup.dealer if state else None,
            to_act=state.to_act if state else None,
            contract=contract,
            declarer=declarer,
            announcements=announcements,
            tricks_played=len(state.tricks) if state else 0,
            totals=session.totals if session else (0, 0, 0, 0),
            games_played=len(session.games) if session else 0,
            deadline=table.deadline,
            session_id=table.session_id,
            trick=tuple(((state.leader + i) % 4, c) for i, c in enumerate(state.trick))
            if state
            else (),
            turn=table.turn_marker if state is not None else None,
            plan=table.plan,
            deals=session.deals if session else None,
            deals_played=session.deals_played if session else 0,
            solos_owed=owed,
            bock_queue=session.bock_queue if session else (),
            bock=state.setup.bock if state else (session.bock if session else 1),
        )


#: The least a strong decision searches, even when it waited past its time in the queue.
MIN_BUDGET_MS = 30.0


def ai_decision(
    level: str,
    view: PlayerView,
    seed: str,
    due: float,
    noise: tuple[float | None, ...] | None = None,
) -> Action:
    """One AI decision, in a worker process: the view goes in, the action comes back by
    ``due`` (wall-clock time), however long it queued; ``noise``: what the table judged
    of each seat's play (the strong AI's prior, ``StrongStrategy.table_noise``)."""
    budget_ms = max(MIN_BUDGET_MS, (due - time.time()) * 1000)
    strategy = make_strategy(level, budget_ms=budget_ms if level == "strong" else None)
    if isinstance(strategy, StrongStrategy):
        strategy.table_noise = noise
    return strategy.choose(view, random.Random(seed))


def _quiet(view: PlayerView) -> PlayerView:
    """The AI's choices when it may neither announce nor play a solo (``ai_announces``)."""
    quiet = tuple(
        a
        for a in view.legal
        if not isinstance(a, Announce) and not (isinstance(a, Bid) and a.reservation.is_solo)
    )
    # A compulsory solo must still be chosen when it is the only choice (Vorführen).
    return dataclasses.replace(view, legal=quiet or view.legal)


def describe(action: Action) -> str:
    """A short public description of an action, a catalogue text (never reveals a hand);
    ``{card}`` stands for the card of a play."""
    if isinstance(action, Play):
        return N_("played {card}")
    if isinstance(action, Bid):
        return (
            N_("said healthy")
            if action.reservation is Reservation.HEALTHY
            else N_("has a reservation")
        )
    if isinstance(action, Announce):
        return N_("made an announcement")
    if isinstance(action, PovertyReply):
        return N_("accepted the poverty") if action.accept else N_("declined the poverty")
    if isinstance(action, PassCards):
        return N_("put down their cards")
    if isinstance(action, Declare):
        return N_("made a call")
    if isinstance(action, Genscher):
        return N_("played Genscher")
    return N_("gave back their cards")
