"""What one player may know about a game (docs/architecture.md: the AI sees a PlayerView)."""

from __future__ import annotations

import dataclasses
from itertools import combinations

from .actions import Action, Party, Reservation
from .cards import Card
from .contracts import NORMAL_ORDER, TRUMP, CardOrder, Contract
from .game import legal_actions, team_card
from .rules import RuleSet
from .state import Declared, GameState, Made, Phase, Trick


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge: its own hand, everything public, and nothing else."""

    seat: int
    rules: RuleSet
    dealer: int
    phase: Phase
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    #: Reservation round so far: ``(seat, word)`` with others' words reduced to
    #: ``healthy`` or ``reservation`` until a reservation wins.
    bids: tuple[tuple[int, str], ...]
    #: The contract as this seat knows it (a silent marriage looks normal to the others).
    contract: Contract | None
    declarer: int | None
    leader: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    announcements: tuple[Made, ...]
    #: Per seat: the party as this seat can tell it, ``None`` where it is still hidden.
    parties: tuple[Party | None, ...]
    to_act: int | None
    legal: tuple[Action, ...]
    #: Poverty: the cards this seat passed or received (only the two involved see them).
    poverty_cards: tuple[Card, ...] = ()
    #: Poverty: how many trumps came back to the poor player (public, docs/rules.md §4).
    poverty_trumps_returned: int | None = None
    #: The card order now (house rules and declared Schweinchen included).
    order: CardOrder = NORMAL_ORDER
    #: Declarations so far: Schweinchen, half chicken, Genscher (public).
    declared: tuple[Declared, ...] = ()
    #: A tournament list: who still owes a compulsory solo (public on the sheet, §5).
    solo_owed: tuple[bool, ...] = (False, False, False, False)

    @property
    def own_party(self) -> Party | None:
        return self.parties[self.seat]


def player_view(state: GameState, seat: int) -> PlayerView:
    """Build ``seat``'s view of ``state``."""
    parties = state.parties
    contract = parties.contract
    silent = contract is Contract.SILENT_MARRIAGE
    seen_contract = Contract.NORMAL if silent and parties.declarer != seat else contract
    declarer = None if silent and parties.declarer != seat else parties.declarer
    settled = state.phase is not Phase.BIDDING
    bids = tuple(
        (
            state.bidder(i),
            bid.value
            if state.bidder(i) == seat or (settled and state.bidder(i) == parties.declarer)
            else ("healthy" if bid is Reservation.HEALTHY else "reservation"),
        )
        for i, bid in enumerate(state.bids)
    )
    poverty_cards: tuple[Card, ...] = ()
    trumps_back = None
    if state.poverty is not None:
        pov = state.poverty
        if seat in (pov.poor, pov.acceptor):
            poverty_cards = pov.passed + pov.returned
        if pov.returned:
            trumps_back = trumps_returned(state)
    trick = tuple(((state.leader + i) % 4, c) for i, c in enumerate(state.trick))
    return PlayerView(
        seat=seat,
        rules=state.rules,
        dealer=state.setup.dealer,
        phase=state.phase,
        hand=state.hands[seat],
        hand_sizes=tuple(len(h) for h in state.hands),
        bids=bids,
        contract=seen_contract,
        declarer=declarer,
        leader=state.leader,
        trick=trick,
        tricks=state.tricks,
        announcements=state.calls.log,
        parties=known_parties(state, seat),
        to_act=state.to_act,
        legal=legal_actions(state, seat),
        poverty_cards=poverty_cards,
        poverty_trumps_returned=trumps_back,
        order=parties.order,
        declared=state.calls.declared,
        solo_owed=state.setup.solo_owed,
    )


def trumps_returned(state: GameState) -> int:
    """How many trumps the acceptor gave back to the poor player (public, docs/rules.md §4)."""
    pov = state.poverty
    if pov is None:
        return 0
    cls = state.parties.order.suit_class
    return sum(1 for c in pov.returned if cls[c] == TRUMP)


def known_parties(state: GameState, seat: int) -> tuple[Party | None, ...]:
    """Each seat's party as far as ``seat`` can deduce it from its hand and public play."""
    parties = state.parties
    if parties.re is None:
        # An unclarified marriage: only the marriage player is known (Re).
        return tuple(Party.RE if s == parties.declarer else None for s in range(4))
    contract = parties.contract
    if contract not in (Contract.NORMAL, Contract.SILENT_MARRIAGE) or state.calls.has("genscher"):
        # Genscher names the new parties aloud (docs/rules.md §9.4).
        return tuple(parties.party(s) for s in range(4))
    if parties.re[seat] and contract is Contract.SILENT_MARRIAGE:
        return tuple(parties.party(s) for s in range(4))
    queen = team_card(state.rules)
    queens_played = [0, 0, 0, 0]
    for s, card in _played_cards(state):
        if card == queen:
            queens_played[s] += 1
    return deduce_parties(
        seat,
        bool(parties.re[seat]),
        state.setup.hands[seat].count(queen),
        tuple(queens_played),
        frozenset(m.seat for m in state.calls.log if m.party is Party.RE),
        frozenset(m.seat for m in state.calls.log if m.party is Party.KONTRA),
    )


def deduce_parties(
    seat: int,
    own_re: bool,
    own_queens: int,
    queens_played: tuple[int, ...],
    re_called: frozenset[int],
    kontra_called: frozenset[int],
) -> tuple[Party | None, ...]:
    """Each seat's party in a normal game as ``seat`` deduces it from its own party and
    queens of clubs, the queens each seat has played and who announced Re or Kontra."""
    if own_re and own_queens == 2:
        # Both queens in one hand: a silent marriage, the others all play Kontra.
        return tuple(Party.RE if s == seat else Party.KONTRA for s in range(4))
    # The Re party is the two (or, silently married, one) holders of the queens of
    # clubs. Keep every candidate Re party that fits what this seat knows, and name a
    # seat's party where all candidates agree.
    re_known = set(re_called) | {s for s in range(4) if queens_played[s]}
    candidates: list[frozenset[int]] = []
    for size in (1, 2):
        for team in combinations(range(4), size):
            group = frozenset(team)
            if (seat in group) != own_re:
                continue
            # A lone Re player holds both queens: nobody else can have played one.
            if size == 1 and (
                own_queens or any(queens_played[s] for s in range(4) if s not in group)
            ):
                continue
            if size == 2 and 2 in queens_played:
                continue
            if re_known <= group and not (kontra_called & group):
                candidates.append(group)
    out: list[Party | None] = []
    for s in range(4):
        in_re = {s in group for group in candidates}
        out.append(None if len(in_re) != 1 else (Party.RE if in_re.pop() else Party.KONTRA))
    out[seat] = Party.RE if own_re else Party.KONTRA
    return tuple(out)


def _played_cards(state: GameState) -> list[tuple[int, Card]]:
    out = [(t.seat_of(i), c) for t in state.tricks for i, c in enumerate(t.cards)]
    out.extend(((state.leader + i) % 4, c) for i, c in enumerate(state.trick))
    return out
