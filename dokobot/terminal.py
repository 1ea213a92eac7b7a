"""``dokobot play``: a game in the terminal against three AI players, via the table service."""

from __future__ import annotations

import asyncio
import secrets
import sys
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TextIO

from dokobot.engine import NORMAL_ORDER, Card, PassCards, ReturnCards, card_order
from dokobot.render.hand import sort_hand
from dokobot.render.text import contract_name, item_name, party_name
from dokobot.storage import Storage
from dokobot.table import events as ev
from dokobot.table.service import Member, Panel, TableError, TableService

CHANNEL = 1
YOU = Member(1, "You")


class TerminalGame:
    """Prints the table's events and asks the human for their moves."""

    def __init__(self, service: TableService, read: Callable[[str], str], out: TextIO) -> None:
        self.service = service
        self.read = read
        self.out = out
        self.events: asyncio.Queue[ev.Event] = asyncio.Queue()
        self.games_over = 0

    async def listen(self, event: ev.Event) -> None:
        await self.events.put(event)

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def name(self, seat: int) -> str:
        snap = self.service.snapshot(CHANNEL)
        return snap.names[seat] if snap else f"seat {seat + 1}"

    async def run(self, games: int | None) -> None:
        while games is None or self.games_over < games:
            event = await self.events.get()
            if isinstance(event, ev.GameOver):
                self.show_result(event)
                self.games_over += 1
                if games is None:
                    answer = await asyncio.to_thread(self.read, "Another game? [Y/n] ")
                    if answer.strip().lower().startswith("n"):
                        return
                continue
            self.show(event)
            if isinstance(event, ev.TurnStarted) and event.player_id == YOU.user_id:
                await self.turn()

    def show(self, event: ev.Event) -> None:
        if isinstance(event, ev.GameStarted):
            self.say(f"\n=== Game {event.number}: {event.names[event.dealer]} deals ===")
        elif isinstance(event, ev.BidMade):
            self.say(f"{self.name(event.seat)}: {event.word}")
        elif isinstance(event, ev.ContractSettled):
            who = f" by {self.name(event.declarer)}" if event.declarer is not None else ""
            self.say(
                f"Contract: {contract_name(event.contract)}{who}; {self.name(event.leader)} leads."
            )
        elif isinstance(event, ev.PovertyStep):
            extra = (
                f" ({event.trumps_returned} trumps)" if event.trumps_returned is not None else ""
            )
            self.say(f"{self.name(event.seat)} {event.step.replace('_', ' ')}{extra}.")
        elif isinstance(event, ev.CardPlayed):
            who = self.name(event.seat)
            self.say(f"  {who} {'play' if who == YOU.name else 'plays'} {event.card.label}")
        elif isinstance(event, ev.TrickCompleted):
            t = event.trick
            self.say(f"Trick {event.number} to {event.names[t.winner]} ({t.points} points)")
        elif isinstance(event, ev.AnnouncementMade):
            self.say(f"{self.name(event.seat)} announces {event.word}!")

    async def turn(self) -> None:
        while True:
            try:
                panel = self.service.panel(CHANNEL, YOU.user_id)
            except TableError:
                return
            if not panel.is_turn:
                return
            choices = self.choices(panel)
            self.show_hand(panel)
            for i, (label, _) in enumerate(choices, start=1):
                self.say(f"  {i:>2}) {label}")
            answer = (await asyncio.to_thread(self.read, "Your choice: ")).strip()
            if not answer.isdigit() or not 1 <= int(answer) <= len(choices):
                self.say(f"Please type a number from 1 to {len(choices)}.")
                continue
            try:
                await choices[int(answer) - 1][1](panel)
            except TableError as exc:
                self.say(exc.message)
                continue
            return

    def choices(self, panel: Panel) -> list[tuple[str, Callable[[Panel], Awaitable[None]]]]:
        """Every move the player may make now, numbered in the order shown."""
        svc, uid, game = self.service, YOU.user_id, panel.game_number
        out: list[tuple[str, Callable[[Panel], Awaitable[None]]]] = []
        for bid in panel.bids:
            out.append((bid.value, partial(_bid, svc, uid, game, bid.value)))
        order = card_order(panel.view.contract) if panel.view.contract else NORMAL_ORDER
        for card in sort_hand(list(panel.playable), order):
            out.append((card.label, partial(_play, svc, uid, game, card)))
        for word in panel.announcements:
            out.append((f"announce {word}", partial(_announce, svc, uid, game, word)))
        if panel.poverty_step == "reply":
            out.append(("accept the poverty", partial(_reply, svc, uid, game, True)))
            out.append(("decline the poverty", partial(_reply, svc, uid, game, False)))
        elif panel.poverty_step in ("pass", "return"):
            kind = PassCards if panel.poverty_step == "pass" else ReturnCards
            step = panel.poverty_step
            for action in [a for a in panel.view.legal if isinstance(a, kind)][:12]:
                label = " ".join(c.label for c in action.cards)
                out.append((label, partial(_cards, svc, uid, game, step, action.cards)))
        return out

    def show_hand(self, panel: Panel) -> None:
        view = panel.view
        order = card_order(view.contract) if view.contract else NORMAL_ORDER
        cards = sort_hand(list(panel.cards), order)
        self.say("Your hand: " + " ".join(c.label for c in cards))
        if view.trick:
            self.say(
                "On the table: " + ", ".join(f"{self.name(s)} {c.label}" for s, c in view.trick)
            )

    def show_result(self, event: ev.GameOver) -> None:
        r = event.result
        self.say(f"\n--- Game {event.number} over: {contract_name(r.get('contract'))} ---")
        if r.get("redeal"):
            self.say("Nobody took the poverty: redeal.")
        else:
            for party in ("re", "kontra"):
                who = ", ".join(event.names[s] for s in r[party])
                self.say(f"{party_name(party)} ({who}): {r['card_points'][party]} points")
            self.say(f"{party_name(r['winner'])} wins" if r["winner"] else "Nobody wins")
            for item in r["breakdown"]:
                self.say(
                    f"  {item_name(item['item'])} ({party_name(item['party'])}) {item['points']:+d}"
                )
            self.say(f"Game value: {r['game_value']}")
        totals = zip(event.names, event.totals, strict=True)
        self.say("Score sheet: " + ", ".join(f"{n} {t:+d}" for n, t in totals))


async def _bid(svc: TableService, uid: int, game: int, word: str, panel: Panel) -> None:
    await svc.bid(CHANNEL, uid, word, game=game, expected=panel.turn_no)


async def _play(svc: TableService, uid: int, game: int, card: Card, panel: Panel) -> None:
    await svc.play(CHANNEL, uid, card, game=game, expected=panel.turn_no)


async def _announce(svc: TableService, uid: int, game: int, word: str, panel: Panel) -> None:
    await svc.announce(CHANNEL, uid, word, game=game)


async def _reply(svc: TableService, uid: int, game: int, accept: bool, panel: Panel) -> None:
    await svc.poverty_reply(CHANNEL, uid, accept, game=game, expected=panel.turn_no)


async def _cards(
    svc: TableService, uid: int, game: int, step: str, cards: tuple[Card, ...], panel: Panel
) -> None:
    send = svc.poverty_pass if step == "pass" else svc.poverty_return
    await send(CHANNEL, uid, cards, game=game, expected=panel.turn_no)


async def play(
    *,
    seed: int,
    ai_level: str,
    games: int | None,
    read: Callable[[str], str],
    out: TextIO,
    ai_pause: float,
) -> int:
    """Run games in the terminal until the player stops (or ``games`` are played)."""
    storage = await Storage.open(":memory:")
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
        seed_source=lambda: seed,
    )
    game = TerminalGame(service, read, out)
    try:
        await service.open_table(0, CHANNEL, YOU)
        await service.start(CHANNEL, YOU.user_id, ai_level=ai_level)
        await game.run(games)
    except (EOFError, KeyboardInterrupt):
        print("\nBye.", file=out)
    finally:
        await service.close()
        await storage.close()
    return 0


def main(seed: int | None, ai_level: str, games: int | None, ai_pause: float) -> int:
    seed = secrets.randbits(32) if seed is None else seed
    coro = play(
        seed=seed, ai_level=ai_level, games=games, read=input, out=sys.stdout, ai_pause=ai_pause
    )
    return asyncio.run(coro)
