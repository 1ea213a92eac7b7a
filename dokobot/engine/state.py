"""The state of one game: frozen values, changed only by ``apply``."""

from __future__ import annotations

import dataclasses
import enum

from .actions import Action, Party, Reservation
from .cards import Card
from .contracts import NORMAL_ORDER, CardOrder, Contract
from .rules import DDV, RuleSet


class Phase(enum.StrEnum):
    """Where a game stands."""

    BIDDING = "bidding"
    POVERTY = "poverty"
    PLAY = "play"
    FINISHED = "finished"


class IllegalActionError(ValueError):
    """An action the rules refuse; ``str(error)`` is a sentence for the player.

    ``template`` and ``params`` keep the sentence apart from its values, so that
    it can be shown in the player's language (``str`` is the English).
    """

    def __init__(
        self,
        template: str,
        *,
        code: str = "illegal",
        seat: int | None = None,
        **params: object,
    ) -> None:
        message = template.format(**params) if params else template
        super().__init__(message)
        self.message = message
        self.template = template
        self.params = params
        #: A machine-readable reason: ``not_your_turn``, ``must_follow``, ``too_late`` …
        self.code = code
        #: For ``not_your_turn``: the seat whose turn it is.
        self.seat = seat


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class GameSetup:
    """Everything fixed before the first word: rules, dealer, the dealt hands, session duties."""

    rules: RuleSet = DDV
    dealer: int = 0
    hands: tuple[tuple[Card, ...], ...]
    #: Per seat: still owes a compulsory solo in this session (docs/rules.md §5).
    solo_owed: tuple[bool, ...] = (False, False, False, False)
    #: Vorführen: the seat that must play its compulsory solo now (docs/rules.md §5).
    forced: int | None = None
    #: Bock: the game value is multiplied by this (1, 2, 4 …; docs/rules.md §9.6).
    bock: int = 1

    def __post_init__(self) -> None:
        if not 0 <= self.dealer <= 3:
            raise ValueError("dealer must be a seat 0-3")
        if self.forced is not None and not 0 <= self.forced <= 3:
            raise ValueError("forced must be a seat 0-3")
        if type(self.bock) is not int or self.bock < 1 or self.bock & (self.bock - 1):
            raise ValueError("bock must be 1, 2, 4, 8 …")
        if len(self.hands) != 4 or len(self.solo_owed) != 4:
            raise ValueError("a game has four seats")
        size = self.rules.hand_size
        for seat, hand in enumerate(self.hands):
            if len(hand) != size:
                raise ValueError(f"seat {seat} holds {len(hand)} cards, not {size}")
        counts = [0] * 24
        for hand in self.hands:
            for card in hand:
                counts[card] += 1
        for card in Card:
            expected = 0 if (not self.rules.nines and card % 6 == 0) else 2
            if counts[card] != expected:
                held = {0: "no", 1: "one", 2: "two"}.get(counts[card], str(counts[card]))
                raise ValueError(
                    f"the hands hold {held} {card.name}, a deck has {expected}"
                    if expected
                    else f"the hands hold {held} {card.name}, but these rules play without nines"
                )

    @property
    def first_bidder(self) -> int:
        """Left of the dealer, or the seat that must play its solo (Vorführen)."""
        return (self.dealer + 1) % 4 if self.forced is None else self.forced


@dataclasses.dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: who led, the four cards in play order, who won it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int

    def seat_of(self, index: int) -> int:
        """The seat that played the ``index``-th card of this trick."""
        return (self.leader + index) % 4

    def card_of(self, seat: int) -> Card:
        return self.cards[(seat - self.leader) % 4]

    @property
    def winning_card(self) -> Card:
        return self.cards[(self.winner - self.leader) % 4]


@dataclasses.dataclass(frozen=True, slots=True)
class Poverty:
    """The poverty exchange (docs/rules.md §4)."""

    poor: int
    passed: tuple[Card, ...] = ()
    declined: tuple[int, ...] = ()
    acceptor: int | None = None
    returned: tuple[Card, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class Parties:
    """The contract and who plays with whom."""

    contract: Contract | None = None
    #: Soloist, marriage player or poor player.
    declarer: int | None = None
    #: Marriage partner or poverty acceptor.
    partner: int | None = None
    #: Per seat: ``True`` for Re; ``None`` while a marriage is not clarified.
    re: tuple[bool, ...] | None = None
    #: A compulsory solo (Pflichtsolo): the soloist leads, the dealer deals again.
    compulsory: bool = False
    order: CardOrder = NORMAL_ORDER
    #: Announcements are open (the game type is settled, a marriage clarified).
    open: bool = False
    #: Deadline shift in cards after a marriage clarified in trick 2 or 3 (docs/rules.md §6).
    shift: int = 0
    #: The trick (1-3) that clarified a marriage.
    clarified_in: int | None = None

    def party(self, seat: int) -> Party | None:
        if self.re is None:
            return None
        return Party.RE if self.re[seat] else Party.KONTRA

    def seats(self, party: Party) -> tuple[int, ...]:
        if self.re is None:
            return ()
        want = party is Party.RE
        return tuple(s for s in range(4) if self.re[s] == want)


@dataclasses.dataclass(frozen=True, slots=True)
class Made:
    """One announcement as made: who, for which party, the level, cards they had played."""

    seat: int
    party: Party
    level: int
    played: int
    #: Made by the rules, not by an action: a solo overbid's no 90 (docs/rules.md §9.3).
    implied: bool = False
    #: Tricks complete when it was made: whether it met a Zwingen duty (§9.4) is public,
    #: so a state rebuilt from what a seat saw (without the actions) still tells.
    tricks: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class Declared:
    """A house-rule declaration: Schweinchen, Superschweinchen, half chicken or Genscher."""

    seat: int
    #: A ``Declaration`` value, or ``"genscher"``.
    what: str
    played: int
    #: Genscher: the partner named.
    partner: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Calls:
    """Announcements so far: highest level per party (-1: none), the log, late-reply bars."""

    re_level: int = -1
    kontra_level: int = -1
    log: tuple[Made, ...] = ()
    re_barred: bool = False
    kontra_barred: bool = False
    #: Declarations (Schweinchen, Genscher …) in order.
    declared: tuple[Declared, ...] = ()

    def has(self, what: str) -> bool:
        """Whether ``what`` (a declaration or ``genscher``) has been declared."""
        return any(d.what == what for d in self.declared)

    def level(self, party: Party) -> int:
        return self.re_level if party is Party.RE else self.kontra_level

    def barred(self, party: Party) -> bool:
        return self.re_barred if party is Party.RE else self.kontra_barred


NO_CALLS = Calls()


@dataclasses.dataclass(frozen=True, slots=True)
class GameState:
    """A game: its setup plus everything the actions so far have done."""

    setup: GameSetup
    phase: Phase
    #: Reservation round words in order from the first bidder.
    bids: tuple[Reservation, ...]
    parties: Parties
    poverty: Poverty | None
    #: Cards each seat holds now.
    hands: tuple[tuple[Card, ...], ...]
    #: Cards of the trick in progress, in play order.
    trick: tuple[Card, ...]
    #: The seat that led (or will lead) the trick in progress.
    leader: int
    tricks: tuple[Trick, ...]
    calls: Calls
    #: The seat whose turn it is; ``None`` once the game is over.
    to_act: int | None
    actions: tuple[Action, ...]

    @classmethod
    def new(cls, setup: GameSetup) -> GameState:
        """A freshly dealt game waiting for the first reservation."""
        first = setup.first_bidder
        return cls(
            setup=setup,
            phase=Phase.BIDDING,
            bids=(),
            parties=Parties(),
            poverty=None,
            hands=setup.hands,
            trick=(),
            leader=(setup.dealer + 1) % 4,
            tricks=(),
            calls=NO_CALLS,
            to_act=first,
            actions=(),
        )

    @property
    def rules(self) -> RuleSet:
        return self.setup.rules

    @property
    def contract(self) -> Contract | None:
        return self.parties.contract

    @property
    def is_finished(self) -> bool:
        return self.phase is Phase.FINISHED

    @property
    def is_redeal(self) -> bool:
        """A thrown-in hand or a refused poverty: the same dealer deals again (§4, §9.2)."""
        return (
            self.phase is Phase.FINISHED
            and self.parties.re is None
            and self.parties.contract is not Contract.RAMSCH
        )

    @property
    def thrown_by(self) -> int | None:
        """The seat that threw its hand in (house rule ``redeal_on``), if any."""
        if self.bids and self.bids[-1] is Reservation.THROW:
            return self.bidder(len(self.bids) - 1)
        return None

    def cards_played(self, seat: int) -> int:
        """How many cards ``seat`` has played so far."""
        return len(self.tricks) + (1 if (seat - self.leader) % 4 < len(self.trick) else 0)

    def party(self, seat: int) -> Party | None:
        return self.parties.party(seat)

    def bidder(self, index: int) -> int:
        """The seat that said the ``index``-th word of the reservation round."""
        return (self.setup.first_bidder + index) % 4
