"""benchmarks/bid_time.py: what a bid costs, with its race and without."""

from __future__ import annotations

import math

from .benchmarks import load

bid_time = load("bid_time")


def test_a_bid_whose_solos_all_fall_short_stops_at_the_race_s_first_look() -> None:
    """Deal 1 of seed 77, the first seat to bid, against three seats judged random, 8
    worlds and no clock: without the race the bid plays the normal game and all 7 solos
    on 32 deals (256 playouts); with it, every solo is surely short of a margin of −3
    at the first look (16 deals, 128 playouts); of −4, only at the second (176). All
    say healthy."""
    short = {"samples": 8, "bid_factor": 4, "chance_solo_margin": -3.0}
    versions = {
        "no race": {**short, "race_sigmas": math.inf},
        "race": short,
        "race at −4": {**short, "chance_solo_margin": -4.0},
    }
    results = bid_time.bids(2, 77, versions, 0, 1.0)
    assert results["no race"][3][1:] == (256, "healthy")
    assert results["race"][3][1:] == (128, "healthy")
    assert results["race at −4"][3][1:] == (176, "healthy")
