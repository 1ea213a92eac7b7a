"""The strong player: Monte Carlo over sampled deals, played out by the engine.

At each decision the unseen cards are dealt in ways consistent with the seat's
view (``worlds``) and weighed by how well they explain the others' announcements
and cards (``model``: inference); every legal option is played out on the same
worlds — a fast full-information policy early, the exact solver (``solver``) for
the last tricks — and the option with the best mean score (score points, with
the own party's card points telling close ones apart) wins. Reservations and
announcements are decided on the same kind of simulation, each with a margin;
the playouts play worse than this player, so the estimates lean to the careful
side. A player the table has judged weaker over its earlier games (``skill``) is
simulated as weaker (``table_noise``).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence

from dokobot.engine import (
    TRUMP,
    Action,
    Announce,
    Announcement,
    Bid,
    Card,
    CardOrder,
    CompulsoryAnnouncement,
    Contract,
    GameResult,
    GameSetup,
    GameState,
    Parties,
    Party,
    PassCards,
    Phase,
    Play,
    PlayerView,
    PovertyReply,
    Reservation,
    ReturnCards,
    Trick,
    apply,
    legal_actions,
    legal_cards,
    order_for,
    score,
    team_card,
    trick_winner,
)
from dokobot.engine.actions import PLAYS
from dokobot.engine.cards import CARD_POINTS

from . import poverty
from .heuristic import HeuristicStrategy, accepts_poverty, is_soloist, solo_value
from .model import (
    CallReplays,
    Observed,
    chance,
    fit_noise,
    fit_noise_marginal,
    log_play,
    refine,
    replay,
    resample,
    steps,
    tempered,
)
from .solver import Solver, Tables, mask_of
from .worlds import Dealer, deal_unseen, unseen_cards, world

#: Worlds a decision searches however short its time: fewer tell too little.
LEAST_WORLDS = 8
#: The bid's race (``StrongStrategy.race_sigmas``) first looks after this many deals,
#: then after every ``RACE_EVERY`` more.
RACE_FROM = 16
RACE_EVERY = 8


@dataclasses.dataclass
class StrongStrategy:
    """Perfect-information Monte Carlo with an exact endgame (level ``strong``)."""

    #: Worlds per decision; with ``budget_ms`` the most that fit in the time. 40, not 20
    #: (dokobot simulate, the same 500 deals × 4 against random): +3.52 ± 0.11 a game,
    #: not +3.11 ± 0.12 (+2.19, not +1.75, without a solo), p95 367 ms a decision. 80
    #: at 450 ms, so that the late tricks use their budget too (benchmarks/ai_ab.py, 400
    #: paired games against random at a table that judged them random): −0.23 ± 0.32 a
    #: game; again on a machine 2.4 times as fast (1,200 games): +0.11 ± 0.18.
    samples: int = 40
    #: Worlds per decision of a seat playing a solo (``None``: ``samples``, times
    #: ``chance_factor`` against three chance players): its score counts three
    #: times. 120 against 40, only the solos played both ways
    #: (benchmarks/solo_ab.py, 300 deals × 4 against random, seed 211, 301 solos,
    #: benchmarks/results/solo_samples120_random_seed211.jsonl): +0.52 ± 0.54 a solo,
    #: +0.13 ± 0.13 a game (p = 0.33), not enough to show; off.
    solo_samples: int | None = None
    #: Against three chance players every card decision searches this many times
    #: ``samples`` worlds (with ``budget_ms`` as many as fit): their random cards make
    #: one playout of a world say little, and a chance table's worlds are not weighed,
    #: so they cost only their playouts. Judged by 400 worlds (benchmarks/solo_regret.py,
    #: each card priced on 400 other worlds), in 25 solos against random (267
    #: decisions) 40 worlds chose cards 0.135 ± 0.014 points worse than the judge's
    #: pick, 1.45 a solo; at 450 ms a decision with this factor 0.009 ± 0.007, 0.09 a
    #: solo; in the games it does not solo (``--games normal``, 188 decisions of 19
    #: games, 8 deals) 0.030 ± 0.005 and 0.008 ± 0.004. The bar's command: with it
    #: for the soloist only +4.40 ± 0.14 a game, +2.08 ± 0.11 without a solo; for
    #: every decision +4.33 ± 0.14, +2.32 ± 0.11 without a solo (its own solos, played
    #: as before, differ by their seeds), decisions p95 470 ms, max 582.
    chance_factor: int = 10
    #: The bid plays each candidate contract on this many times ``samples`` deals; with
    #: ``budget_ms`` the most that fit in the time. 4, not 1 (160 deals, a bid median
    #: 221 ms instead of 76 on a machine where benchmarks/solver.py gives 7.5 ms): the
    #: solo-or-not call is made on an estimate of the gain that is less noisy. Paired on
    #: the hands the two bids decide otherwise (benchmarks/bid_ab.py, 400 deals × 4
    #: seats each): +0.130 ± 0.058 and +0.081 ± 0.061 a game against random (seeds 21,
    #: 22; together +0.106 ± 0.042, p = 0.01), +0.113 ± 0.053 against the heuristic
    #: (seed 23, p = 0.03); logs in benchmarks/results/bid_factor4_*. 8 since the bid
    #: races its candidates (``race_sigmas``): the contracts still in question get up
    #: to 320 deals, in less time than 160 for every candidate took. 32 against 8 at
    #: 450 ms changed 27 of 1,600 bids against random, +0.007 ± 0.025 a game (seed 1401,
    #: benchmarks/results/bid_factor32_450ms_random_seed1401.jsonl).
    bid_factor: int = 8
    #: The bid simulates this many solos, those the heuristic's hand count likes best.
    #: All 7 of DDV, not 3, priced on the hands bid otherwise (benchmarks/bid_ab.py,
    #: logs in benchmarks/results/solo_candidates7_*): against random, 500 deals × 4
    #: seats, +0.186 ± 0.068 a game (196 hands, 64 of them queen and jack solos where 3
    #: played none, +3.7 a hand; seed 407) and at 450 ms a decision +0.107 ± 0.113 (200
    #: deals, 69 hands; seed 413); against the heuristic +0.040 ± 0.075 (250 deals, 53
    #: hands; seed 411). With the floor at −4 it was +0.015 ± 0.104 (seed 51, 200
    #: deals). The bid plays twice the contracts: at 450 ms its median is 442 ms, not
    #: 234 (30 hands against random), and the clock cuts its last worlds.
    solo_candidates: int = 7
    #: The bid races its candidates (``_race``): from ``RACE_FROM`` deals on, every
    #: ``RACE_EVERY``, a contract this many standard errors out of the running is
    #: simulated no further, so the deals go to the contracts still in question
    #: (Infinity: every candidate on every deal). At 450 ms against random
    #: (benchmarks/bid_time.py, 60 bids) the bid's median is 74 ms, not 445, and 58
    #: of the 60 bids are the same; priced on the hands bid otherwise
    #: (benchmarks/bid_ab.py, no clock, with ``bid_factor`` 8 against no race at 4):
    #: +0.022 ± 0.048 a game against random (300 deals, seed 431), +0.045 ± 0.042
    #: against the heuristic (250 deals, seed 435); both at 450 ms a decision, +0.131 ±
    #: 0.071 against random (200 deals, seed 437); logs in benchmarks/results/race_*.
    race_sigmas: float = 3.0
    #: Below this hand count (``heuristic.solo_value``, of the solo it likes best) no
    #: solo is simulated: the count only spares the bid the hands it cannot make one of.
    #: −6 instead of −4, priced on the hands the two bid otherwise (benchmarks/bid_ab.py,
    #: 500 deals × 4 seats): against random +0.194 ± 0.050 a game (100 hands, 64 of them
    #: meatless and 32 jack solos, +3.9 a hand; seed 401), against the heuristic +0.016
    #: ± 0.023 (37 hands; seed 405); lower still, nothing more (−100 against −6, seed
    #: 403: 8 hands, +0.001 ± 0.011). Logs in benchmarks/results/solo_floor*.
    solo_floor: float = -6.0
    #: Wall-clock budget per decision (``None``: only ``samples`` count, deterministic).
    budget_ms: float | None = None
    #: From this many tricks left the solver plays the worlds out exactly (taking every
    #: seat for a perfect player). 0 against random, paired at 450 ms (1,200 games):
    #: +0.06 ± 0.15 a game.
    solver_tricks: int = 2
    #: Expected gain (score points) an announcement must promise. 0 instead, paired at
    #: 450 ms against random (benchmarks/ai_ab.py, 1,200 games, then 40 worlds at every
    #: table): +0.03 ± 0.05 a game.
    announce_margin: float = 0.6
    #: Hold an announcement back while it is still allowed at the seat's next turn, and
    #: not only as a late reply (docs/rules.md §6): it is then decided on more of the
    #: game; at its deadline the lowest level due is said, keeping the higher ones open.
    #: Against announcing at once, paired at 40 worlds (benchmarks/ai_ab.py): +0.242 ±
    #: 0.098 a game against the heuristic (2,000 games, p = 0.014), +0.06 ± 0.15 against
    #: random (1,200). The hand count's Re of a soloist is not held back.
    announce_wait: bool = True
    #: The gain a soloist's Re must promise. Negative: the playouts' soloist plays worse
    #: than this one, so they underrate its chance (291 solos, the gain simulated at each
    #: chance for Re against the solo's outcome: announced from a simulated −2 on, the
    #: unannounced solos gain 0.63 a solo against random, 0.13 against the heuristic).
    solo_call_margin: float = -2.0
    #: The gain a soloist's no 90 … schwarz must promise. Below 0 for the same reason
    #: as its Re. −1 against ``announce_margin`` (benchmarks/solo_ab.py, seed 7, deals
    #: 100–279, 40 worlds, against random judged random): of 180 solos 12 went
    #: otherwise, 10 of them better (sign test p = 0.04), +0.23 ± 0.23 a solo, +0.06 ±
    #: 0.06 a game; −2.5 +0.08 ± 0.34 a solo (113). Against the heuristic (deals
    #: 100–179): none of 52 solos went otherwise.
    solo_raise_margin: float = -1.0
    #: ``announce_margin`` against three chance players (``chance_noise``). Priced on the
    #: games played (benchmarks/announce_margin.py: random heeds no call, so one game
    #: prices every margin), against 0.6: 0 gained +0.072 ± 0.026 a game (1,000 games,
    #: seed 1301) and +0.073 ± 0.032 (640, seed 1302); −0.5 +0.079 ± 0.032 and +0.084
    #: ± 0.039, −1 +0.052 ± 0.036, 0.3 +0.040 ± 0.018, 1 −0.113 ± 0.022 (seed 1301).
    chance_announce_margin: float = 0.0
    #: ``solo_raise_margin`` against three chance players, priced the same way: −2
    #: gained +0.045 ± 0.012 a game (seed 1301: 15 solos scored otherwise, all better)
    #: and +0.047 ± 0.015 (seed 1302: 10, all better); −3 +0.037 ± 0.051, −4 −0.056 ±
    #: 0.085 (seed 1302), 0 −0.033 ± 0.025 (seed 1301).
    chance_solo_raise_margin: float = -2.0
    #: Expected gain over a normal game a voluntary solo must promise. Negative: the
    #: playouts' soloist plays worse than this player, so the simulation underrates a
    #: solo (benchmarks/solo_calibration.py: hands the simulation puts 0 to 2 points
    #: below a normal game still gain when played, against random and heuristic tables).
    #: With the prior ε at the bid (``_noise``), paired, 400 games each (benchmarks/
    #: ai_ab.py): +0.19 ± 0.18 a game against random, +0.24 ± 0.21 against the heuristic.
    solo_margin: float = -2.0
    #: ``solo_margin`` against three chance players (``chance_noise``): even the
    #: playouts' random defenders leave a soloist less than real ones do. Priced on
    #: the hands it changes (benchmarks/solo_margin.py, 300 deals each, seeds 5, 6, 7):
    #: −3 gained +0.08 ± 0.04, +0.06 ± 0.06, +0.07 ± 0.05 a game; −4 +0.06 ± 0.08,
    #: +0.15 ± 0.08, +0.02 ± 0.07; −5 −0.02, +0.12, −0.09. Beyond −3 (seed 8): −4
    #: +0.02 ± 0.06, −5 −0.04 ± 0.08, −6 −0.19 ± 0.10. −4 since the bid races its
    #: candidates (``race_sigmas``), priced the same way (benchmarks/bid_ab.py
    #: --margins, 1,150 deals over seeds 443, 451, 457, 461; logs in benchmarks/
    #: results/race_margins_*): +0.081 ± 0.034 a game (p = 0.02; the three seeds after
    #: the one that found it +0.064 ± 0.038); −3.5 +0.060 ± 0.030 (three seeds), −4.5
    #: −0.10 ± 0.09 and −5 −0.14 ± 0.10 (seed 457). With the chance table's lower
    #: announcement margins, at 450 ms and on ``bid_factor`` 32's bids (seed 1401):
    #: −4.5 +0.010 ± 0.040, −3.5 −0.037 ± 0.043 against −4 at 8.
    chance_solo_margin: float = -4.0
    #: A compulsory solo still owed (tournament list) costs this much in a later game,
    #: where it may have to be played with any hand (Vorführen): a solo now that
    #: simulates up to this much worse than a normal game is still the better moment.
    owed_solo_cost: float = 2.0
    #: Weight worlds by how well they explain what the others said and played
    #: (inference). Against uniform worlds, at 450 ms a decision against the heuristic:
    #: +0.07 ± 0.09 a game over 5,300 paired games (docs/architecture.md), no loss.
    inference: bool = True
    #: With ``call_inference`` off: how much more likely each trump beyond the usual
    #: makes an announcer's world. Measured (benchmarks/ai_ab.py, 480 paired games
    #: against the heuristic): 2.0 lost 0.37 ± 0.19 a game to uniform worlds, the
    #: weights left too few worlds that count; 1.3 does no harm.
    inference_base: float = 1.3
    #: Weigh worlds by what the others said, replayed against the heuristic
    #: (``model.CallReplays``), with each seat's ε as for its cards: its healthy (the
    #: heuristic plays a solo with a strong hand and says marriage with both queens of
    #: clubs unless it holds nine trumps), its Re or Kontra and its silence (it
    #: announces at once with six trumps, two of them high). Off: only the announcers'
    #: trumps count, by ``inference_base``.
    call_inference: bool = True
    #: Weight worlds also by how well they explain the others' cards, under the
    #: heuristic's card play with a fitted share ε of random plays (``model``).
    card_inference: bool = True
    #: The prior ε of that model and its strength (in plays).
    model_noise: float = 0.5
    model_strength: float = 4.0
    #: Per seat, the ε its cards in the table's earlier games were judged to (``skill``;
    #: ``None``: not judged yet): the prior for that seat where it is above
    #: ``model_noise``, at the bid, in the first trick and as the prior of the fit. Only
    #: ever above: the playouts need about ε 0.7 for the heuristic's defence (judged
    #: 0.25) and beyond 1 for a random one's (judged 1) to give a simulated solo the
    #: card points a played one takes against them (docs/architecture.md), so the prior
    #: already rates every sensible player too well, and a player judged worse than it
    #: is simulated as worse.
    table_noise: tuple[float | None, ...] | None = None
    #: A seat the table judges to play at least this share of its cards at random is a
    #: chance player: its cards and words tell nothing of its hand, so nothing of it is
    #: replayed (half of a decision's time against a random table) and it plays at
    #: random in the playouts. Fitted, such a seat came to ε ≈ 0.8, and the worlds were
    #: weighed by how a random player happened to agree with the heuristic. 0.7, not
    #: 0.9: a table's judgement of a random player strays far below 1 (in 12 sessions of
    #: 25 deals the lowest of 48 ended at 0.76), so at 0.9 only 31% of a session's games
    #: against three random players were played as against chance players, at 0.7 82%
    #: (benchmarks/chance_judge.py, 250 deals, seed 1501); playing both where they differ
    #: (580 of 1,000 games, 450 ms), 0.7 gained +1.01 ± 0.27 a game there, +0.59 ± 0.16
    #: a game of all (log benchmarks/results/chance_noise0.7_450ms_random_seed1501.jsonl).
    #: Three easy players (judged about 0.45) it took for chance players in none of 800.
    chance_noise: float = 0.7
    #: Fit ε by the worlds' mean chance of all a seat's plays (``fit_noise_marginal``),
    #: not by the plays' mean agreement over the worlds.
    marginal_fit: bool = False
    #: Card inference deals this many times ``samples`` worlds and keeps ``samples``.
    oversample: int = 3
    #: With a clock, the worlds are weighed only if weighing ``samples`` of them takes
    #: at most this share of the budget (judged by the first); else they are uniform.
    #: Where time is short the playouts need it more: at 60 ms a decision against the
    #: heuristic, weighing 40 worlds left 20 for the playouts where uniform ones got 37,
    #: and lost 0.67 ± 0.20 a game to them; uniform there, +0.85 ± 0.21 a game against
    #: the code that always weighed (benchmarks/trees_ab.py, 1,000 paired games; the
    #: figures in docs/architecture.md). At 450 ms weighing takes 4–9% of the budget
    #: (every decision still weighs), at 60 ms 30–65%.
    weigh_share: float = 0.2
    #: The weights are flattened until at least this share of the worlds counts.
    least_share: float = 0.25
    #: Card inference deals its worlds in this many rounds; each round after the first
    #: deals a card more often to a seat whose earlier worlds explained its plays and
    #: words better with it (``_lean``), and weighs the world back by how much likelier
    #: a uniform deal is (importance sampling): more of the worlds explain the others.
    #: With 3 rounds, ``marginal_fit`` and ``least_share`` 0.1 the worlds know much more
    #: at about the same time (benchmarks/inference.py, heuristic tables, tricks 2/5/8:
    #: hidden cards placed right 47/54/63%, not 46/48/52%; the true parties 76/83/100%,
    #: not 61/71/88%), but against uniform worlds at 450 ms a decision against the
    #: heuristic they scored −0.12 ± 0.21 a game (1,024 paired games, benchmarks/results/
    #: inference_on_off_seed131.jsonl; stopped for futility at the first of three looks
    #: fixed in advance), no better than without them: off.
    lean_rounds: int = 1
    #: Metropolis swap moves per kept world (card inference, ``model.refine``), for at
    #: most this share of the budget once the worlds are dealt. 25 place more hidden
    #: cards right (59% at trick 8, not 52%), but against uniform worlds they gained
    #: +0.20 ± 0.13 a game (2,400 paired games against the heuristic, 450 ms a
    #: decision), no more than without them, at twice the decision time: off.
    refine_moves: int = 0
    refine_share: float = 0.5
    #: With both queens of clubs the bid also plays the marriage out: healthy (a silent
    #: marriage) or marriage is the simulation's choice, not the heuristic's rule, and a
    #: solo must beat that choice. Before, a solo only had to beat the silent marriage,
    #: which simulates 5.9 points a hand worse than a marriage against three chance
    #: players and 8.9 against the heuristic, so such hands went solo far too often.
    #: Priced on every hand with both ♣Q, each played as silent marriage, marriage and
    #: solo on the same seeds (benchmarks/marriage.py): against random +1.29 ± 0.28 a
    #: hand, +0.079 ± 0.017 a game (1,200 deals, 294 hands, seed 31); against the
    #: heuristic +4.63 ± 0.64 a hand, +0.266 ± 0.037 a game (800 deals, 184 hands, seed
    #: 32). The silent marriage's margin (−3 … +1) changed no bid: where it beats a
    #: marriage, a solo beats both.
    marriage_bids: bool = True
    #: With both queens of clubs, a hand the count likes is a solo whatever the
    #: simulation says of it against the marriage. Off, priced on the same hands
    #: (benchmarks/marriage.py, "without the count"): against the heuristic +0.91 ±
    #: 0.46 a hand (seed 32, 26 of 184 bids change) and +0.43 ± 0.38 (seed 33, 26 of
    #: 180), +0.62 ± 0.29 together; against random −0.04 ± 0.08 (seed 31, 7 of 294).
    count_with_marriage: bool = False
    #: Poverty (house rule, docs/rules.md §4) by simulation: whether to announce one
    #: (against healthy and the solos), which cards to put down, whether to take one
    #: and which cards to give back, each played out on deals consistent with the view
    #: (``poverty.py``), the exchange's other choices as the heuristic makes them. Off:
    #: the heuristic's rules (always announce it; put down the plain cards of most
    #: points; take it with seven trumps, two of them high; give back the lowest plain
    #: cards, shortest suits first).
    poverty_bids: bool = True
    #: How many standard errors (of the paired differences over the same deals) a
    #: poverty choice must play out better than the heuristic's to be made instead.
    exchange_sigmas: float = 2.0
    #: How much better than a poverty healthy must simulate for a seat that may
    #: announce one to say healthy (``inf``: always announce it, as the heuristic does).
    poverty_margin: float = 0.0
    #: A soloist also makes the Re the heuristic's hand count would make.
    soloist_calls: bool = True
    #: The bid's playouts' own soloist reads the world's hands (``_pick``): it leads a
    #: card no defender can take and takes a trick with the lowest card no later
    #: defender can take from it. It takes 7.6 card points more a solo against random
    #: defenders, 11.4 against the heuristic's (ε 0.7), on 150 hands the count plays as
    #: solos (benchmarks/soloist.py), and the simulation underrates such solos by 1.0
    #: points a game, not 2.6 (solo_calibration.py, 40 hands against random). Yet it
    #: bids no better (benchmarks/bid_ab.py, 400 deals): at the best margin B − A
    #: −0.048 ± 0.084 a game against random (seed 11) and +0.015 ± 0.059 against the
    #: heuristic (seed 12): off. Not in the card play's playouts either: a soloist
    #: that knows every card makes the lines that need that knowledge look good, and
    #: the strong soloist took 6.0 ± 2.9 card points less against the heuristic (40
    #: solos), 1.8 ± 3.0 less against random (80).
    soloist_reads: bool = False
    #: In the playouts, each other seat plays a random card with its fitted ε (card
    #: inference), so that a seat that plays like chance is simulated as one. Fitted
    #: over uncertain worlds, a seat that plays like the heuristic gets ε ≈ 0.35 at
    #: trick 7, a random one ≈ 0.8 (tests/ai/test_model.py). Paired, 400 games each
    #: (benchmarks/ai_ab.py): +0.30 ± 0.22 a game against random, +0.13 ± 0.30
    #: against the heuristic; neither significant, neither a loss.
    playout_noise: bool = True
    #: The bid values each contract with the better of announcing at once or not. With
    #: ``solo_call_margin``, paired, 400 games each (benchmarks/ai_ab.py, 40 worlds):
    #: +0.14 ± 0.11 a game against random, +0.12 ± 0.13 against the heuristic.
    bid_calls: bool = True
    #: Score points a card point of the own party is worth in ranking the cards (a
    #: soloist's three times): smooths the score's steps between close options.
    #: Paired (benchmarks/ai_ab.py): 0.03 against 0, +0.30 ± 0.15 a game in 320 games
    #: against the heuristic; 0.01 against 0 +0.21 ± 0.12 (240), 0.03 against 0.01
    #: +0.13 ± 0.10 (320) against random.
    card_weight: float = 0.03
    #: The others' random cards in the playouts of one world are the same draws for
    #: every card or poverty choice (per seat and trick: whether it plays at random, and
    #: which of its legal cards), so that two options are told apart by what they
    #: change, not by chance. Drawn in play order, the numbers already agree for most
    #: such choices (tests/ai/test_strong.py: 377 of 402). Paired at 40 worlds
    #: (benchmarks/ai_ab.py): −0.05 ± 0.16 a game against random (1,200 games, seed
    #: 207), −0.08 ± 0.22 against the heuristic (672, seed 208): off.
    paired_draws: bool = False
    name: str = "strong"
    _fallback: HeuristicStrategy = dataclasses.field(default_factory=HeuristicStrategy)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        if view.phase is Phase.BIDDING:
            return self._bid(view, rng)
        if view.phase is Phase.POVERTY and self.poverty_bids:
            return self._poverty(view, rng)
        if view.phase is not Phase.PLAY:
            return self._fallback.choose(view, rng)
        declare = self._fallback._declare(view)
        if declare is not None:
            return declare
        plays = [a for a in view.legal if isinstance(a, Play)]
        announces = [a for a in view.legal if isinstance(a, Announce)]
        if not plays:
            # Zwingen (docs/rules.md §9.4): the owed announcement comes first.
            return min(announces, key=lambda a: a.level)
        if len(plays) == 1 and not announces:
            return plays[0]
        # ``_call`` prices each announcement on the best card's worlds afterwards: the
        # playouts leave it its time.
        priced = len(announces) if view.own_party is not None else 0
        finals, results, weights = self._evaluate(view, plays, rng, priced)
        if not finals:
            return self._fallback.choose(view, rng)
        best, mean = self._best(view, plays, results, weights)
        call = self._call(view, best, announces, finals[best], weights, mean)
        return call if call is not None else best

    def _call(
        self,
        view: PlayerView,
        best: Play,
        announces: Sequence[Announce],
        finals: Sequence[GameState],
        weights: Sequence[float],
        base: float,
    ) -> Announce | None:
        """The announcement to make before playing ``best`` (``finals``: its worlds played
        out, ``base`` their mean score), if any."""
        call = self._announcement(view, announces, finals, weights, base)
        if call is not None and self.announce_wait:
            call = _due_now(view, best, call, announces)
        if call is None and self.soloist_calls and is_soloist(view):
            # As with the bid: the playouts' soloist plays worse than this one, so the
            # simulation underrates a solo; the hand count's Re stands. It is not put
            # off: the count is of the cards still in hand, fewer at each turn.
            count = self._fallback._announce(view)
            call = count if isinstance(count, Announce) else None
        return call

    # ------------------------------------------------------------------ play

    def _best(
        self,
        view: PlayerView,
        plays: Sequence[Play],
        results: dict[Play, list[GameResult]],
        weights: Sequence[float],
    ) -> tuple[Play, float]:
        """The card with the best mean score over the worlds, and that mean; close
        scores are told apart by the card points the seat's party takes."""
        seat = view.seat
        means = {p: _weighted(weights, [r.scores[seat] for r in rs]) for p, rs in results.items()}
        # The score moves in steps of 30 card points (docs/rules.md §8), so on 40
        # worlds two cards often score alike although one takes more points, which
        # on other worlds would reach the next step; each card point counts a little
        # (a soloist's three times, as its score does).
        weight = self.card_weight * (3 if is_soloist(view) else 1)
        ranked = {
            p: means[p] + weight * _weighted(weights, [_own_points(r, seat) for r in rs])
            for p, rs in results.items()
        }
        best = max(plays, key=lambda p: (ranked.get(p, -999.0), -p.card))
        return best, means[best]

    def _evaluate(
        self, view: PlayerView, plays: Sequence[Play], rng: random.Random, priced: int = 0
    ) -> tuple[dict[Play, list[GameState]], dict[Play, list[GameResult]], list[float]]:
        """Each option played out on the same sampled worlds: the final states, their
        scores, and each world's weight (``priced``: the announcements to be priced on
        every world afterwards, whose time the playouts leave)."""
        deadline = _deadline(self.budget_ms)
        out: dict[Play, list[GameState]] = {p: [] for p in plays}
        results: dict[Play, list[GameResult]] = {p: [] for p in plays}
        states, weights, noise = self._worlds(view, rng)
        start = time.perf_counter()
        scoring = 0.0  # seconds spent scoring the worlds' games
        for done, state in enumerate(states):
            # A world takes about as long as the ones before it: one that would end past
            # the deadline is not begun, so that the decision, not its last world's
            # start, keeps to the budget. Pricing ``priced`` calls on each world played
            # takes CALL_PRICE scores each (at trick 1, 400 worlds and five calls ran up to
            # 70 ms past a 450 ms budget before this reserve).
            if deadline is not None and done:
                reserve = priced * CALL_PRICE * scoring / (done * len(plays)) * (done + 1)
                if _past(deadline - reserve, start, done):
                    break
            seed = rng.random()
            for play in plays:
                after = apply(state, play)
                final = playout(
                    after, random.Random(seed), self.solver_tricks, noise, paired=self.paired_draws
                )
                out[play].append(final)
                began = time.perf_counter()
                results[play].append(score(final))
                scoring += time.perf_counter() - began
        return (
            {p: fs for p, fs in out.items() if fs},
            {p: rs for p, rs in results.items() if rs},
            weights,
        )

    def _worlds(
        self, view: PlayerView, rng: random.Random
    ) -> tuple[list[GameState], list[float], list[float] | None]:
        """The worlds to play out, each one's weight, and the others' ε in the playouts."""
        # With card inference, more worlds are dealt than played out (while a third of
        # the budget lasts): the ones that explain the others' cards best are kept. The
        # replays that weigh them count against that third, so that on a slow machine
        # fewer worlds are dealt, not fewer played out. Where weighing ``samples``
        # worlds would take more than ``weigh_share`` of the budget (a slow machine, a
        # decision that waited for a busy worker), the worlds are uniform: fewer weighed
        # worlds lost to more uniform ones (docs/architecture.md, "Inference from the
        # cards").
        minded = self._minded(view)
        weigh = bool(minded)
        infer = self._infers_cards(view) and bool(minded)
        cutoff = None if self.budget_ms is None else _deadline(self.budget_ms / 3)
        limit = None if self.budget_ms is None else self.budget_ms * self.weigh_share / 1000
        states: list[GameState] = []
        seen: list[list[Observed]] = []
        ratios: list[float] = []
        plan = steps(view)
        calls = CallReplays(view, plan, minded)
        dealer = Dealer(view)
        said: list[list[Observed]] | None = (
            [] if self.inference and self.call_inference and minded else None
        )
        samples = self._samples(view, minded)
        total = samples * (self.oversample if infer else 1)
        least = min(samples, LEAST_WORLDS)
        rounds = max(1, self.lean_rounds) if infer else 1
        lean: list[dict[Card, float]] | None = None
        began = time.perf_counter()
        # ``total`` falls to ``samples`` if the worlds turn out not to be worth weighing.
        for i in itertools.count():
            if i >= total or (i >= least and cutoff is not None and time.perf_counter() > cutoff):
                break
            if i and i * rounds // total != (i - 1) * rounds // total:
                # A new round: each card goes more often to the seats whose worlds so
                # far explained their own plays and words best with it.
                lean = self._lean(view, states, ratios, seen, said)
            dealt = dealer.deal(rng, lean)
            if dealt is None:
                break
            states.append(world(view, dealt[0]))
            ratios.append(dealt[1])
            if infer:
                seen.append(replay(view, states[-1], plan, minded))
            if said is not None:
                said.append(calls(states[-1]))
            if i == 0 and limit and (infer or said is not None):
                # The first world tells what weighing ``samples`` of them costs here.
                weigh = (time.perf_counter() - began) * samples <= limit
                if not weigh:
                    infer, said, seen = False, None, []
                    total, rounds = samples, 1
        # ε fitted once: it weighs the worlds and it plays in the playouts.
        fitted = self._fit(view, seen)
        if weigh:
            weights = self._weights(view, states, seen, fitted, calls, said, ratios)
        else:
            weights = [1.0] * len(states)
        noise = fitted if self.playout_noise else None
        if len(states) > samples:
            if not self.refine_moves:
                states, weights = resample(states, weights, samples, rng)
                return states, weights, noise
            pairs, counts = resample(list(zip(states, seen, strict=True)), weights, samples, rng)
            chains = [p for p, n in zip(pairs, counts, strict=True) for _ in range(round(n))]
            # The kept worlds lean towards the first deals; Metropolis swaps carry them
            # on towards the deals the model finds likely (``model.refine``).
            states, _ = refine(
                view,
                [c[0] for c in chains],
                [c[1] for c in chains],
                fitted,
                lambda s: self._prior(view, s, fitted, calls),
                rng,
                self.refine_moves * len(chains),
                None if self.budget_ms is None else _deadline(self.budget_ms * self.refine_share),
                minded,
            )
            weights = [1.0] * len(states)
        return states, weights, noise

    def _samples(self, view: PlayerView, minded: frozenset[int]) -> int:
        """How many worlds the seat's card play searches (``minded``: the seats
        ``_minded`` returns, none at a chance table)."""
        if self.solo_samples is not None and is_soloist(view):
            return self.solo_samples
        return self.samples * (1 if minded else self.chance_factor)

    def _lean(
        self,
        view: PlayerView,
        states: Sequence[GameState],
        ratios: Sequence[float],
        seen: Sequence[Sequence[Observed]],
        said: Sequence[Sequence[Observed]] | None,
    ) -> list[dict[Card, float]]:
        """Per other seat and card: how much better than average the worlds dealt so far
        explain the seat's own plays and words when it holds that card (a card it cannot
        hold, by how it played, leans towards 0)."""
        noise = self._fit(view, seen)
        out: list[dict[Card, float]] = [{}, {}, {}, {}]
        dealt = [math.exp(r) for r in ratios]
        for seat in range(4):
            if seat == view.seat or not states:
                continue
            logs = []
            for k in range(len(states)):
                log = ratios[k] + sum(log_play(o, noise) for o in seen[k] if o.seat == seat)
                if said is not None:
                    log += sum(log_play(o, noise) for o in said[k] if o.seat == seat)
                logs.append(log)
            top = max(logs)
            fits = [math.exp(lg - top) for lg in logs]
            mean = sum(fits) / sum(dealt)  # positive: the best world's fit is 1
            held: dict[Card, float] = {}
            count: dict[Card, float] = {}
            for k, state in enumerate(states):
                for card in set(state.hands[seat]):
                    held[card] = held.get(card, 0.0) + fits[k]
                    count[card] = count.get(card, 0.0) + dealt[k]
            for card, n in count.items():
                # Two pseudo-worlds at the average keep a rarely dealt card near 1.
                rate = (held[card] + 2 * mean) / (n + 2)
                out[seat][card] = min(20.0, max(0.05, rate / mean))
        return out

    def _minded(self, view: PlayerView) -> frozenset[int]:
        """The other seats whose play and words are worth replaying: not chance players."""
        known = self.table_noise or (None,) * 4
        chance = {
            s
            for s, judged in enumerate(known)
            if judged is not None and judged >= self.chance_noise
        }
        return frozenset(range(4)) - chance - {view.seat}

    def _chance_seats(self, view: PlayerView) -> list[bool]:
        """Per seat, whether it is a chance player (``_minded``'s complement, the seat
        itself excluded): it answers and gives back a poverty at random."""
        minded = self._minded(view)
        return [s not in minded and s != view.seat for s in range(4)]

    def _infers_cards(self, view: PlayerView) -> bool:
        return self.inference and self.card_inference and bool(view.tricks or view.trick)

    def _noise(self, view: PlayerView, seen: Sequence[Sequence[Observed]]) -> list[float] | None:
        """Per seat, the share of random cards it plays in the playouts (``None``: none)."""
        return self._fit(view, seen) if self.playout_noise else None

    def _fit(self, view: PlayerView, seen: Sequence[Sequence[Observed]]) -> list[float]:
        """Per seat, the model's ε: fitted to the plays ``seen``, the strong seat 0."""
        priors = self._priors(view)
        if not any(seen):
            # No card of theirs seen yet (the bid, the first trick), or no card inference
            # to fit ε by: the model's prior.
            return priors
        fit = fit_noise_marginal if self.marginal_fit else fit_noise
        fitted = fit(seen, view.seat, priors, self.model_strength)
        # A chance player is one (``chance_noise``): none of its plays were replayed.
        minded = self._minded(view)
        return [e if s in minded or s == view.seat else 1.0 for s, e in enumerate(fitted)]

    def _priors(self, view: PlayerView) -> list[float]:
        """Per seat, the model's prior ε: ``model_noise``, or what the table judged of the
        seat where that is worse, a chance player's 1 (the strong seat itself 0)."""
        known = self.table_noise or (None,) * 4
        minded = self._minded(view)
        out = []
        for s in range(4):
            judged = known[s]
            prior = self.model_noise if judged is None else max(self.model_noise, judged)
            if s == view.seat:
                prior = 0.0
            elif s not in minded:
                prior = 1.0
            out.append(prior)
        return out

    def _weights(
        self,
        view: PlayerView,
        states: Sequence[GameState],
        seen: Sequence[Sequence[Observed]],
        fitted: Sequence[float] | None = None,
        calls: CallReplays | None = None,
        said: Sequence[Sequence[Observed]] | None = None,
        ratios: Sequence[float] | None = None,
    ) -> list[float]:
        """How much each world counts: how well it explains the others' announcements
        and (``seen``: their plays replayed in it, under the ε ``fitted`` to them) cards,
        times how much likelier a uniform deal is than the leaning one that dealt it
        (``ratios``, logs), tempered so that enough worlds keep counting."""
        if not self.inference:
            return [1.0] * len(states)
        noise = fitted if fitted is not None else self._fit(view, seen)
        if said is not None and self.call_inference:
            weights = [chance(o, noise) for o in said]
        else:
            calls = CallReplays(view) if calls is None else calls
            weights = [self._prior(view, state, noise, calls) for state in states]
        if any(seen):
            weights = [w * chance(o, noise) for w, o in zip(weights, seen, strict=True)]
        if ratios is not None and any(ratios):
            top = max(ratios)
            weights = [w * math.exp(r - top) for w, r in zip(weights, ratios, strict=True)]
        return tempered(weights, self.least_share)

    def _prior(
        self,
        view: PlayerView,
        state: GameState,
        noise: Sequence[float],
        calls: CallReplays,
    ) -> float:
        """How well a world explains what the others said: their reservations and
        announcements, and where they stayed silent."""
        if self.call_inference:
            return chance(calls(state), noise)
        return likelihood(view, state, self.inference_base)

    def _announcement(
        self,
        view: PlayerView,
        announces: Sequence[Announce],
        finals: Sequence[GameState],
        weights: Sequence[float],
        base: float,
    ) -> Announce | None:
        """The announcement with the best expected gain over ``base`` (the mean score of
        the same worlds without it), if it beats the margin."""
        party = view.own_party
        if party is None or not announces or not finals:
            return None
        seat = view.seat
        soloist = is_soloist(view)
        # At a chance table the worlds are ten times as many (``chance_factor``) and
        # nobody answers a call: the estimate is sharper and the playouts' own seat,
        # worse than this one, is all that still underrates it.
        chance = not self._minded(view)
        usual = self.chance_announce_margin if chance else self.announce_margin
        raised = self.chance_solo_raise_margin if chance else self.solo_raise_margin
        best: tuple[float, Announce] | None = None
        for announce in announces:
            level = int(announce.level)
            called = [score(_with_call(f, party, level)).scores[seat] for f in finals]
            gain = _weighted(weights, called) - base
            margin = usual
            if soloist:
                margin = self.solo_call_margin if announce.level is Announcement.PARTY else raised
            if gain > margin and (best is None or gain > best[0]):
                best = (gain, announce)
        return best[1] if best else None

    # ------------------------------------------------------------------ poverty

    def _poverty(self, view: PlayerView, rng: random.Random) -> Action:
        """Which cards to put down as the poor player, take a poverty or not, which
        cards to give back: the heuristic's choice, unless another plays out better on
        the same deals by more than ``exchange_sigmas`` standard errors."""
        turn = [a for a in view.legal if isinstance(a, PassCards | PovertyReply | ReturnCards)]
        options: list[Action]
        legal = set(turn)
        if turn and isinstance(turn[0], PovertyReply):
            take = accepts_poverty(view.hand, view.rules)
            options = [PovertyReply(view.seat, take), PovertyReply(view.seat, not take)]
        elif turn and isinstance(turn[0], PassCards):
            passes = poverty.pass_options(view.hand, view.rules)
            options = [a for a in (PassCards(view.seat, c) for c in passes) if a in legal]
        elif turn:
            returns = poverty.return_options(view.hand, view.rules)
            options = [a for a in (ReturnCards(view.seat, c) for c in returns) if a in legal]
        else:
            options = []
        if len(options) < 2:
            return options[0] if options else self._fallback.choose(view, rng)
        values = self._exchange_values(view, options, rng)
        if not values or not values[options[0]]:
            return self._fallback.choose(view, rng)
        # The options often play out within a few tenths of a point of each other, less
        # than the deals' noise: only a clear gain over the heuristic's choice counts.
        usual = values[options[0]]
        best, best_gain = options[0], 0.0
        for option in options[1:]:
            gains = [v - u for v, u in zip(values[option], usual, strict=True)]
            mean = statistics.fmean(gains)
            error = statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0.0
            if mean > self.exchange_sigmas * error and mean > best_gain:
                best, best_gain = option, mean
        return best

    def _exchange_values(
        self, view: PlayerView, options: Sequence[Action], rng: random.Random
    ) -> dict[Action, list[float]] | None:
        """Each option's score on each of the same deals of the poverty under way,
        played to the end (a poverty nobody takes is dealt again and counts 0);
        ``None``: no deal consistent with the view."""
        deadline = _deadline(self.budget_ms)
        start = time.perf_counter()
        chance = self._chance_seats(view)
        noise = self._noise(view, ())
        values: dict[Action, list[float]] = {o: [] for o in options}
        played = 0
        for _ in range(self.bid_factor * self.samples):
            state = poverty.world(view, rng)
            if state is None:
                break
            seed = rng.random()
            for option in options:
                after = poverty.exchange(apply(state, option), random.Random(seed), chance)
                value = 0.0
                if not poverty.redealt(after):
                    final = playout(
                        after,
                        random.Random(seed),
                        self.solver_tricks,
                        noise,
                        paired=self.paired_draws,
                    )
                    value = float(score(final).scores[view.seat])
                values[option].append(value)
            played += 1
            if deadline is not None and played >= 4 and _past(deadline, start, played):
                break
        return values if played else None

    # ------------------------------------------------------------------ reservations

    def _bid(self, view: PlayerView, rng: random.Random) -> Action:
        """A solo when it simulates better than the game without one or the hand count
        likes it (the simulation picks which solo); else healthy, a marriage or poverty
        (with both queens of clubs, healthy or marriage as simulated)."""
        legal = {a.reservation: a for a in view.legal if isinstance(a, Bid)}
        solos = [r for r in legal if r.is_solo]
        if not solos or Reservation.THROW in legal:
            return self._fallback.choose(view, rng)
        forced = Reservation.HEALTHY not in legal
        # Without a solo: what the heuristic makes of the hand once solos are ruled out
        # (healthy, a marriage, poverty). The solos are the simulation's to choose.
        unsolo = tuple(a for a in view.legal if not (isinstance(a, Bid) and a.reservation.is_solo))
        fallback = self._fallback.choose(dataclasses.replace(view, legal=unsolo), rng)
        # Simulate only the solos the hand is at all fit for (the heuristic's count).
        fit = sorted(solos, key=lambda r: -solo_value(view.hand, Contract(r.value), view.rules))
        fit = fit[: self.solo_candidates]
        count = solo_value(view.hand, Contract(fit[0].value), view.rules)
        # Both queens of clubs: healthy is a silent marriage, the other choice a
        # marriage (docs/rules.md §4); the simulation weighs the two as well.
        marriage = self.marriage_bids and not forced and Reservation.MARRIAGE in legal
        # Poverty (a house rule): announced or not as simulated, too.
        poor = self.poverty_bids and not forced and Reservation.POVERTY in legal
        if not forced and count < self.solo_floor:
            if not (marriage or poor):
                return fallback
            fit = []
        # The race may stop weighing the solos against the game without one once the
        # best is sure to fall short of the margin (or sure to pass it), but not where a
        # marriage or poverty may be that game; where the count takes a solo anyway,
        # only which solo is in question.
        race = None if forced or marriage or poor else self._solo_margin(view)
        if race is not None and count > 0:
            race = -math.inf
        best, gain, plain = self._solo_gain(view, fit, forced, rng, marriage, poor, margin=race)
        if plain is not None:
            fallback = legal[plain]
            if not self.count_with_marriage:
                # The count weighs a solo against a normal game; against a marriage,
                # which the simulation values well, only the simulation counts.
                count = min(count, 0.0)
        if best is not None and (forced or self._takes_solo(view, gain, count)):
            return legal[best]
        return fallback

    def _solo_gain(
        self,
        view: PlayerView,
        fit: Sequence[Reservation],
        forced: bool,
        rng: random.Random,
        marriage: bool = False,
        poor: bool = False,
        margin: float | None = None,
    ) -> tuple[Reservation | None, float, Reservation | None]:
        """The solo of ``fit`` that simulates best (``None``: no solo to weigh), by how
        many score points a deal it simulates better than the game without a solo
        (``forced``: no such game, 0), and which that game is: with ``marriage``,
        healthy (a silent marriage) or a marriage; with ``poor``, healthy or poverty,
        whichever simulates better; else ``None`` (the heuristic's). ``margin``: the
        gain a solo needs, which lets the bid's race settle solo or not early."""
        candidates: list[Reservation | None] = list(fit)
        if not forced:
            candidates.append(None)
        if marriage:
            candidates.append(Reservation.MARRIAGE)
        if poor:
            candidates.append(Reservation.POVERTY)
        totals = self._bid_values(view, candidates, rng, margin)
        choice: Reservation | None = None
        base = totals.get(None, 0.0)
        if marriage:
            # A silent marriage is a solo in disguise, which the playouts underrate; but
            # not a compulsory one (docs/rules.md §4), so an owed solo does not count.
            margin = self.solo_margin if self._minded(view) else self.chance_solo_margin
            silent = totals[None] - totals[Reservation.MARRIAGE] > margin
            choice = Reservation.HEALTHY if silent else Reservation.MARRIAGE
            base = totals[None if silent else Reservation.MARRIAGE]
        if poor:
            if totals[Reservation.POVERTY] + self.poverty_margin > base:
                choice, base = Reservation.POVERTY, totals[Reservation.POVERTY]
            elif choice is None:
                choice = Reservation.HEALTHY
        if not fit:
            return None, 0.0, choice
        best = max(fit, key=lambda r: totals[r])
        return best, 0.0 if forced else totals[best] - base, choice

    def _bid_values(
        self,
        view: PlayerView,
        candidates: Sequence[Reservation | None],
        rng: random.Random,
        margin: float | None = None,
    ) -> dict[Reservation | None, float]:
        """Each candidate's mean score over the same simulated deals (``None``: healthy);
        a candidate the race drops (``_race``) keeps the mean it was dropped with."""
        # The same deals for every candidate, dealt and played until the budget ends.
        deadline = _deadline(self.budget_ms)
        start = time.perf_counter()
        # Per candidate and deal: its score without an announcement and with one.
        plain: dict[Reservation | None, list[float]] = {c: [] for c in candidates}
        called: dict[Reservation | None, list[float]] = {c: [] for c in candidates}
        active = list(candidates)
        for played in range(1, max(LEAST_WORLDS, self.bid_factor * self.samples) + 1):
            hands = self._deal_rest(view, rng)
            for candidate in active:
                contract = None if candidate is None else Contract(candidate.value)
                without, with_call = self._simulate(view, hands, contract, rng)
                plain[candidate].append(without)
                called[candidate].append(with_call)
            if played >= RACE_FROM and played % RACE_EVERY == 0:
                values = {c: self._bid_column(plain[c], called[c]) for c in active}
                active = self._race(values, margin)
                if len(active) < 2:
                    break  # nothing left to tell apart
            if deadline is not None and played >= 4 and _past(deadline, start, played):
                break
        return {c: statistics.fmean(self._bid_column(plain[c], called[c])) for c in candidates}

    def _bid_column(self, plain: list[float], called: list[float]) -> list[float]:
        """A contract's scores on its deals as the bid values it: with ``bid_calls``, the
        better of announcing Re (Kontra) at once and never announcing, over all deals."""
        # Re adds 2 to the game value (docs/rules.md §8), which the soloist scores three
        # times on a high chance to win, a normal game once on a lower one. (A
        # marriage's Re waits for its partner, found in the first tricks.)
        return called if self.bid_calls and sum(called) > sum(plain) else plain

    def _race(
        self, values: dict[Reservation | None, list[float]], margin: float | None
    ) -> list[Reservation | None]:
        """The candidates still worth simulating (successive elimination on the paired
        deals): a solo that simulates worse than the best solo by more than
        ``race_sigmas`` standard errors is dropped; with ``margin`` (the gain a solo
        needs over the game without one, ``None`` in it), all solos once the best is
        that sure to fall short of it, or that game once the best is that sure to pass."""
        z = self.race_sigmas
        solos = [c for c in values if c is not None and c.is_solo]
        if not solos or math.isinf(z):
            return list(values)
        best = max(solos, key=lambda c: statistics.fmean(values[c]))
        drop: set[Reservation | None] = {
            c for c in solos if c is not best and _surely_below(values[c], values[best], z)
        }
        if margin is not None and None in values:
            if _surely_below(values[best], values[None], z, margin):
                drop.update(solos)
            elif _surely_below(values[None], values[best], z, -margin):
                drop.add(None)
        return [c for c in values if c not in drop]

    def _solo_margin(self, view: PlayerView) -> float:
        """How much worse than a normal game a voluntary solo may simulate and still be
        played: ``solo_margin``, ``chance_solo_margin`` against three chance players."""
        margin = self.solo_margin if self._minded(view) else self.chance_solo_margin
        if view.rules.compulsory_solos and view.solo_owed[view.seat]:
            margin -= self.owed_solo_cost  # docs/rules.md §5: the best moment is a good hand
        return margin

    def _takes_solo(self, view: PlayerView, gain: float, count: float) -> bool:
        """A voluntary solo: simulated at most ``_solo_margin`` worse than a normal game
        (``gain``), or liked by the hand count (``count`` above 0)."""
        return takes_solo(gain, count, self._solo_margin(view))

    def _deal_rest(self, view: PlayerView, rng: random.Random) -> list[list[Card]]:
        cards = unseen_cards(view)
        rng.shuffle(cards)
        hands: list[list[Card]] = []
        it = iter(cards)
        for seat in range(4):
            if seat == view.seat:
                hands.append(list(view.hand))
            else:
                hands.append([next(it) for _ in range(len(view.hand))])
        return hands

    def _simulate(
        self,
        view: PlayerView,
        hands: Sequence[Sequence[Card]],
        contract: Contract | None,
        rng: random.Random,
    ) -> tuple[float, float]:
        """The seat's score on one deal with ``contract`` (``None``: a normal game):
        without an announcement, and with its party's Re or Kontra."""
        seat = view.seat
        final = self._play_deal(view, hands, contract, rng)
        if poverty.redealt(final):
            return 0.0, 0.0  # nobody took the poverty: the cards are dealt again
        plain = float(score(final).scores[seat])
        party = final.party(seat)
        if party is None:
            # A Ramsch after a poverty nobody took (docs/rules.md §9.3): no parties, and
            # no announcements either.
            return plain, plain
        with_call = score(_with_call(final, party, Announcement.PARTY)).scores[seat]
        return plain, float(with_call)

    def _play_deal(
        self,
        view: PlayerView,
        hands: Sequence[Sequence[Card]],
        contract: Contract | None,
        rng: random.Random,
    ) -> GameState:
        """One deal with ``contract`` (``None``: a normal game) played out as the bid
        simulates it: the others with the prior ε (no card of theirs seen yet)."""
        rules = view.rules
        seat = view.seat
        setup = GameSetup(
            rules=rules, dealer=view.dealer, hands=tuple(tuple(sorted(h)) for h in hands)
        )
        left = (view.dealer + 1) % 4
        noise = self._noise(view, ())
        if contract is Contract.POVERTY:
            # The exchange as the heuristic makes it, a chance player answering at random.
            chance = self._chance_seats(view)
            state = poverty.bid_poverty(setup, seat)
            state = poverty.exchange(state, random.Random(rng.random()), chance)
            if poverty.redealt(state):
                return state
            return playout(state, random.Random(rng.random()), self.solver_tricks, noise)
        if contract is Contract.MARRIAGE:
            # The partner: the first other seat to win a trick that counts (docs/rules.md §4).
            order = order_for(rules, Contract.NORMAL)
            parties = Parties(Contract.MARRIAGE, seat, order=order)
            leader = left
        elif contract is not None:
            order = order_for(rules, contract)
            re = tuple(s == seat for s in range(4))
            parties = Parties(contract, seat, None, re, False, order, True)
            leader = seat if rules.soloist_leads else left
        else:
            queen = team_card(rules)
            holders = {s for s in range(4) if queen in hands[s]}
            re = tuple(s in holders for s in range(4))
            order = order_for(rules, Contract.NORMAL)
            # One seat with both queens that says healthy plays a silent marriage.
            kind = Contract.NORMAL if len(holders) == 2 else Contract.SILENT_MARRIAGE
            declarer = None if len(holders) == 2 else min(holders)
            parties = Parties(kind, declarer, None, re, False, order, True)
            leader = left
        state = dataclasses.replace(
            GameState.new(setup),
            phase=Phase.PLAY,
            parties=parties,
            leader=leader,
            to_act=leader,
        )
        return playout(
            state,
            random.Random(rng.random()),
            self.solver_tricks,
            noise,
            seat if self.soloist_reads else None,
        )


def takes_solo(gain: float, count: float, margin: float) -> bool:
    """A voluntary solo is played if it simulates better than a normal game by more
    than ``margin`` (``gain``) or the hand count likes it (``count`` above 0)."""
    # The hand count likes a solo: the playouts' soloist plays much worse than the
    # strong AI does, so the simulation underrates solos (benchmarks/
    # solo_calibration.py, 40 such hands against the heuristic: simulated 4.1 points a
    # game worse than a normal game, played 0.5 ± 1.7 better). The count decides that,
    # the simulation which solo.
    return gain > margin or count > 0


#: What pricing a call on one world costs, in plain scores of its game: the calls
#: replaced, then scored (21 µs against 15 µs on this machine).
CALL_PRICE = 1.5


def _deadline(budget_ms: float | None) -> float | None:
    """When a decision with this budget must be done (``None``: no clock, only samples)."""
    return None if budget_ms is None else time.perf_counter() + budget_ms / 1000


def _past(deadline: float, start: float, done: int) -> bool:
    """Whether one more step, taking as long as the ``done`` steps since ``start`` took
    on average, would end past ``deadline``."""
    now = time.perf_counter()
    return now + (now - start) / done > deadline


def _own_points(result: GameResult, seat: int) -> int:
    """The card points the seat's party took."""
    return result.re_points if seat in result.re else result.kontra_points


def _due_now(
    view: PlayerView, play: Play, call: Announce, announces: Sequence[Announce]
) -> Announce | None:
    """Of ``call`` and the levels below it, the lowest one whose deadline is this card
    (docs/rules.md §6): said now, it keeps the higher ones open for the next turn.
    ``None`` if all of them are still allowed at the seat's next turn."""
    hands = deal_unseen(view, random.Random(0))
    if hands is None:
        return call
    # The deadlines count the seat's own cards, public in every world: one world shows
    # what is still allowed when the seat's turn comes again, after ``play``.
    state = apply(world(view, hands), play)
    while not state.is_finished and (other := state.to_act) != view.seat:
        assert other is not None
        state = apply(state, legal_actions(state, other)[0])
    later: set[Action] = set()
    party = view.own_party
    if not state.is_finished and party is not None:
        # A late reply would be allowed, but it bars the party's further words (§6).
        later = {
            a
            for a in legal_actions(state, view.seat)
            if isinstance(a, Announce) and not apply(state, a).calls.barred(party)
        }
    for announce in sorted(announces, key=lambda a: a.level):
        if announce.level <= call.level and announce not in later:
            return announce
    return None


def _with_call(state: GameState, party: Party, level: int) -> GameState:
    calls = state.calls
    if party is Party.RE:
        new = dataclasses.replace(calls, re_level=max(calls.re_level, level))
    else:
        new = dataclasses.replace(calls, kontra_level=max(calls.kontra_level, level))
    return dataclasses.replace(state, calls=new)


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error (0 for fewer than two values)."""
    if not values:
        return 0.0, 0.0
    mean = statistics.fmean(values)
    se = statistics.stdev(values, mean) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, se


def _surely_below(a: Sequence[float], b: Sequence[float], z: float, by: float = 0.0) -> bool:
    """Whether ``a`` minus ``b`` on the same deals lies below ``by`` by more than ``z``
    standard errors of their differences."""
    mean, se = mean_se([x - y for x, y in zip(a, b, strict=True)])
    return mean + z * se < by


def _weighted(weights: Sequence[float], values: Sequence[float]) -> float:
    """The weighted mean of ``values`` (each world's weight with its value)."""
    total = sum(weights[: len(values)])
    if not values:
        return 0.0
    if total <= 0:
        return statistics.fmean(values)
    return sum(w * v for w, v in zip(weights, values, strict=False)) / total


def likelihood(view: PlayerView, state: GameState, base: float = 1.3) -> float:
    """How well a world explains the others' announcements: a seat that announced is
    likelier to hold many and high trumps (the habit of the heuristic, which announces
    with six trumps and two of the top ones)."""
    weight = 1.0
    order = state.parties.order
    top = set(order.trumps[:6])
    for made in view.announcements:
        if made.seat == view.seat or made.implied:
            continue
        cards = state.setup.hands[made.seat]
        trumps = sum(1 for c in cards if order.is_trump(c))
        high = sum(1 for c in cards if c in top)
        # Each trump above five and each high trump above one multiplies the weight.
        weight *= base ** (max(-3, min(3, trumps - 5)) + max(-2, min(2, high - 1)))
    return weight


# ---------------------------------------------------------------------- playouts


def playout(
    state: GameState,
    rng: random.Random,
    solver_tricks: int = 3,
    noise: Sequence[float] | None = None,
    reader: int | None = None,
    paired: bool = False,
) -> GameState:
    """Play a full-information world to its end: a fast policy, then the exact solver;
    ``noise``: per seat, the share of cards it plays at random before the solver;
    ``reader``: a seat that, playing alone, reads the world's hands (``_pick``);
    ``paired``: a seat's random card at a trick comes from ``rng``'s draws for that seat
    and trick (``Draws``), the same whatever was played before."""
    draws = Draws(rng, state.rules.tricks, paired and noise is not None and any(noise))
    fast = _only_cards(state)
    if fast:
        state = _play_fast(state, draws, solver_tricks, noise, reader)
    solver: Callable[[GameState], Card] | None = None
    while state.phase is not Phase.FINISHED:
        if not fast and _only_cards(state):
            # A marriage just found its partner: plain card play from here.
            fast = True
            state = _play_fast(state, draws, solver_tricks, noise, reader)
            continue
        seat = state.to_act
        assert seat is not None
        cards = legal_cards(state)
        if not cards:
            owed = [a for a in legal_actions(state, seat) if isinstance(a, Announce)]
            state = apply(state, min(owed, key=lambda a: a.level))
            continue
        left = state.rules.tricks - len(state.tricks)
        if solver is None and left <= solver_tricks and state.parties.re is not None:
            solver = _solver_for(state)
        if solver is not None:
            card = cards[0] if len(cards) == 1 else solver(state)
        else:
            chance = noise[seat] if noise is not None else 0.0
            drawn = draws.card(seat, len(state.tricks), chance, cards) if chance else None
            card = greedy(state, seat, cards, reader) if drawn is None else drawn
        state = apply(state, Play(seat, card))
    return state


class Draws:
    """The random numbers of a playout's random cards. Unpaired: drawn in the order the
    cards are played. Paired: two numbers per seat and trick, drawn up front, so that a
    seat plays the same random card at a trick wherever the game took the same course
    there, whichever option the playout began with (common random numbers)."""

    def __init__(self, rng: random.Random, tricks: int, paired: bool) -> None:
        self._rng = rng
        self._tricks = tricks
        self._fixed = [rng.random() for _ in range(8 * tricks)] if paired else None

    def card(self, seat: int, trick: int, chance: float, cards: Sequence[Card]) -> Card | None:
        """The card ``seat`` plays at random at complete trick number ``trick`` with
        probability ``chance``; ``None``: it plays by the policy there."""
        if self._fixed is None:
            return self._rng.choice(cards) if self._rng.random() < chance else None
        at = 2 * (seat * self._tricks + trick)
        if self._fixed[at] >= chance:
            return None
        # Each legal card alike, in the engine's order of them (the hand's).
        return cards[int(self._fixed[at + 1] * len(cards))]


def _only_cards(state: GameState) -> bool:
    """Whether what is left to do is playing cards by the plain rules: the parties are
    known and no owed announcement or declared card (docs/rules.md §9.4) can come."""
    parties = state.parties
    return (
        state.phase is Phase.PLAY
        and parties.re is not None
        and not (parties.contract is Contract.MARRIAGE and not parties.open)
        and not state.calls.declared
        and state.setup.rules.compulsory_announcement is CompulsoryAnnouncement.OFF
    )


def _play_fast(
    state: GameState,
    draws: Draws,
    solver_tricks: int,
    noise: Sequence[float] | None,
    reader: int | None,
) -> GameState:
    """``playout``'s fast policy until ``solver_tricks`` tricks are left, on plain lists
    rather than through ``apply`` (a third of a playout's time): the same cards, the same
    random draws, the same state at the end."""
    rules = state.setup.rules
    parties = state.parties
    order, re = parties.order, parties.re
    cls = order.suit_class
    total = rules.tricks
    second = (rules.dullen.second_wins(False), rules.dullen.second_wins(True))
    hands = [list(h) for h in state.hands]
    trick: list[Card] = list(state.trick)
    leader = state.leader
    tricks = list(state.tricks)
    led = {cls[t.cards[0]] for t in tricks}
    plays: list[Action] = []
    seat = state.to_act
    assert seat is not None
    while total - len(tricks) > solver_tricks:
        hand = hands[seat]
        # Follow suit (docs/rules.md §3), each card once, in hand order as legal_cards.
        follow = [c for c in hand if cls[c] == cls[trick[0]]] if trick else hand
        cards = tuple(dict.fromkeys(follow or hand))
        last = len(tricks) + 1 == total
        chance = noise[seat] if noise is not None else 0.0
        drawn = draws.card(seat, len(tricks), chance, cards) if chance else None
        if drawn is not None:
            card = drawn
        elif len(cards) == 1:
            card = cards[0]
        else:
            card = _pick(order, re, hands, trick, leader, led, second[last], seat, cards, reader)
        hand.remove(card)
        trick.append(card)
        plays.append(PLAYS[seat][card])
        if len(trick) < 4:
            seat = (seat + 1) % 4
            continue
        done = tuple(trick)
        winner = trick_winner(done, leader, order, second[last])
        tricks.append(Trick(leader, done, winner, sum(CARD_POINTS[c] for c in done)))
        led.add(cls[done[0]])
        leader = seat = winner
        trick = []
    if not plays:
        return state
    over = len(tricks) == total
    return GameState(
        state.setup,
        Phase.FINISHED if over else Phase.PLAY,
        state.bids,
        parties,
        state.poverty,
        tuple(tuple(h) for h in hands),
        tuple(trick),
        leader,
        tuple(tricks),
        state.calls,
        None if over else seat,
        state.actions + tuple(plays),
    )


def _solver_for(state: GameState) -> Callable[[GameState], Card]:
    """A move picker that plays the exact solution from here (one solver, shared table)."""
    rules = state.rules
    tables = Tables.of(
        state.parties.order, (rules.dullen.second_wins(False), rules.dullen.second_wins(True))
    )
    re = state.parties.re
    assert re is not None
    solver = Solver(tables, re, rules.tricks - len(state.tricks))

    def pick(now: GameState) -> Card:
        hands = [mask_of(h) for h in now.hands]
        # Cards of the trick in progress are physical cards no longer in any hand.
        trick = []
        for card in now.trick:
            bit = card * 2
            trick.append(bit + 1 if any(h >> bit & 1 for h in hands) else bit)
        left = rules.tricks - len(now.tricks)
        move, _ = solver.best_move(hands, now.leader, trick, left)
        return Card(move >> 1)

    return pick


def greedy(state: GameState, seat: int, cards: Sequence[Card], reader: int | None = None) -> Card:
    """A cheap policy: win what is worth winning, feed the partner, keep high cards
    otherwise. It knows the parties of the world, and of the cards only which are still
    out (as a real player would), except that a soloist knows where the trumps are and,
    if it is ``reader``, where every card is."""
    rules = state.rules
    order = state.parties.order
    led = {order.suit_class[t.cards[0]] for t in state.tricks}
    second = rules.dullen.second_wins(len(state.tricks) + 1 == rules.tricks)
    re = state.parties.re
    return _pick(
        order, re, state.hands, state.trick, state.leader, led, second, seat, cards, reader
    )


def _pick(
    order: CardOrder,
    re: Sequence[bool] | None,
    hands: Sequence[Sequence[Card]],
    trick: Sequence[Card],
    leader: int,
    led: set[int],
    second: bool,
    seat: int,
    cards: Sequence[Card],
    reader: int | None,
) -> Card:
    """``greedy`` on plain values: ``led`` the suit classes led in the complete tricks,
    ``second`` whether a second ♥10 beats the first in this trick, ``reader`` a seat
    that reads the others' hands when it plays alone."""
    cls, power = order.suit_class, order.power
    # A reading soloist (``StrongStrategy.soloist_reads``) stands in for the strong
    # AI's, which plays better than the count of the cards still out lets the policy
    # play: a simulated solo comes nearer to a played one (benchmarks/soloist.py).
    reading = seat == reader and re is not None and sum(re) == 1 and re[seat]
    if not trick:
        sure = _sure_lead(order, hands, second, seat, cards) if reading else None
        return sure if sure is not None else _lead(order, re, hands, led, seat, cards)
    winner = trick_winner(tuple(trick), leader, order, second)
    best = trick[(winner - leader) % 4]
    later = [(leader + i) % 4 for i in range(len(trick) + 1, 4)]
    points = sum(CARD_POINTS[c] for c in trick)
    out = [c for s in range(4) if s != seat for c in hands[s]]
    # A later seat could play any card still out: one of the led suit if some are out.
    suit = cls[trick[0]]
    could = [c for c in out if cls[c] == suit] or out

    def holds(top: Card, owner: int) -> bool:
        """No later opponent of ``owner`` could take the trick from ``top``."""
        if re is not None and all(re[s] == re[owner] for s in later):
            return True
        if reading:
            return not any(_takes(hands[s], top, suit, cls, power, second) for s in later)
        return not later or not any(_beats(c, top, cls, power, second) for c in could)

    if re is not None and winner != seat and re[winner] == re[seat] and holds(best, winner):
        # Schmieren: the partner's trick is safe, give it points.
        return max(cards, key=lambda c: (CARD_POINTS[c], -(cls[c] == TRUMP), -power[c]))
    winning = [c for c in cards if _beats(c, best, cls, power, second)]
    if winning:
        safe = [c for c in winning if holds(c, seat)]
        if safe:
            return min(safe, key=lambda c: (power[c], CARD_POINTS[c]))
        if points >= 10:
            return max(winning, key=lambda c: power[c])
    return min(cards, key=lambda c: (CARD_POINTS[c], cls[c] == TRUMP, power[c]))


def _takes(
    hand: Sequence[Card],
    top: Card,
    suit: int,
    cls: Sequence[int],
    power: Sequence[int],
    second: bool,
) -> bool:
    """Whether ``hand`` holds a card it may play to a trick of ``suit`` (it must follow,
    docs/rules.md §3) that takes the trick from ``top``."""
    follow = [c for c in hand if cls[c] == suit]
    return any(_beats(c, top, cls, power, second) for c in follow or hand)


def _sure_lead(
    order: CardOrder,
    hands: Sequence[Sequence[Card]],
    second: bool,
    seat: int,
    cards: Sequence[Card],
) -> Card | None:
    """A soloist's lead no defender can take: while they hold trumps, the lowest such
    trump (pulling theirs), else the plain card of most points; ``None``: there is none."""
    cls, power = order.suit_class, order.power
    others = [hands[(seat + i) % 4] for i in (1, 2, 3)]
    sure = [c for c in cards if not any(_takes(h, c, cls[c], cls, power, second) for h in others)]
    if not sure:
        return None
    trumps = [c for c in sure if cls[c] == TRUMP]
    if trumps and any(cls[c] == TRUMP for h in others for c in h):
        return min(trumps, key=lambda c: power[c])
    plain = [c for c in sure if cls[c] != TRUMP]
    if plain:
        return max(plain, key=lambda c: (CARD_POINTS[c], power[c]))
    return min(sure, key=lambda c: power[c])


def _beats(card: Card, best: Card, cls: Sequence[int], power: Sequence[int], second: bool) -> bool:
    """Whether ``card`` played now takes the trick from ``best`` (docs/rules.md §3)."""
    if cls[card] == TRUMP:
        return (
            cls[best] != TRUMP or power[card] > power[best] or (second and card == best == Card.H10)
        )
    return cls[card] == cls[best] and power[card] > power[best]


def _lead(
    order: CardOrder,
    re: Sequence[bool] | None,
    hands: Sequence[Sequence[Card]],
    led: set[int],
    seat: int,
    cards: Sequence[Card],
) -> Card:
    cls, power = order.suit_class, order.power
    trumps = [c for c in cards if cls[c] == TRUMP]
    if re is not None and trumps and sum(re) == 1 and re[seat]:
        out_trumps = [c for s in range(4) if s != seat for c in hands[s] if cls[c] == TRUMP]
        if out_trumps:
            # A soloist pulls the trumps: from the top while it holds the best one out,
            # else with its smallest trump, keeping the high ones to win later.
            top = max(trumps, key=lambda c: power[c])
            if power[top] > max(power[c] for c in out_trumps):
                return top
            return min(trumps, key=lambda c: (CARD_POINTS[c] >= 10, power[c]))
    fresh = [c for c in cards if cls[c] != TRUMP and cls[c] not in led]
    if fresh:
        # The highest card left of a suit not led yet wins (as far as this seat knows).
        high: dict[int, int] = {}
        for s in range(4):
            if s != seat:
                for x in hands[s]:
                    if power[x] > high.get(cls[x], -1):
                        high[cls[x]] = power[x]
        for c in sorted(fresh, key=lambda c: -power[c]):
            if power[c] >= high.get(cls[c], -1):
                return c
    plain = [c for c in cards if cls[c] != TRUMP]
    if plain:
        return min(plain, key=lambda c: (CARD_POINTS[c], power[c]))
    return min(trumps, key=lambda c: (CARD_POINTS[c] >= 10, power[c]))
