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
from typing import Any, TextIO

from dokobot.engine import (
    Announcement,
    Card,
    Contract,
    PassCards,
    Phase,
    ReturnCards,
    RuleSet,
    parse_cards,
)
from dokobot.i18n import DEFAULT, LANGS, N_, T, card_label, lang_of
from dokobot.i18n.cards import card_from_text
from dokobot.render.hand import sort_hand
from dokobot.render.text import (
    announcement_name,
    bid_label,
    bid_name,
    call_name,
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
HELP = N_(
    "Type the number of your choice or its name: a card as CQ or ♣Q, a bid as healthy "
    "or queen solo, an announcement as re or no 90, three cards as 'D9 DK DA'. "
    "q quits (the session is saved), ? shows this help."
)
QUIT_WORDS = ("q", "quit", "exit", "ende")
HELP_WORDS = ("?", "h", "help", "hilfe")


def default_lang() -> str:
    """German when the environment's locale is German (LC_ALL, LC_MESSAGES, LANG)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return lang_of(value)
    return DEFAULT


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
        lang: str = DEFAULT,
    ) -> None:
        self.service = service
        self.read = read
        self.out = out
        self.lang = lang
        #: Stop after this many games (``None``: ask after each game).
        self.games = games
        self.events: asyncio.Queue[ev.Event] = asyncio.Queue()
        self.games_over = 0

    async def listen(self, event: ev.Event) -> None:
        await self.events.put(event)

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def t(self, message: str, /, **params: Any) -> str:
        return T(self.lang, message, **params)

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
        if snap is None:
            return self.t("Player {number}", number=seat + 1)
        return self.names(snap.names)[seat]

    def names(self, names: tuple[str, ...]) -> list[str]:
        """The seats' names, with "You" in the player's language."""
        return [self.t("You") if n == YOU.name else n for n in names]

    def is_you(self, seat: int) -> bool:
        snap = self.service.snapshot(CHANNEL)
        return (
            snap is not None
            and snap.seats[seat] is not None
            and (
                snap.seats[seat].player_id == YOU.user_id  # type: ignore[union-attr]
            )
        )

    def of(self, seat: int, contract: str) -> str:
        """``Queen solo of Anna``, or ``Queen solo (yours)``."""
        return self.who(
            seat, N_("{contract} (yours)"), N_("{contract} of {name}"), contract=contract
        )

    def who(self, seat: int, yours: str, theirs: str, /, **params: Any) -> str:
        """``You deal`` or ``Bot Anna deals``: a sentence for each, as languages need."""
        if self.is_you(seat):
            return self.t(yours, **params)
        return self.t(theirs, name=self.name(seat), **params)

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
        answer = await self.ask(self.t("Another game? [Y/n] "))
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
        lang = self.lang
        if isinstance(event, ev.GameStarted):
            self.say()
            self.say(
                self.who(
                    event.dealer,
                    N_("=== Game {number}: You deal ==="),
                    N_("=== Game {number}: {name} deals ==="),
                    number=event.number,
                )
            )
        elif isinstance(event, ev.BidMade):
            self.say(f"{self.name(event.seat)}: {bid_name(event.word, lang)}")
        elif isinstance(event, ev.ContractSettled):
            contract = contract_name(event.contract, lang)
            if event.declarer is not None:
                contract = self.of(event.declarer, contract)
            leads = self.who(event.leader, N_("You lead."), N_("{name} leads."))
            self.say(self.t("Contract: {contract}.", contract=contract) + " " + leads)
        elif isinstance(event, ev.PovertyStep):
            self.say(self.poverty_text(event))
        elif isinstance(event, ev.MarriageSettled):
            if event.partner is None:
                self.say(
                    self.who(
                        event.seat,
                        N_("You play the marriage alone."),
                        N_("{name} plays the marriage alone."),
                    )
                )
            elif self.is_you(event.seat):
                self.say(
                    self.t(
                        "Marriage: {name} won trick {trick} and plays with you.",
                        name=self.name(event.partner),
                        trick=event.trick,
                    )
                )
            else:
                self.say(
                    self.who(
                        event.partner,
                        N_("Marriage: you won trick {trick} and play with {bride}."),
                        N_("Marriage: {name} won trick {trick} and plays with {bride}."),
                        trick=event.trick,
                        bride=self.name(event.seat),
                    )
                )
        elif isinstance(event, ev.CardPlayed):
            self.say(
                "  "
                + self.who(
                    event.seat,
                    N_("You play {card}"),
                    N_("{name} plays {card}"),
                    card=event.card.name,
                )
            )
        elif isinstance(event, ev.TrickCompleted):
            t = event.trick
            self.say(
                self.t(
                    "Trick {number} to {name} ({points} points)",
                    number=event.number,
                    name=self.names(event.names)[t.winner],
                    points=t.points,
                )
            )
        elif isinstance(event, ev.AnnouncementMade):
            self.say(
                self.who(
                    event.seat,
                    N_("You announce {what}!"),
                    N_("{name} announces {what}!"),
                    what=announcement_name(event.word, lang),
                )
            )
        elif isinstance(event, ev.Declared):
            if event.what == "genscher":
                assert event.partner is not None
                self.say(
                    self.who(
                        event.seat,
                        N_("You play Genscher with {partner}."),
                        N_("{name} plays Genscher with {partner}."),
                        partner=self.name(event.partner),
                    )
                )
            else:
                self.say(
                    self.who(
                        event.seat,
                        N_("You call {call}!"),
                        N_("{name} calls {call}!"),
                        call=call_name(event.what, lang),
                    )
                )
        elif isinstance(event, ev.HandThrown):
            self.say(
                self.who(
                    event.seat,
                    N_("You throw your hand in: {cards}. The same dealer deals again."),
                    N_("{name} throws the hand in: {cards}. The same dealer deals again."),
                    cards=" ".join(card_label(c, lang) for c in event.cards),
                )
            )
        elif isinstance(event, ev.PlaysAlone):
            self.say(
                self.who(
                    event.seat,
                    N_("You won the second ♠Q and play alone (Schwarze Sau)."),
                    N_("{name} won the second ♠Q and plays alone (Schwarze Sau)."),
                )
            )
        elif isinstance(event, ev.TableResumed):
            snap = self.service.snapshot(CHANNEL)
            number = snap.game_number if snap else None
            self.say(self.t("Continuing your saved session at game {number}.", number=number))
            if snap and snap.games_played:
                self.show_sheet(snap.names, snap.totals)

    def poverty_text(self, event: ev.PovertyStep) -> str:
        seat = event.seat
        if event.step == "put_down":
            return self.who(
                seat,
                N_("You are poor (Armut) and put down three cards."),
                N_("{name} is poor (Armut) and puts down three cards."),
            )
        if event.step == "accepted":
            return self.who(seat, N_("You take the poverty."), N_("{name} takes the poverty."))
        if event.step == "declined":
            return self.who(
                seat, N_("You decline the poverty."), N_("{name} declines the poverty.")
            )
        return self.who(
            seat,
            N_("You give three cards back, {trumps} of them trumps."),
            N_("{name} gives three cards back, {trumps} of them trumps."),
            trumps=event.trumps_returned,
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
                self.say(
                    "  " + self.t("or type the cards, e.g. {cards}", cards=self.example(panel))
                )
            answer = (await self.ask(self.t("Your choice (? for help): "))).strip()
            if _key(answer) in QUIT_WORDS:
                raise Quit
            if _key(answer) in HELP_WORDS:
                self.say(self.t(HELP))
                continue
            picked = self.pick(answer, choices, panel)
            if isinstance(picked, str):
                self.say(picked)
                continue
            try:
                await picked.run()
            except TableError as exc:
                self.say(exc.text(self.lang))
                continue
            return

    def pick(self, answer: str, choices: list[Choice], panel: Panel) -> Choice | str:
        """The choice the player typed, or what to tell them."""
        if answer.isdigit():
            if 1 <= int(answer) <= len(choices):
                return choices[int(answer) - 1]
            return self.t(
                "There is no choice {answer}: type a number from 1 to {count}.",
                answer=answer,
                count=len(choices),
            )
        key = _key(answer)
        for choice in choices:
            if key in choice.names:
                return choice
        if panel.poverty_step in ("pass", "return"):
            try:
                cards = tuple(parse_cards(answer.replace(",", " ").split()))
            except ValueError:
                return self.t("{answer} are not three cards. ", answer=repr(answer)) + self.t(HELP)
            return self.cards_choice(panel, cards)
        if not answer:
            return self.t(
                "Please choose: a number from 1 to {count}, or ? for help.", count=len(choices)
            )
        try:
            typed = card_from_text(answer)
        except ValueError:
            typed = None
        if typed is not None:
            for choice in choices:
                if _key(typed.name) in choice.names:
                    return choice
        return self.t("{answer} is not one of your choices now.", answer=repr(answer)) + (
            " " + self.t(HELP)
        )

    def choices(self, panel: Panel) -> list[Choice]:
        """Every move the player may make now, numbered in the order shown."""
        svc, uid, game = self.service, YOU.user_id, panel.game_number
        out: list[Choice] = []
        for bid in panel.bids:
            word = bid.value
            label = bid_name(word, self.lang)
            names = {_key(word)}
            # Every name of the bid in both languages: "healthy", "gesund", "queen solo" …
            for lang in LANGS:
                for text in (bid_name(word, lang), bid_label(lang, word)):
                    names |= {_key(text), _key(text.split(" (")[0])}
                    if "(" in text:
                        names.add(_key(text.split("(")[1].rstrip(")")))
            if word.startswith("solo:"):
                names |= {_key(word.removeprefix("solo:")), _key(word[5:] + " solo")}
            out.append(
                Choice(
                    label,
                    partial(svc.bid, CHANNEL, uid, word, game=game, expected=panel.turn_no),
                    names,
                )
            )
        order = panel.view.order
        for card in sort_hand(list(panel.playable), order):
            play = partial(svc.play, CHANNEL, uid, card, game=game, expected=panel.turn_no)
            label = card_label(card, self.lang)
            names = {_key(card.name), _key(card.label), _key(label)}
            out.append(Choice(label, play, names))
        for word in panel.announcements:
            label = self.t("Announce {what}", what=announcement_name(word, self.lang))
            names = {_key(word), _key(label)}
            names |= {_key(announcement_name(word, lang)) for lang in LANGS}
            announce = partial(svc.announce, CHANNEL, uid, word, game=game)
            out.append(Choice(label, announce, names))
        for what in panel.declarations:
            label = self.t("Call {what}", what=call_name(what, self.lang))
            names = {_key(what), _key(label)} | {_key(call_name(what, la)) for la in LANGS}
            declare = partial(svc.declare, CHANNEL, uid, what, game=game)
            out.append(Choice(label, declare, names))
        for seat in panel.genscher:
            label = self.t("Genscher: take {name} as partner", name=self.name(seat))
            names = {_key(label), _key(f"genscher {seat + 1}")}
            run = partial(svc.genscher, CHANNEL, uid, seat, game=game, expected=panel.turn_no)
            out.append(Choice(label, run, names))
        if panel.poverty_step == "reply":
            for accept, label, names in (
                (True, self.t("Take the poverty"), {"take", "accept", "yes", "y", "ja"}),
                (False, self.t("Decline the poverty"), {"decline", "no", "n", "nein"}),
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
        label = " ".join(card_label(c, self.lang) for c in cards)
        run = partial(send, CHANNEL, uid, cards, game=panel.game_number, expected=panel.turn_no)
        return Choice(label, run, {_key(label)})

    def example(self, panel: Panel) -> str:
        kind = PassCards if panel.poverty_step == "pass" else ReturnCards
        sets = [a.cards for a in panel.view.legal if isinstance(a, kind)]
        return " ".join(c.name for c in sets[0]) if sets else "D9 DK DA"

    def show_situation(self, panel: Panel) -> None:
        """The game, the trick, your party and announcements, the table and your hand."""
        view = panel.view
        parts = [self.t("Game {number}", number=panel.game_number)]
        if view.phase is Phase.BIDDING:
            parts.append(self.t("reservations"))
        elif view.phase is Phase.POVERTY:
            parts.append(self.t("poverty exchange"))
        else:
            parts.append(
                self.t(
                    "trick {number} of {tricks}",
                    number=len(view.tricks) + 1,
                    tricks=view.rules.tricks,
                )
            )
        if view.contract is not None and view.phase is not Phase.BIDDING:
            contract = contract_name(view.contract.value, self.lang)
            if view.declarer is not None and view.contract is not Contract.NORMAL:
                contract = self.of(view.declarer, contract)
            parts.append(contract)
        if view.phase is Phase.PLAY:
            party = view.own_party
            parts.append(
                self.t("you are {party}", party=party_name(party.value))
                if party
                else self.t("party not settled")
            )
        self.say("\n[" + " · ".join(parts) + "]")
        if view.announcements:
            said = ", ".join(
                self.name(m.seat)
                + " "
                + announcement_name(Announcement(m.level).word(m.party), self.lang)
                for m in view.announcements
            )
            self.say(self.t("Announced: {made}", made=said))
        order = view.order
        if view.trick:
            played = ", ".join(f"{self.name(s)} {card_label(c, self.lang)}" for s, c in view.trick)
            self.say(self.t("On the table: {played}", played=played))
        cards = sort_hand(list(panel.cards), order)
        hand = " ".join(card_label(c, self.lang) for c in cards)
        self.say(self.t("Your hand: {cards}", cards=hand))
        if panel.owed is not None:
            # Zwingen (docs/rules.md §9.4): the announcement comes before the card.
            self.say(
                self.t(
                    "You won a first trick of 30 or more: announce {what} first (Zwingen).",
                    what=announcement_name(panel.owed, self.lang),
                )
            )

    # ------------------------------------------------------------------ results

    def show_result(self, event: ev.GameOver) -> None:
        r = event.result
        names = self.names(event.names)
        self.say()
        self.say(
            self.t(
                "--- Game {number} over: {contract} ---",
                number=event.number,
                contract=contract_name(r.get("contract"), self.lang),
            )
        )
        if r.get("redeal"):
            self.say(self.t("Nobody took the poverty: the same dealer deals again."))
        else:
            for party in ("re", "kontra"):
                self.say(
                    self.t(
                        "{party} ({players}): {points} points",
                        party=party_name(party),
                        players=", ".join(names[s] for s in r[party]),
                        points=r["card_points"][party],
                    )
                )
            self.say(
                self.t("{party} wins.", party=party_name(r["winner"]))
                if r["winner"]
                else self.t("Nobody wins.")
            )
            # Every line counts for the side the value is scored for: the other
            # side's extra points are subtracted (docs/rules.md §8).
            for item, party, points in signed_breakdown(r):
                self.say(f"  {points:+d}  {item_name(item, self.lang)} · {party_name(party)}")
            if r.get("soloist") is not None:
                self.say(self.t("Game value: {value} (×3 for the soloist)", value=r["game_value"]))
            else:
                self.say(self.t("Game value: {value}", value=r["game_value"]))
        self.show_sheet(event.names, event.totals)

    def show_sheet(self, names: tuple[str, ...], totals: tuple[int, ...]) -> None:
        pairs = zip(self.names(names), totals, strict=True)
        self.say(self.t("Score sheet: {totals}", totals=", ".join(f"{n} {t:+d}" for n, t in pairs)))


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
    lang: str = DEFAULT,
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
    game = TerminalGame(service, read, out, games, lang)
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
            print("\n" + T(lang, "Bye."), file=out)
        if snap is not None and snap.games_played and not finished:
            game.show_sheet(snap.names, snap.totals)
        if str(database) != ":memory:":
            print(T(lang, "Saved in {path}: `dokobot play` carries on.", path=database), file=out)
    return 0
