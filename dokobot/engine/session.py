"""A session (Liste): the games at one table in order (docs/rules.md §5, §10)."""

from __future__ import annotations

import dataclasses
import random

from .cards import deal
from .rules import DDV, RuleSet
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


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Session:
    """The games at one table: dealer rotation, compulsory solos, Vorführen, running totals."""

    rules: RuleSet = DDV
    first_dealer: int = 0
    #: Deals in the session; ``None``: open-ended free play. A tournament list has 24.
    deals: int | None = None
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
    def totals(self) -> tuple[int, ...]:
        """Running total per seat."""
        return tuple(sum(g.scores[s] for g in self.games) for s in range(4))

    def next_setup(self, rng: random.Random) -> GameSetup:
        """Deal the next game with ``rng``; raises ``ValueError`` if the session is over."""
        if self.is_over:
            raise ValueError("the session is over")
        return GameSetup(
            rules=self.rules,
            dealer=self.dealer,
            hands=deal(rng, nines=self.rules.nines),
            solo_owed=tuple(self.solos_owed(s) > 0 for s in range(4)),
            forced=self.forced,
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
        )
        return dataclasses.replace(self, games=self.games + (game,))
