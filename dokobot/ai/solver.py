"""An exact open-hand solver for the last tricks: alpha-beta over card points.

The position is compact: each seat's hand is a bitmask over the 48 physical cards
(face * 2 + copy), so that legal moves, the trick winner and the card points are
a few integer operations. The engine stays the reference; ``tests/ai`` checks that
both agree on legal moves, trick winners and card points.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence

from dokobot.engine import TRUMP, Card, CardOrder
from dokobot.engine.cards import CARD_POINTS

#: Physical card ``i`` is face ``i >> 1`` (two copies of each of the 24 faces).
FACES = tuple(Card(i >> 1) for i in range(48))


@dataclasses.dataclass(frozen=True, slots=True)
class Tables:
    """Per physical card: its class (suit or TRUMP), power and points under one card order."""

    cls: tuple[int, ...]
    power: tuple[int, ...]
    points: tuple[int, ...]
    #: Per class (0-4): the mask of the cards of that class.
    class_mask: tuple[int, ...]
    #: Whether the second ♥10 beats the first: in an ordinary trick, in the last one.
    second_dulle_wins: tuple[bool, bool]
    #: Per physical card: its run (-1: none) — faces of one class, next to each other
    #: in power, with the same points (the four jacks of a normal game) — and its
    #: place in the run, weakest first.
    run: tuple[int, ...] = ()
    run_place: tuple[int, ...] = ()
    #: Per run: the mask of the two copies of each of its faces, by place.
    run_faces: tuple[tuple[int, ...], ...] = ()
    #: The mask of every card in a run.
    run_cards: int = 0
    #: Per physical card: its place when the strongest move first (trumps, then power,
    #: then points; these cut off most), and when the most points first, then the
    #: weakest card (feeding a partner's trick).
    rank: tuple[int, ...] = ()
    greasy: tuple[int, ...] = ()
    #: Per point value: the mask of the cards worth it (to count what is left).
    worth: tuple[tuple[int, int], ...] = ()
    #: In an ordinary trick and in the last one: per physical card, the mask of the
    #: cards that take the trick from it when played after it.
    beaten: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())

    @classmethod
    def of(cls, order: CardOrder, second_wins: tuple[bool, bool] = (False, False)) -> Tables:
        """``second_wins``: whether the second ♥10 wins in a trick that is not / is the last."""
        return _tables(order, second_wins)


@functools.lru_cache(maxsize=64)
def _tables(order: CardOrder, second_wins: tuple[bool, bool]) -> Tables:
    klass = tuple(order.suit_class[FACES[i]] for i in range(48))
    power = tuple(order.power[FACES[i]] for i in range(48))
    points = tuple(CARD_POINTS[FACES[i]] for i in range(48))
    masks = tuple(sum(1 << i for i in range(48) if klass[i] == k) for k in range(5))
    # Runs of touching cards with the same points (never the ♥10, whose second copy
    # may beat the first).
    run, place = [-1] * 48, [0] * 48
    runs: list[tuple[int, ...]] = []
    for k in range(5):
        faces = sorted(
            (f for f in range(0, 48, 2) if klass[f] == k and FACES[f] != Card.H10),
            key=lambda f: power[f],
        )
        group: list[int] = []
        for f in [*faces, -1]:
            touching = (
                f != -1
                and group
                and points[f] == points[group[-1]]
                and not any(
                    power[group[-1]] < power[g] < power[f] for g in range(0, 48, 2) if klass[g] == k
                )
            )
            if touching:
                group.append(f)
                continue
            if len(group) > 1:
                for i, face in enumerate(group):
                    for copy in (face, face + 1):
                        run[copy], place[copy] = len(runs), i
                runs.append(tuple(3 << face for face in group))
            group = [f] if f != -1 else []
    cards = sum(1 << i for i in range(48) if run[i] >= 0)
    by_strength = sorted(range(48), key=lambda m: (-(klass[m] == TRUMP), -power[m], -points[m]))
    rank = [0] * 48
    for position, m in enumerate(by_strength):
        rank[m] = position
    greasy = [0] * 48
    for position, m in enumerate(sorted(range(48), key=lambda m: (-points[m], -rank[m]))):
        greasy[m] = position
    worth = tuple(
        (v, sum(1 << i for i in range(48) if points[i] == v)) for v in sorted(set(points)) if v
    )
    bare = Tables(klass, power, points, masks, second_wins)  # enough for winner_index

    def beaten(last: bool) -> tuple[int, ...]:
        return tuple(
            sum(1 << m for m in range(48) if winner_index((top, m), bare, last))
            for top in range(48)
        )

    return Tables(
        klass,
        power,
        points,
        masks,
        second_wins,
        tuple(run),
        tuple(place),
        tuple(runs),
        cards,
        tuple(rank),
        tuple(greasy),
        worth,
        (beaten(False), beaten(True)),
    )


def mask_of(cards: Sequence[Card]) -> int:
    """The bitmask of ``cards``: the first copy of a face, then the second."""
    mask = 0
    for card in cards:
        bit = 1 << (card * 2)
        mask |= bit if not mask & bit else bit << 1
    return mask


def cards_of(mask: int) -> list[Card]:
    return [FACES[i] for i in range(48) if mask >> i & 1]


def legal_mask(hand: int, led: int | None, tables: Tables) -> int:
    """The cards of ``hand`` that may be played: the led class if held, else all."""
    if led is None:
        return hand
    follow = hand & tables.class_mask[tables.cls[led]]
    return follow or hand


def winner_index(trick: Sequence[int], tables: Tables, last: bool) -> int:
    """Index of the card taking a trick of physical cards (so far, if unfinished)."""
    cls, power = tables.cls, tables.power
    second = tables.second_dulle_wins[1 if last else 0]
    best = 0
    best_cls = cls[trick[0]]
    best_power = power[trick[0]]
    h10 = Card.H10
    for i in range(1, len(trick)):
        c = trick[i]
        k = cls[c]
        if k == TRUMP:
            if (
                best_cls != TRUMP
                or power[c] > best_power
                or (second and c >> 1 == h10 and trick[best] >> 1 == h10)
            ):
                best, best_cls, best_power = i, TRUMP, power[c]
        elif k == best_cls and power[c] > best_power:
            best, best_power = i, power[c]
    return best


def _moves(mask: int) -> list[int]:
    """One physical card per face of ``mask`` (equal cards are equal moves)."""
    out = []
    seen = 0
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        face_bit = 1 << (i >> 1)
        if not seen & face_bit:
            seen |= face_bit
            out.append(i)
        mask ^= low
    return out


class Solver:
    """Alpha-beta with a transposition table: the card points one party takes from here on."""

    def __init__(
        self, tables: Tables, ours: Sequence[bool], tricks_left: int, *, dynamic: bool = True
    ) -> None:
        self.tables = tables
        #: Search one of each group of equivalent cards, order the moves by the trick
        #: as it stands and try the best lead remembered for a position first (else
        #: every card, by strength alone).
        self.dynamic = dynamic
        self.ours = tuple(ours)
        self.total_tricks = tricks_left
        #: Trick starts: (lower bound, upper bound, best lead) of the value from there.
        self.table: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self.nodes = 0
        # Move orderings and the point masks: one per card order (``Tables``).
        self._rank, self._greasy = tables.rank, tables.greasy
        #: The ordered moves of a legal mask (and whether the own party takes the trick).
        self._lists: dict[int, list[int]] = {}
        #: Those lists with the equivalent cards dropped (``_distinct``).
        self._kept: dict[int, list[int]] = {}
        self._worth = tables.worth
        #: The hands during a search, changed in place and restored.
        self._hands = [0, 0, 0, 0]

    def value(
        self, hands: Sequence[int], leader: int, trick: Sequence[int], tricks_left: int
    ) -> int:
        """Our card points from the position on, both sides playing perfectly."""
        return self._start(hands, leader, trick, tricks_left, -1, 241)

    def best_move(
        self, hands: Sequence[int], leader: int, trick: Sequence[int], tricks_left: int
    ) -> tuple[int, int]:
        """The best card (physical index) for the seat to play, and the value it keeps."""
        seat = (leader + len(trick)) % 4
        led = trick[0] if trick else None
        moves = self._candidates(hands, seat, trick, legal_mask(hands[seat], led, self.tables))
        maximise = self.ours[seat]
        best_move, best_value = moves[0], -1 if maximise else 241
        for move in moves:
            after = list(hands)
            after[seat] &= ~(1 << move)
            # Only a better card matters: a worse one is cut off as soon as it shows.
            alpha, beta = (best_value, 241) if maximise else (-1, best_value)
            value = self._start(after, leader, [*trick, move], tricks_left, alpha, beta)
            if (value > best_value) if maximise else (value < best_value):
                best_move, best_value = move, value
        return best_move, best_value

    def _start(
        self,
        hands: Sequence[int],
        leader: int,
        trick: Sequence[int],
        tricks_left: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The search from any position: a finished trick is scored first."""
        self._hands = list(hands)
        tables = self.tables
        pts = tables.points
        gained = sum(pts[c] for c in trick)
        if len(trick) == 4:
            won = (leader + winner_index(trick, tables, tricks_left == 1)) % 4
            mine = gained if self.ours[won] else 0
            if tricks_left == 1:
                return mine
            rest = self._left()
            return mine + self._search(
                won, (), 0, 0, tricks_left - 1, alpha - mine, beta - mine, rest
            )
        # The second ♥10 may already have beaten the first (docs/rules.md §3).
        win = winner_index(trick, tables, tricks_left == 1) if trick else 0
        return self._search(
            leader, tuple(trick), win, gained, tricks_left, alpha, beta, self._left() + gained
        )

    def _left(self) -> int:
        """The card points still in the hands (two hands may hold the same bit: each
        hand numbers its own copies, ``mask_of``)."""
        return sum(v * (hand & mask).bit_count() for hand in self._hands for v, mask in self._worth)

    def _search(
        self,
        leader: int,
        trick: tuple[int, ...],
        win: int,
        taken: int,
        tricks_left: int,
        alpha: int,
        beta: int,
        rest: int,
    ) -> int:
        """Our points from here: ``win`` indexes the card taking ``trick`` so far,
        ``taken`` its points, ``rest`` every point still to be won (trick included)."""
        self.nodes += 1
        # Nothing below 0 or above what is left: a window outside that is decided.
        if alpha >= rest:
            return rest
        if beta <= 0:
            return 0
        hands = self._hands
        tables = self.tables
        n = len(trick)
        seat = (leader + n) & 3
        hand = hands[seat]
        key: tuple[int, ...] = ()
        entry: tuple[int, int, int] | None = None
        hint = -1
        if n:
            legal = hand & tables.class_mask[tables.cls[trick[0]]] or hand
        else:
            legal = hand
            key = (hands[0], hands[1], hands[2], hands[3], leader)
            entry = self.table.get(key)
            if entry is not None:
                low, high, hint = entry
                if low == high or low >= beta:
                    return low
                if high <= alpha:
                    return high
                alpha, beta = max(alpha, low), min(beta, high)
        # The window searched: a result outside it is only a bound (fail-soft).
        a0, b0 = alpha, beta
        ours = self.ours
        maximise = ours[seat]
        # The ordering of _candidates, with the card taking the trick known already.
        dynamic = self.dynamic
        greasy = dynamic and n >= 2 and ours[(leader + win) & 3] == maximise
        moves = self._lists.get(legal * 2 + greasy)
        if moves is None:
            moves = self._ordered(legal, greasy)
        if dynamic:
            if (legal & tables.run_cards).bit_count() >= 2:
                moves = self._distinct(moves, legal * 2 + greasy, hands, seat, trick)
            if hint >= 0 and moves[0] != hint and hint in moves:
                moves = [hint, *(m for m in moves if m != hint)]
        best = -1 if maximise else 241
        best_move = moves[0]
        pts = tables.points
        last = tricks_left == 1
        # The cards that take the trick from the one taking it so far.
        beating = tables.beaten[last][trick[win]] if n else 0
        for move in moves:
            now = n if beating >> move & 1 else win
            hands[seat] = hand & ~(1 << move)
            if n < 3:
                value = self._search(
                    leader, (*trick, move), now, taken + pts[move], tricks_left, alpha, beta, rest
                )
            else:
                gained = taken + pts[move]
                mine = gained if ours[(leader + now) & 3] else 0
                if last:
                    value = mine
                else:
                    value = mine + self._search(
                        (leader + now) & 3,
                        (),
                        0,
                        0,
                        tricks_left - 1,
                        alpha - mine,
                        beta - mine,
                        rest - gained,
                    )
            hands[seat] = hand
            if maximise:
                if value > best:
                    best, best_move = value, move
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            break
            elif value < best:
                best, best_move = value, move
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        break
        if not n:
            # A fail-high is a lower bound, a fail-low an upper bound, else exact (the
            # entry read above is still the position's: it cannot recur below itself).
            low, high, _ = entry if entry is not None else (-1, 241, -1)
            if best <= a0:
                high = min(high, best)
            elif best >= b0:
                low = max(low, best)
            else:
                low = high = best
            self.table[key] = (low, high, best_move) if low <= high else (low, low, best_move)
        return best

    def _distinct(
        self, moves: list[int], listed: int, hands: Sequence[int], seat: int, trick: Sequence[int]
    ) -> list[int]:
        """One card of each group of equivalent ones: cards of a run (same class, same
        points, next to each other in power) with no other player's card between or
        equal to them take and lose the same tricks, so only the weakest is searched.
        ``listed``: the key of ``moves`` in ``_lists``."""
        busy = 0
        for s, hand in enumerate(hands):
            if s != seat:
                busy |= hand
        for card in trick:
            busy |= 1 << card
        # Which cards drop depends only on the moves and on where the other cards of
        # the runs lie: the same few lists come back all through a search.
        key = (busy & self.tables.run_cards) << 50 | listed
        kept = self._kept.get(key)
        if kept is None:
            kept = self._kept[key] = self._drop(moves, busy)
        return kept

    def _drop(self, moves: list[int], busy: int) -> list[int]:
        """``_distinct`` of ``moves`` when the other players' cards are ``busy``."""
        run = self.tables.run
        in_runs = [m for m in moves if run[m] >= 0]
        if len(in_runs) < 2:
            return moves
        place, faces = self.tables.run_place, self.tables.run_faces
        in_runs.sort(key=place.__getitem__)
        last: dict[int, int] = {}
        dropped = []
        for m in in_runs:
            r = run[m]
            prev = last.get(r)
            if prev is not None:
                # The other copies of the two faces count too: of two equal cards the
                # first played takes the trick.
                span = 0
                for p in range(place[prev], place[m] + 1):
                    span |= faces[r][p]
                if not busy & span:
                    dropped.append(m)
                    continue
            last[r] = m
        return [m for m in moves if m not in dropped] if dropped else moves

    def _candidates(
        self, hands: Sequence[int], seat: int, trick: Sequence[int], legal: int
    ) -> Sequence[int]:
        """The moves to search, the likely best first so that alpha-beta cuts early: the
        strongest cards, except that when the own party already takes the trick the
        cards with the most points come first (schmieren); one card of each group of
        equivalent ones."""
        greasy = False
        if self.dynamic and len(trick) >= 2:
            # For the ordering only: which trick it is does not matter here.
            winner = (seat - len(trick) + winner_index(trick, self.tables, False)) % 4
            greasy = self.ours[winner] == self.ours[seat]
        moves = self._lists.get(legal * 2 + greasy)
        if moves is None:
            moves = self._ordered(legal, greasy)
        if self.dynamic and (legal & self.tables.run_cards).bit_count() >= 2:
            return self._distinct(moves, legal * 2 + greasy, hands, seat, trick)
        return moves

    def _ordered(self, legal: int, greasy: bool) -> list[int]:
        """The moves of a legal mask, strongest first (``greasy``: most points first)."""
        moves = _moves(legal)
        moves.sort(key=(self._greasy if greasy else self._rank).__getitem__)
        self._lists[legal * 2 + greasy] = moves
        return moves
