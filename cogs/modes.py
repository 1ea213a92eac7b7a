"""Session modes in Discord: the options of /doko new, and how a table shows its plan."""

from __future__ import annotations

from typing import Any

from discord import app_commands
from discord.app_commands import locale_str

from dokobot.engine import Mode, Plan
from dokobot.i18n import N_, T
from dokobot.table.service import TableError, TableSnapshot

MODES = [
    app_commands.Choice(name=locale_str("free play"), value="free"),
    app_commands.Choice(name=locale_str("fixed rounds"), value="rounds"),
    app_commands.Choice(name=locale_str("points target"), value="target"),
    app_commands.Choice(
        name=locale_str("tournament list (24 games, Pflichtsolo)"), value="tournament"
    ),
    app_commands.Choice(name=locale_str("duel (two of you against two AI players)"), value="duel"),
]
PLAN_OPTIONS = {
    "mode": locale_str("How the evening is organised (default: the server's)"),
    "rounds": locale_str("Fixed rounds: how many rounds of four games"),
    "target": locale_str("Points target: the session ends when a player reaches it"),
    "stake": locale_str("Bookkeeping only: cents per point, settled on the final sheet"),
    "currency": locale_str("The stake's currency label (default €)"),
    "ai_announces": locale_str("May the AI announce and play solos (default: yes)"),
}
MODE_NAMES = {
    "free": N_("Free play"),
    "rounds": N_("Fixed rounds"),
    "target": N_("Points target"),
    "tournament": N_("Tournament list"),
    "duel": N_("Duel"),
}


def plan_from(defaults: dict[str, Any], **given: Any) -> Plan:
    """The plan a user asked for, on top of the server's default; refused with a reason."""
    data = dict(defaults)
    if given.get("mode") is not None and given["mode"] != data.get("mode"):
        data = {k: v for k, v in data.items() if k in ("stake_cents", "currency")}
        data["mode"] = given["mode"]
    for key, field in (("rounds", "rounds"), ("target", "target"), ("stake", "stake_cents")):
        if given.get(key) is not None:
            data[field] = given[key]
    if given.get("currency") is not None:
        data["currency"] = given["currency"]
    if given.get("ai_announces") is not None:
        data["ai_announces"] = given["ai_announces"]
    mode = data.get("mode", "free")
    if mode == "rounds" and not data.get("rounds"):
        raise TableError("Fixed rounds need a number of rounds: rounds:4 plays 16 games.", "plan")
    if mode == "target" and not data.get("target"):
        raise TableError(
            "A points target needs a number: target:30 plays until someone has 30.", "plan"
        )
    try:
        return Plan.from_dict(data)
    except ValueError as exc:
        raise TableError(
            "This way of playing cannot be set up: {problem}.", "plan", problem=str(exc)
        ) from None


def plan_text(plan: Plan, lang: str) -> str:
    """``Fixed rounds: 4 rounds (16 games) · Stake 0.05 € per point``."""
    name = T(lang, MODE_NAMES[plan.mode.value])
    if plan.mode is Mode.ROUNDS:
        name = T(
            lang,
            "{mode}: {rounds} rounds ({games} games)",
            mode=name,
            rounds=plan.rounds,
            games=4 * (plan.rounds or 0),
        )
    elif plan.mode is Mode.TARGET:
        name = T(lang, "{mode}: {target} points", mode=name, target=plan.target)
    parts = [name]
    if plan.stake_cents:
        parts.append(stake_text(plan, lang))
    if not plan.ai_announces:
        parts.append(T(lang, "the AI does not announce or play solos"))
    return " · ".join(parts)


def stake_text(plan: Plan, lang: str) -> str:
    cents = plan.stake_cents or 0
    return T(
        lang,
        "Stake {amount} {currency} per point",
        amount=f"{cents / 100:.2f}",
        currency=plan.currency,
    )


def bock_text(snapshot: TableSnapshot, lang: str) -> str | None:
    """``Bock ×2 now · 7 Bock games to come`` (docs/rules.md §9.6), or ``None``."""
    queue = snapshot.bock_queue
    if not queue and snapshot.bock == 1:
        return None
    # Queued rounds run one after another; stacked ones run side by side.
    stacked = snapshot.rules.bock_stacking.value == "double"
    games = max(queue, default=0) if stacked else sum(queue)
    return T(
        lang,
        "Bock ×{factor} now · {games} Bock games to come",
        factor=snapshot.bock,
        games=games,
    )


def progress_text(snapshot: TableSnapshot, lang: str) -> str:
    """Where the evening stands: game 7 of 24, round 2 of 4, 312 of 500 points."""
    plan = snapshot.plan
    parts = [plan_text(plan, lang)]
    if snapshot.status == "playing" and snapshot.deals:
        if plan.mode is Mode.ROUNDS:
            parts.append(
                T(
                    lang,
                    "round {round} of {rounds}",
                    round=min(snapshot.deals_played // 4 + 1, plan.rounds or 1),
                    rounds=plan.rounds,
                )
            )
        else:
            parts.append(
                T(
                    lang,
                    "game {number} of {games}",
                    number=min(snapshot.deals_played + 1, snapshot.deals),
                    games=snapshot.deals,
                )
            )
    if snapshot.status == "playing" and plan.mode is Mode.TARGET:
        parts.append(
            T(lang, "{best} of {target} points", best=max(snapshot.totals), target=plan.target)
        )
    bock = bock_text(snapshot, lang)
    if snapshot.status == "playing" and bock:
        parts.append(bock)
    owing = [snapshot.names[s] for s in range(4) if snapshot.solos_owed[s]]
    if snapshot.status == "playing" and owing:
        parts.append(T(lang, "Pflichtsolo still owed: {names}", names=", ".join(owing)))
    return " · ".join(parts)
