"""A session (Liste): the games at one table in order (docs/rules.md §5, §10)."""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Sequence

from .cards import deal
from .game import team_card
from .rules import DDV, BockStacking, RuleSet
from .scoring import GameResult
from .state import GameSetup, GameState

#: Deals in a tournament list at a four-player table (docs/rules.md §5).
TOURNAMENT_DEALS = 24


@dataclasses.dataclass(frozen=True, slots=True)
class SessionGame:
    """One game of a session as the score sheet needs it."""

    dealer: int
    contract: str | None
    soloist: int | None
    #: A compulsory solo (Pflichtsolo) that did not use up a deal.
    compulsory: bool
    #: A compulsory solo forced by Vorführen; it uses up a deal.
    forced: bool
    redeal: bool
    game_value: int
    scores: tuple[int, ...]
    #: The Bock factor the game was played at (1: no Bock).
    bock: int = 1
    #: Bock rounds this game set off.
    bock_rounds: int = 0


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Session:
    """The games at one table: dealer rotation, compulsory solos, Vorführen, running totals."""

    rules: RuleSet = DDV
    first_dealer: int = 0
    #: Deals in the session; ``None``: open-ended free play. A tournament list has 24.
    deals: int | None = None
    #: Points target: the session ends after the game in which a player reaches it.
    target: int | None = None
    #: Duel: these two seats are never partners in a normal game (docs/rules.md §10).
    apart: tuple[int, int] | None = None
    games: tuple[SessionGame, ...] = ()

    @classmethod
    def start(
        cls, rules: RuleSet = DDV, *, first_dealer: int = 0, deals: int | None = None
    ) -> Session:
        """A new session; with compulsory solos it is a tournament list of 24 deals."""
        if deals is None and rules.compulsory_solos > 0:
            deals = TOURNAMENT_DEALS
        return cls(rules=rules, first_dealer=first_dealer, deals=deals)

    @property
    def dealer(self) -> int:
        """Who deals next: the deal passes left, except after a compulsory solo or a redeal."""
        dealer = self.first_dealer
        for game in self.games:
            if not (game.redeal or (game.compulsory and not game.forced)):
                dealer = (dealer + 1) % 4
        return dealer

    @property
    def deals_played(self) -> int:
        """Deals used up: a compulsory solo (unless forced) and a redeal do not use one (§5)."""
        return sum(1 for g in self.games if not (g.redeal or (g.compulsory and not g.forced)))

    @property
    def deals_left(self) -> int | None:
        return None if self.deals is None else self.deals - self.deals_played

    @property
    def is_over(self) -> bool:
        if self.target is not None and any(t >= self.target for t in self.totals):
            return True
        return self.deals is not None and self.deals_played >= self.deals

    def solos_owed(self, seat: int) -> int:
        """Compulsory solos ``seat`` still has to play in this session."""
        played = sum(1 for g in self.games if g.compulsory and g.soloist == seat)
        return max(0, self.rules.compulsory_solos - played)

    @property
    def forced(self) -> int | None:
        """Vorführen: the first owing seat left of the dealer, once owed solos fill the deals."""
        left = self.deals_left
        owed = [self.solos_owed(s) for s in range(4)]
        if left is None or sum(owed) == 0 or sum(owed) < left:
            return None
        dealer = self.dealer
        return next(s for s in ((dealer + i) % 4 for i in range(1, 5)) if owed[s])

    @property
    def bock_queue(self) -> tuple[int, ...]:
        """Bock rounds still due: games left in each, the running one first (§9.6).

        Every game played (a redeal is not) counts down the running round, or
        under ``bock_stacking: double`` every overlapping round; then the rounds
        the game set off join the queue.
        """
        layers: list[int] = []
        double = self.rules.bock_stacking is BockStacking.DOUBLE
        for game in self.games:
            if game.redeal:
                continue
            if layers:
                layers = [n - 1 for n in layers] if double else [layers[0] - 1, *layers[1:]]
                layers = [n for n in layers if n > 0]
            layers.extend([4] * game.bock_rounds)
        return tuple(layers)

    @property
    def bock(self) -> int:
        """The Bock factor of the next game: 1, 2, or with stacked rounds 4, 8 …"""
        queue = self.bock_queue
        if not queue:
            return 1
        return 2 ** len(queue) if self.rules.bock_stacking is BockStacking.DOUBLE else 2

    @property
    def totals(self) -> tuple[int, ...]:
        """Running total per seat."""
        return tuple(sum(g.scores[s] for g in self.games) for s in range(4))

    def next_setup(self, rng: random.Random) -> GameSetup:
        """Deal the next game with ``rng``; raises ``ValueError`` if the session is over."""
        if self.is_over:
            raise ValueError("the session is over")
        hands = deal(rng, nines=self.rules.nines)
        if self.apart is not None:
            # A duel: the two seats are partners in a normal game when they hold the
            # same number of queens of clubs (one each: Re; none: Kontra). Such a deal
            # is dealt again (seeded) before anyone sees it.
            a, b = self.apart
            queen = team_card(self.rules)
            while hands[a].count(queen) == hands[b].count(queen):
                hands = deal(rng, nines=self.rules.nines)
        return GameSetup(
            rules=self.rules,
            dealer=self.dealer,
            hands=hands,
            solo_owed=tuple(self.solos_owed(s) > 0 for s in range(4)),
            forced=self.forced,
            bock=self.bock,
        )

    def record(self, state: GameState, result: GameResult | None) -> Session:
        """The session with the finished game ``state`` (scored as ``result``) appended."""
        if not state.is_finished:
            raise ValueError("only finished games go on the score sheet")
        if state.setup.dealer != self.dealer:
            raise ValueError(f"seat {self.dealer} deals this game, not seat {state.setup.dealer}")
        contract = state.parties.contract
        game = SessionGame(
            dealer=state.setup.dealer,
            contract=contract.value if contract else None,
            soloist=result.soloist if result else None,
            compulsory=bool(result and result.compulsory),
            forced=state.setup.forced is not None,
            redeal=result is None,
            game_value=result.game_value if result else 0,
            scores=result.scores if result else (0, 0, 0, 0),
            bock=state.setup.bock,
            bock_rounds=result.bock_rounds if result else 0,
        )
        return dataclasses.replace(self, games=self.games + (game,))


class Mode(enum.StrEnum):
    """How a group organises an evening at one table (docs/rules.md §10)."""

    FREE = "free"
    ROUNDS = "rounds"
    TARGET = "target"
    TOURNAMENT = "tournament"
    DUEL = "duel"


#: The two seats of the humans in a duel: opposite each other.
DUEL_SEATS = (0, 2)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    """A table's way of playing: its mode, the mode's number, and an optional stake."""

    mode: Mode = Mode.FREE
    #: Fixed rounds: how many rounds of four deals.
    rounds: int | None = None
    #: Points target.
    target: int | None = None
    #: Bookkeeping only: cents per point and the currency's label.
    stake_cents: int | None = None
    currency: str = "€"
    #: The AI may announce and play solos (off: the online duel's custom).
    ai_announces: bool = True

    def __post_init__(self) -> None:
        if self.mode is Mode.ROUNDS and not (self.rounds and 1 <= self.rounds <= 50):
            raise ValueError("fixed rounds need a number of rounds from 1 to 50")
        if self.mode is Mode.TARGET and not (self.target and 1 <= self.target <= 10_000):
            raise ValueError("a points target needs a target from 1 to 10000")
        if self.stake_cents is not None and not 1 <= self.stake_cents <= 10_000:
            raise ValueError("the stake is 1 to 10000 cents per point")

    def session(self, rules: RuleSet, *, first_dealer: int = 0) -> Session:
        """The session this plan plays under ``rules`` (a tournament list forces Pflichtsoli)."""
        if self.mode is Mode.TOURNAMENT:
            rules = dataclasses.replace(rules, compulsory_solos=max(1, rules.compulsory_solos))
            return Session.start(rules, first_dealer=first_dealer, deals=TOURNAMENT_DEALS)
        deals = 4 * self.rounds if self.mode is Mode.ROUNDS and self.rounds else None
        return dataclasses.replace(
            Session.start(rules, first_dealer=first_dealer, deals=deals),
            target=self.target if self.mode is Mode.TARGET else None,
            apart=DUEL_SEATS if self.mode is Mode.DUEL else None,
        )

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"mode": self.mode.value}
        for key in ("rounds", "target", "stake_cents"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.stake_cents is not None:
            out["currency"] = self.currency
        if not self.ai_announces:
            out["ai_announces"] = False
        return out

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Plan:
        return cls(
            mode=Mode(str(data.get("mode", "free"))),
            rounds=_optional_int(data.get("rounds")),
            target=_optional_int(data.get("target")),
            stake_cents=_optional_int(data.get("stake_cents")),
            currency=str(data.get("currency", "€")),
            ai_announces=bool(data.get("ai_announces", True)),
        )


def _optional_int(value: object) -> int | None:
    return None if value is None else int(str(value))


def settle(totals: Sequence[int], cents_per_point: int) -> list[tuple[int, int, int]]:
    """Who pays whom: ``(payer, payee, cents)``, at most three transfers for four players.

    Totals sum to zero (every game does), so each seat's balance is its total times
    the stake; the largest debt is paid to the largest claim until all are square.
    """
    balance = [t * cents_per_point for t in totals]
    transfers: list[tuple[int, int, int]] = []
    while True:
        payer = min(range(len(balance)), key=lambda s: balance[s])
        payee = max(range(len(balance)), key=lambda s: balance[s])
        amount = min(-balance[payer], balance[payee])
        if amount <= 0:
            return transfers
        transfers.append((payer, payee, amount))
        balance[payer] += amount
        balance[payee] -= amount
