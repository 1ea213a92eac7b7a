"""The bot's metrics, in Prometheus' text format at ``/metrics`` (prometheus-client).

Counters only ever grow; Prometheus turns them into rates (``rate(…[5m])``: games
per second, AI decisions per second). Each bot process exposes its own.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

TABLES = Gauge("dokobot_tables", "Tables open in this process, by status", ["status"])
GAMES_FINISHED = Counter("dokobot_games_finished_total", "Games played to the end")
AI_DECISIONS = Counter(
    "dokobot_ai_decisions_total", "Decisions made by AI players", ["level", "where"]
)
AI_FALLBACKS = Counter(
    "dokobot_ai_fallbacks_total", "AI decisions that failed or timed out in a worker"
)
INTERACTION_SECONDS = Histogram(
    "dokobot_interaction_seconds",
    "From a user's click or command (Discord's timestamp) to the bot's first answer",
    buckets=(0.05, 0.1, 0.15, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0),
)
DB_COMMIT_SECONDS = Histogram(
    "dokobot_db_commit_seconds",
    "Time a write transaction's commit takes",
    ["backend"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
)
LOOP_LAG_SECONDS = Histogram(
    "dokobot_event_loop_lag_seconds",
    "How late the event loop ran a timer (work that blocked it)",
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
)
SHARDS_READY = Gauge("dokobot_shards_ready", "Gateway shards of this process that are connected")
