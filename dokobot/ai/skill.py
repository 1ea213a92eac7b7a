"""How well a player plays, judged after the game: each card it played last to a trick
against the best card it could have played there.

Once a game is over every card and both parties are public. The last card of a trick
decides who takes it, and how many points go with it, with nothing left to happen in
that trick: a careful player takes a trick worth taking for its party, gives points to
its partner's trick and keeps them from the other party's. A player who plays at random
loses on average what a random legal card loses there. Over many cards the ratio of the
two is the share of random cards the player's play looks like (ε), the share the strong
AI's model of the others assumes (``model``): a table learns over its games whom it
plays with. Judged so, the heuristic looks like ε ≈ 0.25, the strong AI ≈ 0.45 (it gives
up a small trick to keep a high trump for later) and a random player ≈ 1.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from dokobot.engine import Card, GameState, Phase, Play, apply, legal_cards, trick_winner
from dokobot.engine.cards import CARD_POINTS


@dataclasses.dataclass(frozen=True, slots=True)
class Judged:
    """One card a seat played last to a trick, with more than one legal choice."""

    seat: int
    #: The trick's points its party lost by it against the best card (points taken by
    #: the other party count twice: they are lost and the others gain them).
    loss: float
    #: What a random legal card there loses on average.
    chance: float
    #: Which trick (0: the first).
    trick: int = 0


def judge(final: GameState) -> list[Judged]:
    """Every card of a finished game that was played last to its trick, judged."""
    re = final.parties.re
    if final.phase is not Phase.FINISHED or re is None:
        return []
    out: list[Judged] = []
    # The game replayed by the engine: the cards the seat could play there (house rules
    # that force a card included) and the card order then (a declaration changes it).
    state = GameState.new(final.setup)
    for action in final.actions:
        if isinstance(action, Play) and len(state.trick) == 3:
            legal = legal_cards(state)
            if len(legal) > 1:
                out.append(_judged(state, legal, action, re))
        state = apply(state, action)
    return out


def _judged(state: GameState, legal: Sequence[Card], play: Play, re: Sequence[bool]) -> Judged:
    """The last card of a trick against the best and an average legal one: the trick's
    points for the seat's party, positive if it takes them, negative if the others do."""
    rules = state.rules
    order = state.parties.order
    # docs/rules.md §3 (house rule dullen): the second ♥10 may beat the first, in every
    # trick or all but the last.
    second = rules.dullen.second_wins(len(state.tricks) + 1 == rules.tricks)
    points = sum(CARD_POINTS[c] for c in state.trick)
    values = {}
    for card in legal:
        won = trick_winner((*state.trick, card), state.leader, order, second)
        taken = points + CARD_POINTS[card]
        values[card] = taken if re[won] == re[play.seat] else -taken
    best = max(values.values())
    mean = sum(values.values()) / len(values)
    return Judged(play.seat, best - values[play.card], best - mean, len(state.tricks))


#: How much the prior weighs, in points a random card loses (about three judged cards).
STRENGTH = 40.0


@dataclasses.dataclass
class Skill:
    """What one player's judged cards add up to."""

    #: Card points lost against the best cards, and what random cards would have lost.
    loss: float = 0.0
    chance: float = 0.0
    cards: int = 0

    def add(self, judged: Iterable[Judged]) -> None:
        for j in judged:
            self.loss += j.loss
            self.chance += j.chance
            self.cards += 1

    def as_list(self) -> list[float]:
        """The tally as stored (``Skill(*tally)`` reads it back)."""
        return [round(self.loss, 3), round(self.chance, 3), self.cards]

    def noise(self, prior: float, strength: float = STRENGTH) -> float:
        """The share of random cards (ε) the player's cards look like; ``prior`` weighs
        in as ``strength`` card points that random cards would have lost."""
        return min(1.0, (self.loss + prior * strength) / (self.chance + strength))


def table_noise(skills: Sequence[Skill | None], prior: float) -> tuple[float | None, ...]:
    """Per seat, the ε the table judged its player's cards to (``None``: none judged)."""
    return tuple(k.noise(prior) if k is not None and k.cards else None for k in skills)
