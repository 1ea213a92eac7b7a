"""Legal actions and ``apply``: the one way a game changes (docs/rules.md §3-§6)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from .actions import (
    ANNOUNCES,
    PLAYS,
    Action,
    Announce,
    Announcement,
    Bid,
    Declaration,
    Declare,
    Genscher,
    Party,
    PassCards,
    Play,
    PovertyReply,
    Reservation,
    ReturnCards,
)
from .cards import CARD_POINTS, Card
from .contracts import NORMAL_ORDER, TRUMP, CardOrder, Contract, order_for
from .rules import (
    AnnouncementDeadline,
    CompulsoryAnnouncement,
    MarriageClarification,
    PovertyRefused,
    RedealHand,
    RuleSet,
    Schweinchen,
    SoloType,
    TeamQueen,
)
from .state import (
    Calls,
    Declared,
    GameSetup,
    GameState,
    IllegalActionError,
    Made,
    Parties,
    Phase,
    Poverty,
    Trick,
)

LEVEL_NAMES = ("{party}", "no 90", "no 60", "no 30", "schwarz")
_H10 = Card.H10
_DA = Card.DA


def new_game(setup: GameSetup) -> GameState:
    """A freshly dealt game waiting for the first reservation."""
    return GameState.new(setup)


# --------------------------------------------------------------------------- queries


def legal_cards(state: GameState) -> tuple[Card, ...]:
    """The cards the seat to act may play now, each once (docs/rules.md §3 follow suit)."""
    if state.phase is not Phase.PLAY:
        return ()
    seat = state.to_act
    assert seat is not None
    if state.calls.declared or state.setup.rules.compulsory_announcement.value != "off":
        if owed_announcement(state) is not None:
            return ()
        card = must_play(state, seat)
        if card is not None:
            return (card,)
    hand = state.hands[seat]
    trick = state.trick
    if trick:
        cls = state.parties.order.suit_class
        led = cls[trick[0]]
        following = [c for c in hand if cls[c] == led]
        if following:
            return tuple(dict.fromkeys(following))
    return tuple(dict.fromkeys(hand))


def legal_actions(state: GameState, seat: int | None = None) -> tuple[Action, ...]:
    """Every action legal now: the turn of the seat to act plus announcements of any seat.

    With ``seat``, only that seat's actions (its turn, if it is its turn, and its
    announcements).
    """
    phase = state.phase
    to_act = state.to_act
    out: list[Action] = []
    if to_act is not None and (seat is None or seat == to_act):
        if phase is Phase.PLAY:
            plays = PLAYS[to_act]
            out.extend(plays[c] for c in legal_cards(state))
        elif phase is Phase.BIDDING:
            out.extend(Bid(to_act, r) for r in legal_bids(state))
        elif phase is Phase.POVERTY:
            out.extend(_poverty_actions(state))
    if phase is Phase.PLAY and state.parties.open and len(state.tricks) < 9:
        for s in range(4) if seat is None else (seat,):
            announces = ANNOUNCES[s]
            out.extend(announces[level] for level in may_announce(state, s))
    rules = state.setup.rules
    if phase is Phase.PLAY and (
        rules.schweinchen is not Schweinchen.OFF or rules.half_chicken or rules.genscher
    ):
        for s in range(4) if seat is None else (seat,):
            out.extend(declarations(state, s))
    return tuple(out)


def legal_bids(state: GameState) -> tuple[Reservation, ...]:
    """The reservations the seat to act may name now (docs/rules.md §4, §5)."""
    if state.phase is not Phase.BIDDING or state.to_act is None:
        return ()
    seat = state.to_act
    return tuple(r for r in _RESERVATIONS if _bid_refusal(state, seat, r) is None)


def may_announce(state: GameState, seat: int) -> tuple[Announcement, ...]:
    """Each announcement ``seat`` could make right now, skipped levels included (docs/rules.md §6).

    A fast path of ``_announce_refusal``: the two agree on every state (tested).
    """
    parties = state.parties
    if state.phase is not Phase.PLAY or not parties.open:
        return ()
    if _announcement_house_rules(state.setup.rules):
        # House rules on announcements (docs/rules.md §9.4) take the one full check.
        return tuple(a for a in Announcement if _announce_refusal(state, seat, a) is None)
    calls = state.calls
    re = parties.re
    assert re is not None
    if re[seat]:
        own, opp, barred = calls.re_level, calls.kontra_level, calls.re_barred
    else:
        own, opp, barred = calls.kontra_level, calls.re_level, calls.kontra_barred
    if barred or own >= 4:
        return ()
    played = state.cards_played(seat)
    shift = parties.shift
    if own < 0 and played > 1 + shift:
        # Too late for a first Re/Kontra; a reply one card later is a bare Re/Kontra.
        return _REPLY_ONLY if opp >= 0 and played <= opp + 2 + shift else ()
    lowest = max(own + 1, 1)
    if played > lowest + 1 + shift:
        return _REPLY_ONLY if own < 0 else ()
    return _LEVELS_FROM[own + 1]


def _announcement_house_rules(rules: RuleSet) -> bool:
    return (
        rules.announcement_deadline is not AnnouncementDeadline.DDV
        or rules.announce_on_turn_only
        or rules.announcement_limit.level < 4
    )


_REPLY_ONLY = (Announcement.PARTY,)
_LEVELS_FROM = tuple(tuple(Announcement(lv) for lv in range(low, 5)) for low in range(6))


def trump_count(
    hand: Iterable[Card], *, fox_counts: bool = True, order: CardOrder = NORMAL_ORDER
) -> int:
    """Trumps of a normal game in ``hand``; without ``fox_counts`` the DA does not count."""
    cls = order.suit_class
    return sum(1 for c in hand if cls[c] == TRUMP and (fox_counts or c != _DA))


def team_card(rules: RuleSet) -> Card:
    """The queen whose holders are Re in a normal game: CQ, or DQ (docs/rules.md §9.1)."""
    return Card.DQ if rules.team_queen is TeamQueen.DIAMONDS else Card.CQ


def throw_reasons(hand: Iterable[Card], rules: RuleSet) -> tuple[RedealHand, ...]:
    """Why ``hand`` may be thrown in under ``rules.redeal_on`` (docs/rules.md §9.2)."""
    cards = tuple(hand)
    nines = sum(1 for c in cards if c % 6 == 0)
    kings = sum(1 for c in cards if c % 6 == 4)
    full = sum(1 for c in cards if c % 6 in (1, 5))
    cls = order_for(rules, Contract.NORMAL).suit_class
    found = {
        RedealHand.FIVE_NINES: nines >= 5,
        RedealHand.FIVE_KINGS: kings >= 5,
        RedealHand.FOUR_NINES_FOUR_KINGS: nines >= 4 and kings >= 4,
        RedealHand.SEVEN_FULL: full >= 7,
        # No trump above the DK: the hand's trumps are DK and D9 at most.
        RedealHand.LOW_TRUMPS: all(c in (Card.DK, Card.D9) for c in cards if cls[c] == TRUMP),
    }
    return tuple(r for r in RedealHand if r in rules.redeal_on and found[r])


def trick_winner(
    cards: tuple[Card, ...], leader: int, order: CardOrder, second_dulle_wins: bool
) -> int:
    """The seat winning ``cards`` led by ``leader`` (docs/rules.md §3; equal cards: first wins)."""
    cls = order.suit_class
    power = order.power
    best = 0
    best_card = cards[0]
    best_cls = cls[best_card]
    best_power = power[best_card]
    for i in range(1, len(cards)):
        card = cards[i]
        k = cls[card]
        if k == TRUMP:
            if (
                best_cls != TRUMP
                or power[card] > best_power
                or (second_dulle_wins and card == _H10 and best_card == _H10)
            ):
                best, best_card, best_cls, best_power = i, card, TRUMP, power[card]
        elif k == best_cls and power[card] > best_power:
            best, best_card, best_power = i, card, power[card]
    return (leader + best) % 4


# --------------------------------------------------------------------------- apply


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``; raises ``IllegalActionError`` with the reason if illegal."""
    if type(action) is Play:
        return _apply_play(state, action)
    if type(action) is Announce:
        return _apply_announce(state, action)
    if type(action) is Bid:
        return _apply_bid(state, action)
    if type(action) is PassCards:
        return _apply_pass(state, action)
    if type(action) is PovertyReply:
        return _apply_reply(state, action)
    if type(action) is ReturnCards:
        return _apply_return(state, action)
    if type(action) is Declare:
        return _apply_declare(state, action)
    if type(action) is Genscher:
        return _apply_genscher(state, action)
    raise IllegalActionError(f"unknown action {action!r}", code="unknown")


def _check_seat(seat: object) -> None:
    if type(seat) is not int or not 0 <= seat <= 3:
        raise IllegalActionError(f"there is no seat {seat!r}", code="no_seat")


def _check_turn(state: GameState, seat: int, phase: Phase, doing: str) -> None:
    _check_seat(seat)
    if state.phase is not phase:
        if state.phase is Phase.FINISHED:
            raise IllegalActionError("The game is over", code="game_over")
        raise IllegalActionError(
            "You cannot {doing} now: the game is in the {phase} phase",
            code="wrong_phase",
            doing=doing,
            phase=state.phase.value,
        )
    if seat != state.to_act:
        raise IllegalActionError(
            "It is seat {turn}'s turn", code="not_your_turn", seat=state.to_act, turn=state.to_act
        )


def _replace(state: GameState, **changes: Any) -> GameState:
    return dataclasses.replace(state, **changes)


def _without(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...]:
    out = list(hand)
    for card in cards:
        out.remove(card)
    return tuple(out)


# --------------------------------------------------------------------------- play


def _apply_play(state: GameState, action: Play) -> GameState:
    seat = action.seat
    card = action.card
    if state.phase is not Phase.PLAY or seat != state.to_act:
        _check_turn(state, seat, Phase.PLAY, "play a card")
    hand = state.hands[seat]
    try:
        index = hand.index(card)
    except ValueError:
        name = getattr(card, "name", repr(card))
        raise IllegalActionError("You do not hold {card}", code="not_in_hand", card=name) from None
    if state.calls.declared or state.setup.rules.compulsory_announcement.value != "off":
        _check_duties(state, seat, card)
    trick = state.trick
    order = state.parties.order
    if trick:
        cls = order.suit_class
        led = cls[trick[0]]
        if cls[card] != led:
            for held in hand:
                if cls[held] == led:
                    if led == TRUMP:
                        raise IllegalActionError(
                            "You must play a trump: you hold {card}",
                            code="must_follow",
                            card=held.name,
                        )
                    raise IllegalActionError(
                        "You must follow {suit}: you hold {card}",
                        code="must_follow",
                        suit=order.describe_class(led),
                        card=held.name,
                    )
    new_hand = hand[:index] + hand[index + 1 :]
    hands = state.hands[:seat] + (new_hand,) + state.hands[seat + 1 :]
    trick = trick + (card,)
    actions = state.actions + (action,)
    if len(trick) < 4:
        return GameState(
            state.setup,
            Phase.PLAY,
            state.bids,
            state.parties,
            state.poverty,
            hands,
            trick,
            state.leader,
            state.tricks,
            state.calls,
            (seat + 1) % 4,
            actions,
        )
    rules = state.setup.rules
    number = len(state.tricks) + 1
    is_last = number == rules.tricks
    leader = state.leader
    winner = trick_winner(trick, leader, order, rules.dullen.second_wins(is_last))
    points = (
        CARD_POINTS[trick[0]] + CARD_POINTS[trick[1]] + CARD_POINTS[trick[2]] + CARD_POINTS[card]
    )
    tricks = state.tricks + (Trick(leader, trick, winner, points),)
    parties = _settle_parties(state.parties, rules, tricks)
    return GameState(
        state.setup,
        Phase.FINISHED if is_last else Phase.PLAY,
        state.bids,
        parties,
        state.poverty,
        hands,
        (),
        winner,
        tricks,
        state.calls,
        None if is_last else winner,
        actions,
    )


def _settle_parties(parties: Parties, rules: RuleSet, tricks: tuple[Trick, ...]) -> Parties:
    """The parties once the last of ``tricks`` is complete: a marriage may find its
    partner (§4), a Schwarze Sau its soloist (§9.3)."""
    if parties.contract is Contract.MARRIAGE and not parties.open:
        return _clarify_marriage(parties, rules.marriage_clarification, tricks[-1], len(tricks))
    if parties.contract is Contract.SCHWARZE_SAU and parties.re is None:
        return _find_schwarze_sau(parties, tricks)
    return parties


def parties_after(parties: Parties, rules: RuleSet, tricks: tuple[Trick, ...]) -> Parties:
    """The parties after ``tricks``, from those the reservation round left: for a state
    rebuilt from what a seat saw, with the trick that settled them and its deadline shift."""
    for number in range(1, len(tricks) + 1):
        parties = _settle_parties(parties, rules, tricks[:number])
    return parties


def _find_schwarze_sau(parties: Parties, tricks: tuple[Trick, ...]) -> Parties:
    """Schwarze Sau: the winner of the trick with the second SQ plays alone (§9.3)."""
    if sum(t.cards.count(Card.SQ) for t in tricks) < 2:
        return parties
    alone = tricks[-1].winner
    number = len(tricks)
    re = tuple(s == alone for s in range(4))
    return dataclasses.replace(
        parties, declarer=alone, re=re, open=True, shift=number - 1, clarified_in=number
    )


def _clarify_marriage(
    parties: Parties, rule: MarriageClarification, trick: Trick, number: int
) -> Parties:
    """Find the marriage partner in the first three tricks, else the player is alone (§4)."""
    led_trump = parties.order.suit_class[trick.cards[0]] == TRUMP
    counts = (
        rule is MarriageClarification.FIRST_TRICK
        or (rule is MarriageClarification.FIRST_TRUMP_TRICK and led_trump)
        or (rule is MarriageClarification.FIRST_PLAIN_TRICK and not led_trump)
    )
    bride = parties.declarer
    if counts and trick.winner != bride:
        re = tuple(s in (bride, trick.winner) for s in range(4))
        return Parties(
            Contract.MARRIAGE,
            bride,
            trick.winner,
            re,
            False,
            parties.order,
            True,
            number - 1,
            number,
        )
    if number == 3:
        re = tuple(s == bride for s in range(4))
        return Parties(Contract.MARRIAGE_ALONE, bride, None, re, False, parties.order, True, 2, 3)
    return parties


# --------------------------------------------------------------------------- announcements


def _party_word(party: Party) -> str:
    return "Re" if party is Party.RE else "Kontra"


def _level_name(level: int, party: Party) -> str:
    return LEVEL_NAMES[level].format(party=_party_word(party))


def _announce_refusal(state: GameState, seat: int, level: int) -> IllegalActionError | None:
    """Why ``seat`` may not announce ``level`` now, or ``None`` if it may (docs/rules.md §6)."""
    if state.phase is Phase.FINISHED:
        return IllegalActionError("The game is over", code="game_over")
    parties = state.parties
    if state.phase is not Phase.PLAY:
        return IllegalActionError(
            "Nobody may announce before the game type is settled", code="too_early"
        )
    if parties.contract is Contract.RAMSCH:
        return IllegalActionError("Nobody announces in a Ramsch", code="too_early")
    if not parties.open and parties.contract is Contract.SCHWARZE_SAU:
        return IllegalActionError(
            "Nobody may announce before the second SQ decides who plays alone", code="too_early"
        )
    if not parties.open:
        return IllegalActionError(
            "Nobody may announce before the marriage partner is found", code="too_early"
        )
    party = parties.party(seat)
    assert party is not None
    calls = state.calls
    own = calls.level(party)
    name = _level_name(level, party)
    rules = state.setup.rules
    if level <= own:
        return IllegalActionError(
            "{announcement} has already been announced", code="already", announcement=name
        )
    if level > rules.announcement_limit.level:
        return IllegalActionError(
            "These rules allow no announcement above {limit}: {announcement} is not played",
            code="not_allowed",
            announcement=name,
            limit=_level_name(rules.announcement_limit.level, party),
        )
    if rules.announce_on_turn_only and state.to_act != seat:
        return IllegalActionError(
            "Under these rules you may announce only when it is your turn", code="not_on_turn"
        )
    if calls.barred(party):
        return IllegalActionError(
            "{party_word} replied late, so it may make no further announcement",
            code="barred",
            party_word=_party_word(party),
        )
    played = state.cards_played(seat)
    shift = parties.shift
    size = rules.hand_size
    # before_first_card (§9.4): before one's first card, or after a marriage or a
    # Schwarze Sau is decided in trick k, before one's first card after it.
    first_card = parties.clarified_in or 0
    if rules.announcement_deadline is AnnouncementDeadline.BEFORE_FIRST_CARD and (
        played > first_card
    ):
        return IllegalActionError(
            "Too late for {announcement}: under these rules every announcement comes before "
            "your first card",
            code="too_late",
            announcement=name,
        )
    lowest = own + 1
    if lowest == 0:
        # Re/Kontra: at most 1 card played (+ marriage shift), or a reply to the
        # opponents' announcement one card later than that announcement allowed.
        if played > 1 + shift:
            opp = calls.level(party.other)
            reply_limit = opp + 2 + shift
            word = _party_word(party)
            if opp < 0:
                return _too_late(name, word, size - played, size - 1 - shift, level)
            if played > reply_limit:
                if opp > 0:
                    return IllegalActionError(
                        "Too late for {announcement}: you have {have} cards, a reply to "
                        "{party_word}'s {word} needs {need}",
                        code="too_late",
                        announcement=name,
                        have=size - played,
                        party_word=_party_word(party.other),
                        word=_level_name(opp, party.other),
                        need=size - reply_limit,
                    )
                return IllegalActionError(
                    "Too late for {announcement}: you have {have} cards, a reply to "
                    "{party_word} needs {need}",
                    code="too_late",
                    announcement=name,
                    have=size - played,
                    party_word=_party_word(party.other),
                    need=size - reply_limit,
                )
            if level > 0:
                return IllegalActionError(
                    "Too late for {announcement}: you have {have} cards; a reply may only "
                    "say {party_word}",
                    code="too_late",
                    announcement=name,
                    have=size - played,
                    party_word=word,
                )
        lowest = 1
    if level >= lowest and played > lowest + 1 + shift:
        return _too_late(
            name, _level_name(lowest, party), size - played, size - 1 - lowest - shift, level
        )
    return None


def _too_late(name: str, binding: str, have: int, need: int, level: int) -> IllegalActionError:
    if binding == name:
        return IllegalActionError(
            "Too late for {announcement}: you have {have} cards, {announcement} needs {need}",
            code="too_late",
            announcement=name,
            have=have,
            need=need,
        )
    return IllegalActionError(
        "Too late for {announcement} ({word} first): you have {have} cards, {word} needs {need}",
        code="too_late",
        announcement=name,
        word=binding,
        have=have,
        need=need,
    )


def _apply_announce(state: GameState, action: Announce) -> GameState:
    seat = action.seat
    _check_seat(seat)
    level = int(action.level)
    if not 0 <= level <= 4:
        raise IllegalActionError(f"unknown announcement level {level}", code="unknown")
    refusal = _announce_refusal(state, seat, level)
    if refusal is not None:
        raise refusal
    party = state.party(seat)
    assert party is not None
    calls = state.calls
    made = Made(seat, party, level, state.cards_played(seat), tricks=len(state.tricks))
    new_calls = calls_from(calls.log + (made,), calls.declared, state.parties.shift)
    return _replace(state, calls=new_calls, actions=state.actions + (action,))


def calls_from(log: Sequence[Made], declared: tuple[Declared, ...], shift: int) -> Calls:
    """The announcements as kept, from their public ``log``: each party's highest level,
    and whether its first word was a late reply, which bars it from going further (§6;
    ``shift``: a marriage's deadline shift). A state rebuilt from what a seat saw gets
    the same calls as the game."""
    levels, barred = [-1, -1], [False, False]
    for index, party in enumerate((Party.RE, Party.KONTRA)):
        own = [m for m in log if m.party is party]
        if own:
            levels[index] = max(m.level for m in own)
            # The Re/Kontra deadline is the second card (§6); a first word after it is
            # only allowed as a reply, and then the party may say nothing more.
            barred[index] = own[0].played > 1 + shift
    return Calls(levels[0], levels[1], tuple(log), barred[0], barred[1], declared=declared)


# --------------------------------------------------------------------------- duties


def owed_announcement(state: GameState) -> tuple[int, Announcement] | None:
    """Zwingen: the seat that must announce now, and what (docs/rules.md §9.4).

    The winner of a first trick worth 30 or more must announce Re/Kontra before
    leading the second trick; under ``first_trick_30_renew`` a party that has
    already announced must go one level up. Where the announcement is not allowed
    (too late, barred, nothing left) there is no duty.
    """
    rule = state.setup.rules.compulsory_announcement
    if rule is CompulsoryAnnouncement.OFF or len(state.tricks) != 1 or state.trick:
        return None
    first = state.tricks[0]
    seat = first.winner
    if first.points < 30 or state.to_act != seat or not state.parties.open:
        return None
    party = state.party(seat)
    assert party is not None
    if _party_announced_since_trick_1(state, party):
        return None
    own = state.calls.level(party)
    if own >= 0 and rule is not CompulsoryAnnouncement.FIRST_TRICK_30_RENEW:
        return None
    level = Announcement(min(own + 1, 4)) if own < 4 else None
    if level is None or _announce_refusal(state, seat, level) is not None:
        return None
    return seat, level


def _party_announced_since_trick_1(state: GameState, party: Party) -> bool:
    """Whether ``party`` has announced since the first trick was complete (the duty is met)."""
    return any(m.party is party and m.tricks >= 1 and not m.implied for m in state.calls.log)


def must_play(state: GameState, seat: int) -> Card | None:
    """The card ``seat`` must play next after declaring with it (Schweinchen, Genscher)."""
    rules = state.setup.rules
    hand = state.hands[seat]
    for made in state.calls.declared:
        if made.seat != seat:
            continue
        card = _DECLARED_WITH.get(made.what)
        if card is None or hand.count(card) != 2:
            continue
        if made.what == "genscher" or rules.schweinchen is Schweinchen.ON_FIRST_PLAY:
            return card
    return None


_DECLARED_WITH = {"schweinchen": Card.DA, "superschweinchen": Card.D9, "genscher": Card.DK}


def _check_duties(state: GameState, seat: int, card: Card) -> None:
    owed = owed_announcement(state)
    if owed is not None:
        party = state.party(seat)
        assert party is not None
        raise IllegalActionError(
            "You won a first trick of 30 or more: announce {announcement} before you lead "
            "(Zwingen)",
            code="must_announce",
            announcement=_level_name(owed[1], party),
        )
    required = must_play(state, seat)
    if required is not None and card != required:
        raise IllegalActionError(
            "You declared with {card}: play {card} now",
            code="must_play",
            card=required.name,
        )


# --------------------------------------------------------------------------- declarations


def declarations(state: GameState, seat: int) -> list[Action]:
    """The declarations (Schweinchen, half chicken, Genscher) ``seat`` may make now."""
    out: list[Action] = [
        Declare(seat, what) for what in Declaration if _declare_refusal(state, seat, what) is None
    ]
    # Whether Genscher is open at all does not depend on the partner: ask with the next seat.
    if state.setup.rules.genscher and _genscher_refusal(state, seat, (seat + 1) % 4) is None:
        out.extend(Genscher(seat, p) for p in range(4) if p != seat)
    return out


def _declare_refusal(state: GameState, seat: int, what: Declaration) -> IllegalActionError | None:
    """Why ``seat`` may not declare ``what`` now, or ``None`` (docs/rules.md §9.1)."""
    rules = state.setup.rules

    def refuse(template: str, **params: Any) -> IllegalActionError:
        return IllegalActionError(template, code="declare_refused", **params)

    if state.phase is not Phase.PLAY:
        return refuse("Declarations come once the game type is settled")
    if state.calls.has(what.value):
        return refuse("{call} has already been declared", call=what.spoken)
    hand = state.hands[seat]
    if what is Declaration.HALF_CHICKEN:
        if not rules.half_chicken:
            return refuse("Half chicken is not played under these rules")
        if hand.count(Card.D10) < 2:
            return refuse("Half chicken needs both tens of diamonds")
        return None
    if rules.schweinchen is Schweinchen.OFF or (
        what is Declaration.SUPERSCHWEINCHEN and not rules.superschweinchen
    ):
        return refuse("{call} is not played under these rules", call=what.spoken)
    card = Card.DA if what is Declaration.SCHWEINCHEN else Card.D9
    if what is Declaration.SUPERSCHWEINCHEN and not state.calls.has("schweinchen"):
        return refuse("Superschweinchen comes only after Schweinchen")
    if not state.parties.order.is_trump(card):
        return refuse("{card} is not a trump in this game", card=card.name)
    if hand.count(card) < 2:
        return refuse("{call} needs both {card}", call=what.spoken, card=card.name)
    if rules.schweinchen is Schweinchen.AT_ONCE:
        # Before the holder's own first card: only the holder has these cards, so
        # nothing played before the call changes its rank.
        if state.cards_played(seat):
            return refuse(
                "Too late for {call}: under these rules it is declared before your first card",
                call=what.spoken,
            )
        return None
    # on_first_play: declared on one's turn, with the first of the pair.
    if state.to_act != seat or card not in _plain_legal(state, seat):
        return refuse(
            "Declare {call} on your turn, as you play the first {card}",
            call=what.spoken,
            card=card.name,
        )
    return None


def _plain_legal(state: GameState, seat: int) -> tuple[Card, ...]:
    """The cards ``seat`` could play by the follow rule alone (no declaration duties)."""
    hand = state.hands[seat]
    if state.trick:
        cls = state.parties.order.suit_class
        led = cls[state.trick[0]]
        following = [c for c in hand if cls[c] == led]
        if following:
            return tuple(following)
    return hand


def _apply_declare(state: GameState, action: Declare) -> GameState:
    seat = action.seat
    _check_seat(seat)
    try:
        what = Declaration(action.what)
    except ValueError:
        raise IllegalActionError(f"unknown declaration {action.what!r}", code="unknown") from None
    refusal = _declare_refusal(state, seat, what)
    if refusal is not None:
        raise refusal
    calls = state.calls
    made = Declared(seat, what.value, state.cards_played(seat))
    new_calls = dataclasses.replace(calls, declared=calls.declared + (made,))
    parties = state.parties
    if what is not Declaration.HALF_CHICKEN:
        # The card order changes at once: the declared cards are the highest trumps (§9.1).
        assert parties.contract is not None
        order = order_for(
            state.setup.rules,
            parties.contract,
            pigs=True,
            superpigs=what is Declaration.SUPERSCHWEINCHEN,
        )
        parties = dataclasses.replace(parties, order=order)
    return _replace(state, calls=new_calls, parties=parties, actions=state.actions + (action,))


def _genscher_refusal(state: GameState, seat: int, partner: int) -> IllegalActionError | None:
    """Why ``seat`` may not name ``partner`` by Genscher now, or ``None`` (§9.4)."""

    def refuse(template: str, **params: Any) -> IllegalActionError:
        return IllegalActionError(template, code="genscher_refused", **params)

    if not state.setup.rules.genscher:
        return refuse("Genscher is not played under these rules")
    if state.phase is not Phase.PLAY or state.parties.contract is not Contract.NORMAL:
        return refuse("Genscher is played only in a normal game")
    if state.calls.has("genscher"):
        return refuse("Genscher has already been played")
    if state.hands[seat].count(Card.DK) < 2:
        return refuse("Genscher needs both kings of diamonds")
    if state.to_act != seat or Card.DK not in _plain_legal(state, seat):
        return refuse("Genscher is played on your turn, with the first DK")
    if type(partner) is not int or not 0 <= partner <= 3 or partner == seat:
        return refuse("Name another seat as your partner")
    return None


def _apply_genscher(state: GameState, action: Genscher) -> GameState:
    """The Genscher and the named partner form one party; the calls stay with their party."""
    seat = action.seat
    _check_seat(seat)
    refusal = _genscher_refusal(state, seat, action.partner)
    if refusal is not None:
        raise refusal
    parties = state.parties
    assert parties.re is not None
    label = parties.re[seat]
    pair = (seat, action.partner)
    re = tuple((s in pair) == label for s in range(4))
    calls = state.calls
    made = Declared(seat, "genscher", state.cards_played(seat), action.partner)
    return _replace(
        state,
        parties=dataclasses.replace(parties, re=re),
        calls=dataclasses.replace(calls, declared=calls.declared + (made,)),
        actions=state.actions + (action,),
    )


# --------------------------------------------------------------------------- bidding


_RESERVATIONS = tuple(Reservation)
#: The solo each solo reservation names.
_SOLO_TYPES = {r: SoloType(r.value[5:]) for r in Reservation if r.is_solo}


def _bid_refusal(state: GameState, seat: int, bid: Reservation) -> IllegalActionError | None:
    """Why ``seat`` may not say ``bid``, or ``None`` if it may (docs/rules.md §4, §5)."""
    rules = state.setup.rules
    hand = state.hands[seat]

    def refuse(template: str, **params: Any) -> IllegalActionError:
        return IllegalActionError(template, code="bid_refused", **params)

    if state.setup.forced == seat and not bid.is_solo:
        return refuse("You must play your compulsory solo now (Vorführen): choose a solo")
    if bid is Reservation.HEALTHY:
        return None
    if bid is Reservation.MARRIAGE:
        if hand.count(team_card(rules)) < 2:
            if rules.team_queen is TeamQueen.DIAMONDS:
                return refuse("A marriage needs both queens of diamonds")
            return refuse("A marriage needs both queens of clubs")
        return None
    if bid is Reservation.POVERTY:
        if not rules.poverty:
            return refuse("Poverty is not played under these rules")
        trumps = trump_count(
            hand, fox_counts=rules.poverty_fox_counts, order=order_for(rules, Contract.NORMAL)
        )
        most = rules.poverty_cards
        if trumps > most:
            return refuse(
                "Poverty needs at most {most} trumps; you hold {trumps}", most=most, trumps=trumps
            )
        return None
    if bid is Reservation.THROW:
        if not rules.redeal_on:
            return refuse("Throwing in the cards is not allowed under these rules")
        if not throw_reasons(hand, rules):
            allowed = ", ".join(r.value for r in RedealHand if r in rules.redeal_on)
            return refuse(
                "This hand may not be thrown in; these rules allow it for {hands}", hands=allowed
            )
        return None
    solo = _SOLO_TYPES[bid]
    if solo not in rules.solos:
        return refuse("The {solo} solo is not allowed under these rules", solo=solo.value)
    return None


def _apply_bid(state: GameState, action: Bid) -> GameState:
    seat = action.seat
    _check_turn(state, seat, Phase.BIDDING, "bid")
    try:
        bid = Reservation(action.reservation)
    except ValueError:
        raise IllegalActionError(f"unknown bid {action.reservation!r}", code="unknown") from None
    refusal = _bid_refusal(state, seat, bid)
    if refusal is not None:
        raise refusal
    bids = state.bids + (bid,)
    actions = state.actions + (action,)
    if bid is Reservation.THROW:
        # A thrown-in hand ends the round at once: the same dealer deals again (§9.2).
        return _replace(state, phase=Phase.FINISHED, bids=bids, to_act=None, actions=actions)
    if state.setup.forced is None and len(bids) < 4:
        return _replace(state, bids=bids, to_act=(seat + 1) % 4, actions=actions)
    return _resolve_bids(_replace(state, bids=bids, actions=actions))


def _bid_rank(state: GameState, seat: int, bid: Reservation) -> int:
    """Priority of a reservation: compulsory solo > voluntary solo > poverty > marriage (§4)."""
    if bid.is_solo:
        owes = state.setup.forced == seat or (
            state.setup.rules.compulsory_solos > 0 and state.setup.solo_owed[seat]
        )
        return 4 if owes else 3
    return {Reservation.POVERTY: 2, Reservation.MARRIAGE: 1}.get(bid, 0)


def _resolve_bids(state: GameState) -> GameState:
    """Settle the contract once every seat has spoken."""
    setup = state.setup
    ranked = [(_bid_rank(state, state.bidder(i), b), i) for i, b in enumerate(state.bids)]
    top = max(rank for rank, _ in ranked)
    candidates = [i for rank, i in ranked if rank == top]
    rules = setup.rules
    # Solo overbid (docs/rules.md §9.3): of several voluntary solos the last one
    # plays, and it starts with no 90 announced.
    overbid = rules.solo_overbid and top == 3 and len(candidates) > 1
    last_wins = rules.reservation_priority.value == "last" or overbid
    index = candidates[-1] if last_wins else candidates[0]
    seat = state.bidder(index)
    bid = state.bids[index]
    left = (setup.dealer + 1) % 4
    if bid.is_solo:
        contract = Contract(bid.value)
        compulsory = top == 4
        leader = seat if compulsory or rules.soloist_leads else left
        re = tuple(s == seat for s in range(4))
        order = order_for(rules, contract)
        parties = Parties(contract, seat, None, re, compulsory, order, True)
        calls = state.calls
        if overbid:
            calls = Calls(re_level=1, log=(Made(seat, Party.RE, 1, 0, implied=True),))
        return _replace(
            state, phase=Phase.PLAY, parties=parties, calls=calls, leader=leader, to_act=leader
        )
    if bid is Reservation.POVERTY:
        parties = Parties(Contract.POVERTY, seat, order=order_for(rules, Contract.POVERTY))
        return _replace(
            state, phase=Phase.POVERTY, parties=parties, poverty=Poverty(seat), to_act=seat
        )
    order = order_for(rules, Contract.NORMAL)
    if bid is Reservation.MARRIAGE:
        parties = Parties(Contract.MARRIAGE, seat, order=order)
        return _replace(state, phase=Phase.PLAY, parties=parties, to_act=left)
    queen = team_card(rules)
    holders = [s for s in range(4) for c in state.hands[s] if c == queen]
    if holders[0] == holders[1]:
        # Both team queens and "healthy": a silent marriage, a solo in disguise (§4).
        re = tuple(s == holders[0] for s in range(4))
        parties = Parties(Contract.SILENT_MARRIAGE, holders[0], None, re, False, order, True)
    else:
        re = tuple(s in holders for s in range(4))
        parties = Parties(Contract.NORMAL, None, None, re, False, order, True)
    return _replace(state, phase=Phase.PLAY, parties=parties, to_act=left)


# --------------------------------------------------------------------------- poverty


def _poverty_actions(state: GameState) -> list[Action]:
    poverty = state.poverty
    seat = state.to_act
    assert poverty is not None and seat is not None
    hand = state.hands[seat]
    if not poverty.passed:
        return [PassCards(seat, cards) for cards in _choices(state, hand, _pass_refusal)]
    if poverty.acceptor is None:
        return [PovertyReply(seat, True), PovertyReply(seat, False)]
    return [ReturnCards(seat, cards) for cards in _choices(state, hand, _return_refusal)]


def _choices(state: GameState, hand: tuple[Card, ...], refusal: Any) -> list[tuple[Card, ...]]:
    """Distinct sets of poverty cards from ``hand`` that ``refusal`` lets pass."""
    seen = dict.fromkeys(combinations(hand, state.setup.rules.poverty_cards))
    return [cards for cards in seen if refusal(state, hand, cards) is None]


def poverty_trumps_required(state: GameState, hand: Iterable[Card]) -> list[Card]:
    """The trumps the poor player must put down: all of them (the DA only if it counts)."""
    fox = state.setup.rules.poverty_fox_counts
    cls = state.parties.order.suit_class
    return [c for c in hand if cls[c] == TRUMP and (fox or c != _DA)]


def _cards_refusal(
    state: GameState, hand: tuple[Card, ...], cards: tuple[Card, ...], wrong_count: str
) -> IllegalActionError | None:
    """A poverty exchange's cards: as many as the rules pass (§4, §9.3), all in ``hand``."""
    need = state.setup.rules.poverty_cards
    if len(cards) != need:
        return IllegalActionError(wrong_count, code="bad_cards", need=need, count=len(cards))
    missing = Counter(cards) - Counter(hand)
    if missing:
        return IllegalActionError(
            "You do not hold {card}", code="bad_cards", card=next(iter(missing)).name
        )
    return None


def _pass_refusal(
    state: GameState, hand: tuple[Card, ...], cards: tuple[Card, ...]
) -> IllegalActionError | None:
    refusal = _cards_refusal(state, hand, cards, "Put down exactly {need} cards, not {count}")
    if refusal is not None:
        return refusal
    left = Counter(poverty_trumps_required(state, hand)) - Counter(cards)
    if left:
        return IllegalActionError(
            "You must put down all your trumps: {card} is missing",
            code="bad_cards",
            card=next(iter(left)).name,
        )
    return None


def _apply_pass(state: GameState, action: PassCards) -> GameState:
    seat = action.seat
    _check_turn(state, seat, Phase.POVERTY, "put down cards")
    poverty = state.poverty
    assert poverty is not None
    if poverty.passed:
        raise IllegalActionError("The cards have already been put down", code="wrong_step")
    cards = tuple(action.cards)
    hand = state.hands[seat]
    refusal = _pass_refusal(state, hand, cards)
    if refusal is not None:
        raise refusal
    hands = _set_hand(state.hands, seat, _without(hand, cards))
    return _replace(
        state,
        hands=hands,
        poverty=Poverty(seat, cards),
        to_act=(seat + 1) % 4,
        actions=state.actions + (action,),
    )


def _set_hand(
    hands: tuple[tuple[Card, ...], ...], seat: int, hand: Iterable[Card]
) -> tuple[tuple[Card, ...], ...]:
    return hands[:seat] + (tuple(sorted(hand)),) + hands[seat + 1 :]


def _apply_reply(state: GameState, action: PovertyReply) -> GameState:
    seat = action.seat
    _check_turn(state, seat, Phase.POVERTY, "answer the poverty")
    poverty = state.poverty
    assert poverty is not None
    if not poverty.passed or poverty.acceptor is not None:
        raise IllegalActionError("There is no poverty to accept or decline now", code="wrong_step")
    actions = state.actions + (action,)
    if action.accept:
        hands = _set_hand(state.hands, seat, state.hands[seat] + poverty.passed)
        new = Poverty(poverty.poor, poverty.passed, poverty.declined, seat)
        return _replace(state, hands=hands, poverty=new, to_act=seat, actions=actions)
    declined = poverty.declined + (seat,)
    new = Poverty(poverty.poor, poverty.passed, declined)
    if len(declined) < 3:
        return _replace(state, poverty=new, to_act=(seat + 1) % 4, actions=actions)
    refused = state.setup.rules.poverty_refused
    if refused is PovertyRefused.REDEAL:
        # Nobody takes the poverty: the game ends and the same dealer deals again (§4).
        return _replace(state, phase=Phase.FINISHED, poverty=new, to_act=None, actions=actions)
    # Schwarze Sau or Ramsch (§9.3): the poor player takes the cards back and all play on.
    contract = Contract.SCHWARZE_SAU if refused is PovertyRefused.SCHWARZE_SAU else Contract.RAMSCH
    hands = _set_hand(state.hands, poverty.poor, state.hands[poverty.poor] + poverty.passed)
    parties = Parties(contract, order=order_for(state.setup.rules, contract))
    left = (state.setup.dealer + 1) % 4
    return _replace(
        state,
        phase=Phase.PLAY,
        hands=hands,
        parties=parties,
        poverty=new,
        leader=left,
        to_act=left,
        actions=actions,
    )


def _return_refusal(
    state: GameState, hand: tuple[Card, ...], cards: tuple[Card, ...]
) -> IllegalActionError | None:
    rules = state.setup.rules
    count = rules.poverty_cards
    refusal = _cards_refusal(state, hand, cards, "Give back exactly {need} cards, not {count}")
    if refusal is not None:
        return refusal
    if not rules.poverty_return_trumps:
        # House rule (§9.3): no trumps back, unless the hand lacks plain cards enough.
        cls = state.parties.order.suit_class
        plain = sum(1 for c in hand if cls[c] != TRUMP)
        trumps = [c for c in cards if cls[c] == TRUMP]
        if len(trumps) > max(0, count - plain):
            return IllegalActionError(
                "Under these rules you may not give trumps back: {card} is a trump",
                code="bad_cards",
                card=trumps[0].name,
            )
    return None


def _apply_return(state: GameState, action: ReturnCards) -> GameState:
    seat = action.seat
    _check_turn(state, seat, Phase.POVERTY, "give cards back")
    poverty = state.poverty
    assert poverty is not None
    if poverty.acceptor != seat:
        raise IllegalActionError("There are no cards to give back now", code="wrong_step")
    cards = tuple(action.cards)
    hand = state.hands[seat]
    refusal = _return_refusal(state, hand, cards)
    if refusal is not None:
        raise refusal
    hands = _set_hand(state.hands, seat, _without(hand, cards))
    hands = _set_hand(hands, poverty.poor, hands[poverty.poor] + cards)
    re = tuple(s in (poverty.poor, seat) for s in range(4))
    order = state.parties.order
    parties = Parties(Contract.POVERTY, poverty.poor, seat, re, False, order, True)
    left = (state.setup.dealer + 1) % 4
    return _replace(
        state,
        phase=Phase.PLAY,
        hands=hands,
        parties=parties,
        poverty=Poverty(poverty.poor, poverty.passed, poverty.declined, seat, cards),
        leader=left,
        to_act=left,
        actions=state.actions + (action,),
    )
