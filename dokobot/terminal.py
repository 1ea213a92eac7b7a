"""``dokobot play``: games in the terminal against three AI players, via the table service.

The session is kept in a SQLite file, so quitting (or a crash) loses nothing: the
next ``dokobot play`` carries on with the same score sheet.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TextIO

from dokobot.engine import (
    NORMAL_ORDER,
    Announcement,
    Card,
    Contract,
    PassCards,
    Phase,
    ReturnCards,
    RuleSet,
    card_order,
    parse_cards,
)
from dokobot.render.hand import sort_hand
from dokobot.render.text import (
    announcement_name,
    bid_name,
    contract_name,
    item_name,
    party_name,
    signed_breakdown,
)
from dokobot.storage import Storage
from dokobot.table import events as ev
from dokobot.table.service import Member, Panel, TableError, TableService

GUILD = 0
CHANNEL = 1
YOU = Member(1, "You")
HELP = (
    "Type the number of your choice or its name: a card as CQ or ♣Q, a bid as healthy "
    "or queen solo, an announcement as re or no 90, three cards as 'D9 DK DA'. "
    "q quits (the session is saved), ? shows this help."
)


def default_database() -> Path:
    """Where the terminal session is kept: ``$XDG_DATA_HOME/dokobot/terminal.sqlite3``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "dokobot" / "terminal.sqlite3"


class Quit(Exception):
    """The player typed q."""


def _key(text: str) -> str:
    """Input as compared with choice names: case, spaces and hyphens do not matter."""
    return "".join(text.lower().split()).replace("-", "")


@dataclass
class Choice:
    label: str
    run: Callable[[], Awaitable[None]]
    names: set[str] = field(default_factory=set)


class TerminalGame:
    """Prints the table's events and asks the human for their moves."""

    def __init__(
        self,
        service: TableService,
        read: Callable[[str], str],
        out: TextIO,
        games: int | None = None,
    ) -> None:
        self.service = service
        self.read = read
        self.out = out
        #: Stop after this many games (``None``: ask after each game).
        self.games = games
        self.events: asyncio.Queue[ev.Event] = asyncio.Queue()
        self.games_over = 0

    async def listen(self, event: ev.Event) -> None:
        await self.events.put(event)

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    async def ask(self, prompt: str) -> str:
        """Read one line on a daemon thread, so Ctrl-C never waits for Enter."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[str] = loop.create_future()

        def settle(result: str | None, error: BaseException | None) -> None:
            if answer.done():
                return
            if error is not None:
                answer.set_exception(error)
            else:
                answer.set_result(result or "")

        def work() -> None:
            try:
                line = self.read(prompt)
            except BaseException as exc:  # EOFError above all: input has ended
                loop.call_soon_threadsafe(settle, None, exc)
            else:
                loop.call_soon_threadsafe(settle, line, None)

        threading.Thread(target=work, daemon=True).start()
        return await answer

    # ------------------------------------------------------------------ words

    def name(self, seat: int) -> str:
        snap = self.service.snapshot(CHANNEL)
        return snap.names[seat] if snap else f"Player {seat + 1}"

    def does(self, seat: int, verb: str, rest: str = "") -> str:
        """``You deal`` but ``Bot Anna deals``."""
        who = self.name(seat)
        if who != YOU.name:
            verb = {"are": "is"}.get(verb, verb + "s")
        return f"{who} {verb}{rest}"

    # ------------------------------------------------------------------ the loop

    async def run(self) -> None:
        """Show events as they come; whenever it is the player's turn, ask for a move.

        The prompt follows the game's state, not a turn event: after an announcement
        it is still the player's turn, and they are asked again.
        """
        while not self.limit_reached():
            event = await self.events.get()
            if not await self.handle(event):
                return
            await self.service.idle_events()
            while not self.events.empty():
                if not await self.handle(self.events.get_nowait()):
                    return
            if not self.limit_reached() and self.my_turn() is not None:
                await self.turn()

    async def handle(self, event: ev.Event) -> bool:
        """Show one event; ``False`` when the player wants no further game."""
        if not isinstance(event, ev.GameOver):
            self.show(event)
            return True
        self.show_result(event)
        self.games_over += 1
        if self.limit_reached():
            return True
        answer = await self.ask("Another game? [Y/n] ")
        return not answer.strip().lower().startswith(("n", "q"))

    def limit_reached(self) -> bool:
        return self.games is not None and self.games_over >= self.games

    def my_turn(self) -> Panel | None:
        try:
            panel = self.service.panel(CHANNEL, YOU.user_id)
        except TableError:
            return None
        return panel if panel.is_turn else None

    def show(self, event: ev.Event) -> None:
        if isinstance(event, ev.GameStarted):
            dealer = event.names[event.dealer]
            verb = "deal" if dealer == YOU.name else "deals"
            self.say(f"\n=== Game {event.number}: {dealer} {verb} ===")
        elif isinstance(event, ev.BidMade):
            self.say(f"{self.name(event.seat)}: {bid_name(event.word)}")
        elif isinstance(event, ev.ContractSettled):
            contract = contract_name(event.contract)
            who = f" of {self.name(event.declarer)}" if event.declarer is not None else ""
            self.say(f"Contract: {contract}{who}. {self.does(event.leader, 'lead')}.")
        elif isinstance(event, ev.PovertyStep):
            self.say(self.poverty_text(event))
        elif isinstance(event, ev.MarriageSettled):
            if event.partner is None:
                self.say(f"{self.does(event.seat, 'play')} the marriage alone.")
            else:
                partner = self.name(event.partner)
                self.say(
                    f"Marriage: {partner} won trick {event.trick} and "
                    f"{'play' if partner == YOU.name else 'plays'} with {self.name(event.seat)}."
                )
        elif isinstance(event, ev.CardPlayed):
            self.say(f"  {self.does(event.seat, 'play', ' ' + event.card.label)}")
        elif isinstance(event, ev.TrickCompleted):
            t = event.trick
            self.say(f"Trick {event.number} to {event.names[t.winner]} ({t.points} points)")
        elif isinstance(event, ev.AnnouncementMade):
            self.say(f"{self.does(event.seat, 'announce')} {announcement_name(event.word)}!")
        elif isinstance(event, ev.TableResumed):
            snap = self.service.snapshot(CHANNEL)
            number = snap.game_number if snap else None
            self.say(f"Continuing your saved session at game {number}.")
            if snap and snap.games_played:
                self.show_sheet(snap.names, snap.totals)

    def poverty_text(self, event: ev.PovertyStep) -> str:
        seat = event.seat
        if event.step == "put_down":
            puts = "put" if self.name(seat) == YOU.name else "puts"
            return f"{self.does(seat, 'are', ' poor (Armut)')} and {puts} down three cards."
        if event.step == "accepted":
            return f"{self.does(seat, 'take')} the poverty."
        if event.step == "declined":
            return f"{self.does(seat, 'decline')} the poverty."
        return (
            f"{self.does(seat, 'give')} three cards back, {event.trumps_returned} of them trumps."
        )

    # ------------------------------------------------------------------ a turn

    async def turn(self) -> None:
        """Ask until one move is made (or the turn has passed)."""
        while (panel := self.my_turn()) is not None:
            choices = self.choices(panel)
            self.show_situation(panel)
            for i, choice in enumerate(choices, start=1):
                self.say(f"  {i:>2}) {choice.label}")
            if panel.poverty_step in ("pass", "return"):
                self.say("  or type three cards, e.g. " + self.example_cards(panel))
            answer = (await self.ask("Your choice (? for help): ")).strip()
            if _key(answer) in ("q", "quit", "exit"):
                raise Quit
            if _key(answer) in ("?", "h", "help"):
                self.say(HELP)
                continue
            picked = self.pick(answer, choices, panel)
            if isinstance(picked, str):
                self.say(picked)
                continue
            try:
                await picked.run()
            except TableError as exc:
                self.say(exc.message)
                continue
            return

    def pick(self, answer: str, choices: list[Choice], panel: Panel) -> Choice | str:
        """The choice the player typed, or what to tell them."""
        if answer.isdigit():
            if 1 <= int(answer) <= len(choices):
                return choices[int(answer) - 1]
            return f"There is no choice {answer}: type a number from 1 to {len(choices)}."
        key = _key(answer)
        for choice in choices:
            if key in choice.names:
                return choice
        if panel.poverty_step in ("pass", "return"):
            try:
                cards = tuple(parse_cards(answer.replace(",", " ").split()))
            except ValueError as exc:
                return f"{exc}. {HELP}"
            return self.cards_choice(panel, cards)
        if not answer:
            return f"Please choose: a number from 1 to {len(choices)}, or ? for help."
        return f"{answer!r} is not one of your choices now. {HELP}"

    def choices(self, panel: Panel) -> list[Choice]:
        """Every move the player may make now, numbered in the order shown."""
        svc, uid, game = self.service, YOU.user_id, panel.game_number
        out: list[Choice] = []
        for bid in panel.bids:
            word = bid.value
            label = bid_name(word)
            names = {_key(word), _key(label), _key(label.split(" (")[0])}
            if "(" in label:
                names.add(_key(label.split("(")[1].rstrip(")")))
            if word.startswith("solo:"):
                names |= {_key(word.removeprefix("solo:")), _key(word[5:] + " solo")}
            out.append(
                Choice(
                    label,
                    partial(svc.bid, CHANNEL, uid, word, game=game, expected=panel.turn_no),
                    names,
                )
            )
        order = card_order(panel.view.contract) if panel.view.contract else NORMAL_ORDER
        for card in sort_hand(list(panel.playable), order):
            play = partial(svc.play, CHANNEL, uid, card, game=game, expected=panel.turn_no)
            out.append(Choice(card.label, play, {_key(card.name), _key(card.label)}))
        for word in panel.announcements:
            label = f"Announce {announcement_name(word)}"
            names = {_key(word), _key(label), _key(announcement_name(word))}
            announce = partial(svc.announce, CHANNEL, uid, word, game=game)
            out.append(Choice(label, announce, names))
        if panel.poverty_step == "reply":
            for accept, label, names in (
                (True, "Take the poverty", {"take", "accept", "yes", "y"}),
                (False, "Decline the poverty", {"decline", "no", "n"}),
            ):
                reply = partial(
                    svc.poverty_reply, CHANNEL, uid, accept, game=game, expected=panel.turn_no
                )
                out.append(Choice(label, reply, names | {_key(label)}))
        elif panel.poverty_step in ("pass", "return"):
            kind = PassCards if panel.poverty_step == "pass" else ReturnCards
            sets = [a.cards for a in panel.view.legal if isinstance(a, kind)]
            if len(sets) <= 9:  # a short list helps; the long ones are typed
                for cards in sets:
                    out.append(self.cards_choice(panel, cards))
        return out

    def cards_choice(self, panel: Panel, cards: tuple[Card, ...]) -> Choice:
        svc, uid = self.service, YOU.user_id
        send = svc.poverty_pass if panel.poverty_step == "pass" else svc.poverty_return
        label = " ".join(c.label for c in cards)
        run = partial(send, CHANNEL, uid, cards, game=panel.game_number, expected=panel.turn_no)
        return Choice(label, run, {_key(label)})

    def example_cards(self, panel: Panel) -> str:
        kind = PassCards if panel.poverty_step == "pass" else ReturnCards
        sets = [a.cards for a in panel.view.legal if isinstance(a, kind)]
        return " ".join(c.name for c in sets[0]) if sets else "D9 DK DA"

    def show_situation(self, panel: Panel) -> None:
        """The game, the trick, your party and announcements, the table and your hand."""
        view = panel.view
        parts = [f"Game {panel.game_number}"]
        if view.phase is Phase.BIDDING:
            parts.append("reservations")
        elif view.phase is Phase.POVERTY:
            parts.append("poverty exchange")
        else:
            parts.append(f"trick {len(view.tricks) + 1} of {12 if view.rules.nines else 10}")
        if view.contract is not None and view.phase is not Phase.BIDDING:
            contract = contract_name(view.contract.value)
            if view.declarer is not None and view.contract is not Contract.NORMAL:
                contract += f" of {self.name(view.declarer)}"
            parts.append(contract)
        if view.phase is Phase.PLAY:
            party = view.own_party
            parts.append(f"you are {party_name(party.value)}" if party else "party not settled")
        self.say("\n[" + " · ".join(parts) + "]")
        if view.announcements:
            said = ", ".join(
                f"{self.name(m.seat)} {announcement_name(Announcement(m.level).word(m.party))}"
                for m in view.announcements
            )
            self.say("Announced: " + said)
        order = card_order(view.contract) if view.contract else NORMAL_ORDER
        if view.trick:
            self.say(
                "On the table: " + ", ".join(f"{self.name(s)} {c.label}" for s, c in view.trick)
            )
        cards = sort_hand(list(panel.cards), order)
        self.say("Your hand: " + " ".join(c.label for c in cards))

    # ------------------------------------------------------------------ results

    def show_result(self, event: ev.GameOver) -> None:
        r = event.result
        self.say(f"\n--- Game {event.number} over: {contract_name(r.get('contract'))} ---")
        if r.get("redeal"):
            self.say("Nobody took the poverty: the same dealer deals again.")
        else:
            for party in ("re", "kontra"):
                who = ", ".join(event.names[s] for s in r[party])
                self.say(f"{party_name(party)} ({who}): {r['card_points'][party]} points")
            self.say(f"{party_name(r['winner'])} wins." if r["winner"] else "Nobody wins.")
            # Every line counts for the side the value is scored for: the other
            # side's extra points are subtracted (docs/rules.md §8).
            for item, party, points in signed_breakdown(r):
                self.say(f"  {points:+d}  {item_name(item)} · {party_name(party)}")
            solo = " (×3 for the soloist)" if r.get("soloist") is not None else ""
            self.say(f"Game value: {r['game_value']}{solo}")
        self.show_sheet(event.names, event.totals)

    def show_sheet(self, names: tuple[str, ...], totals: tuple[int, ...]) -> None:
        pairs = zip(names, totals, strict=True)
        self.say("Score sheet: " + ", ".join(f"{n} {t:+d}" for n, t in pairs))


async def play(
    *,
    seed: int | None,
    ai_level: str,
    games: int | None,
    read: Callable[[str], str],
    out: TextIO,
    ai_pause: float,
    database: Path | str = ":memory:",
    rules: RuleSet | None = None,
    new: bool = False,
) -> int:
    """Play until the player stops (or ``games`` are played); the session stays saved.

    A saved session continues unless ``new`` is set or a seed or rules are given.
    """
    storage = await Storage.open(str(database))
    game: TerminalGame | None = None

    async def relay(event: ev.Event) -> None:
        assert game is not None
        await game.listen(event)

    service = TableService(
        storage,
        listener=relay,
        ai_pause=ai_pause,
        turn_seconds=24 * 3600,
        between_games=0.0,
        seed_source=(lambda: seed) if seed is not None else None,
    )
    game = TerminalGame(service, read, out, games)
    finished = False
    try:
        await service.restore()
        saved = service.snapshot(CHANNEL)
        if saved is not None and (new or seed is not None or rules is not None):
            await service.stop(CHANNEL, YOU.user_id, force=True)
            saved = None
        if saved is None or saved.status != "playing":
            if saved is None:
                await service.open_table(GUILD, CHANNEL, YOU)
            await storage.settings.set_rules(GUILD, (rules or RuleSet()).to_dict())
            await service.start(CHANNEL, YOU.user_id, ai_level=ai_level)
        await game.run()
        finished = True
    except (EOFError, Quit):
        pass
    finally:
        await service.idle_events()
        snap = service.snapshot(CHANNEL)
        await service.close()
        await storage.close()
        if not finished:
            print("\nBye.", file=out)
        if snap is not None and snap.games_played and not finished:
            game.show_sheet(snap.names, snap.totals)
        if str(database) != ":memory:":
            print(f"Saved in {database}: `dokobot play` carries on.", file=out)
    return 0
