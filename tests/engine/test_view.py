"""A player's view holds their own hand and public knowledge, nothing else."""

from __future__ import annotations

import dataclasses

from dokobot.engine import Card, CardOrder, Contract, Party, Play, deduce_parties, player_view

from .helpers import DEAL_MARRIAGE, announce, bid, healthy, new, play


def cards_in(value: object) -> set[Card]:
    """Every card reachable inside ``value`` (the card order is a rule, not a hand)."""
    if isinstance(value, CardOrder):
        return set()
    if isinstance(value, Card):
        return {value}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return set().union(*(cards_in(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, tuple | list | set | frozenset):
        return set().union(set(), *(cards_in(v) for v in value))
    return set()


def test_view_shows_only_own_hand_and_played_cards() -> None:
    state = play(healthy(new()), "C10 C9 C9 C10", "CQ CJ")
    played = {c for t in state.tricks for c in t.cards} | set(state.trick)
    for seat in range(4):
        view = player_view(state, seat)
        assert view.hand == state.hands[seat]
        assert cards_in(view) <= set(state.hands[seat]) | played
        others = set().union(*(state.hands[s] for s in range(4) if s != seat))
        hidden = others - set(state.hands[seat]) - played
        assert not cards_in(view) & hidden


def test_legal_actions_in_a_view_are_the_viewers_own() -> None:
    state = healthy(new())
    assert all(a.seat == 2 for a in player_view(state, 2).legal)
    assert any(isinstance(a, Play) for a in player_view(state, 0).legal)
    assert not any(isinstance(a, Play) for a in player_view(state, 2).legal)


def test_silent_marriage_looks_like_a_normal_game_to_the_others() -> None:
    state = healthy(new(DEAL_MARRIAGE))
    assert player_view(state, 0).contract is Contract.SILENT_MARRIAGE
    assert player_view(state, 1).contract is Contract.NORMAL
    assert player_view(state, 1).declarer is None


def test_the_silent_marriage_holder_alone_knows_everyone_s_party() -> None:
    # docs/rules.md §4: both queens of clubs and healthy: Re alone against three.
    state = healthy(new(DEAL_MARRIAGE))
    alone = (Party.RE, Party.KONTRA, Party.KONTRA, Party.KONTRA)
    assert player_view(state, 0).parties == alone
    assert player_view(state, 1).parties == (None, Party.KONTRA, None, None)
    # The same deduction from the holder's hand alone, nothing played or announced.
    assert deduce_parties(0, True, 2, (0, 0, 0, 0), frozenset(), frozenset()) == alone
    # One queen of its own and one played by seat 2: seat 0 knows its partner.
    assert deduce_parties(0, True, 1, (0, 0, 1, 0), frozenset(), frozenset()) == (
        Party.RE,
        Party.KONTRA,
        Party.RE,
        Party.KONTRA,
    )


def test_losing_reservations_stay_hidden() -> None:
    state = bid(new(DEAL_MARRIAGE), "marriage", "healthy", "solo:queen", "healthy")
    assert player_view(state, 1).bids == (
        (0, "reservation"),
        (1, "healthy"),
        (2, "solo:queen"),
        (3, "healthy"),
    )
    assert player_view(state, 0).bids[0] == (0, "marriage")


def test_parties_revealed_by_queens_and_announcements() -> None:
    state = healthy(new())  # Re: seats 0 and 2
    assert player_view(state, 0).parties == (Party.RE, None, None, None)
    assert player_view(state, 1).parties == (None, Party.KONTRA, None, None)
    state = announce(state, 0, "re")
    assert player_view(state, 1).parties == (Party.RE, Party.KONTRA, None, None)
    # Seat 2 plays its queen of clubs: both Re players are known, so everyone is.
    state = play(state, "C10 C9 C9 C10", "CQ CJ CQ")
    everyone = (Party.RE, Party.KONTRA, Party.RE, Party.KONTRA)
    for seat in range(4):
        assert player_view(state, seat).parties == everyone


def test_a_silent_marriage_keeps_the_re_side_open_for_kontra() -> None:
    state = announce(healthy(new()), 3, "kontra")
    # Seat 1 cannot tell: seat 0 or seat 2 might hold both queens and play alone.
    assert player_view(state, 1).parties == (None, Party.KONTRA, None, Party.KONTRA)
    assert player_view(state, 0).parties == (Party.RE, None, None, Party.KONTRA)
    state = play(state, "C10 C9 C9 C10", "CQ")
    assert player_view(state, 1).parties == (Party.RE, Party.KONTRA, None, Party.KONTRA)


def test_solo_parties_are_public() -> None:
    state = bid(new(), "healthy", "solo:jack", "healthy", "healthy")
    assert player_view(state, 3).parties == (Party.KONTRA, Party.RE, Party.KONTRA, Party.KONTRA)
    assert player_view(state, 3).contract is Contract.JACK_SOLO
