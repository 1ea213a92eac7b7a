"""Text panels: game result, score sheet, leaderboard."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from PIL import Image, ImageDraw, ImageFont

from dokobot.i18n import DEFAULT, T

from .assets import (
    FELT,
    FELT_DARK,
    GOLD,
    GREEN,
    INK,
    MUTED,
    RED,
    fit_all,
    fit_text,
    font,
    to_png,
)
from .text import (
    SHORT_CONTRACTS,
    balances,
    contract_name,
    item_name,
    party_name,
    signed_breakdown,
)

PAD = 20
LINE = 30


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _colour(value: int) -> tuple[int, int, int, int]:
    return GREEN if value > 0 else RED if value < 0 else INK


def render_result(
    result: Mapping[str, Any],
    names: Sequence[str],
    *,
    title: str | None = None,
    lang: str = DEFAULT,
) -> bytes:
    """PNG of a finished game: contract, teams with card points, breakdown, score changes."""
    width = 620
    breakdown = result.get("breakdown", [])
    height = PAD * 2 + 44 + LINE * (4 + len(breakdown)) + 16 + LINE * 5
    image = Image.new("RGBA", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    y = PAD
    heading = title or contract_name(result.get("contract"), lang)
    text, f = fit_text(draw, heading, width - 2 * PAD, 26, bold=True)
    draw.text((PAD, y), text, font=f, fill=INK)
    y += 44
    body, bold = font(18), font(18, bold=True)
    winner = result.get("winner")
    if result.get("redeal"):
        draw.text(
            (PAD, y),
            T(lang, "Nobody took the poverty: redeal by the same dealer."),
            font=body,
            fill=INK,
        )
        return to_png(image.crop((0, 0, width, y + LINE + PAD)))
    # Both party lines at one size: the loser's line is not set smaller (bold is
    # only the winner's colour and weight).
    parties = ("re", "kontra")
    lines = [f"{party_name(p)}: {' & '.join(names[s] for s in result[p])}" for p in parties]
    f, _ = fit_all(draw, lines, [width - 2 * PAD - 150] * 2, 18, bold=True, max_lines=1)
    for party, line in zip(parties, lines, strict=True):
        colour = GOLD if winner == party else INK
        text, _ = fit_text(draw, line, width - 2 * PAD - 150, int(f.size), minimum=int(f.size))
        used = f if winner == party else font(int(f.size))
        draw.text((PAD, y), text, font=used, fill=colour)
        points = result["card_points"][party]
        tricks = result["tricks_won"][party]
        draw.text(
            (width - PAD, y),
            T(lang, "{points} · {tricks} tricks", points=points, tricks=tricks),
            font=body,
            fill=colour,
            anchor="ra",
        )
        y += LINE
    verdict = (
        T(lang, "{party} wins", party=party_name(winner)) if winner else T(lang, "Nobody wins")
    )
    draw.text((PAD, y), verdict, font=bold, fill=GOLD)
    y += LINE + 4
    draw.line((PAD, y, width - PAD, y), fill=MUTED, width=1)
    y += 10
    # Each line counts for the side the value is scored for; the other side's
    # extra points are subtracted (docs/rules.md §8), so the column sums to the value.
    side = winner or "re"
    for item, party, points in signed_breakdown(dict(result)):
        text, f = fit_text(draw, item_name(item, lang), width - 2 * PAD - 170, 18)
        draw.text((PAD, y), text, font=f, fill=INK)
        draw.text((width - PAD - 70, y), party_name(party), font=body, fill=MUTED, anchor="ra")
        fill = INK if points >= 0 else RED
        draw.text((width - PAD, y), _signed(points), font=body, fill=fill, anchor="ra")
        y += LINE
    draw.line((PAD, y, width - PAD, y), fill=MUTED, width=1)
    y += 10
    value = result["game_value"]
    label = (
        T(lang, "Game value for {party}", party=party_name(side))
        if breakdown
        else T(lang, "Game value")
    )
    if result.get("soloist") is not None:
        label += T(lang, " (soloist ×3)")
    draw.text((PAD, y), label, font=bold, fill=INK)
    draw.text((width - PAD, y), str(value), font=bold, fill=INK, anchor="ra")
    y += LINE + 8
    cell = (width - 2 * PAD) // 4
    f, name_lines = fit_all(draw, list(names), [cell - 8] * 4, 16, minimum=12)
    step = int(f.size) + 3
    below = y + step * max(len(n) for n in name_lines) + 4
    for seat, score in enumerate(result["scores"]):
        x = PAD + seat * cell
        for i, line in enumerate(name_lines[seat]):
            draw.text((x + cell // 2, y + i * step), line, font=f, fill=MUTED, anchor="ma")
        draw.text(
            (x + cell // 2, below),
            _signed(score),
            font=font(22, bold=True),
            fill=_colour(score),
            anchor="ma",
        )
    y = below + LINE + 8
    return to_png(image.crop((0, 0, width, y + PAD // 2)))


class SheetLine(Protocol):
    """One game on a score sheet (``dokobot.storage.SheetRow`` fits)."""

    @property
    def seq(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def contract(self) -> str | None: ...
    @property
    def soloist(self) -> int | None: ...
    @property
    def game_value(self) -> int | None: ...
    @property
    def scores(self) -> tuple[int, ...] | None: ...
    @property
    def totals(self) -> tuple[int, ...]: ...


def render_score_sheet(
    names: Sequence[str],
    rows: Sequence[SheetLine],
    totals: Sequence[int],
    *,
    title: str | None = None,
    max_rows: int = 16,
    stake: float | None = None,
    currency: str = "€",
    lang: str = DEFAULT,
    chart: bool = False,
    note: str | None = None,
) -> bytes:
    """PNG of the paper list: a column per player with running totals, a row per game.

    Bock games are marked with their factor; ``note`` (the Bock games still due,
    docs/rules.md §9.6) goes under the legend.

    Compulsory solos get their own column (DDV); ``chart`` adds each player's running
    total over the games as a line chart, for the final sheet.

    With ``stake`` (an amount per point, bookkeeping only) a Balance row shows what
    each player receives (+) or pays (−).
    """
    shown = list(rows)[-max_rows:]
    hidden = len(rows) - len(shown)
    col = 128
    first, value_col, tag_col = 48, 64, 150
    compulsory_col = 130 if any(getattr(r, "compulsory", False) for r in rows) else 0
    width = PAD * 2 + first + 4 * col + value_col + tag_col + compulsory_col
    height = PAD * 2 + 40 + LINE * 2 + (LINE if hidden else 0) + LINE * len(shown) + 12 + LINE + 8
    height += LINE * 2 if stake else LINE
    height += CHART_HEIGHT + LINE if chart and rows else 0
    height += LINE if note else 0
    image = Image.new("RGBA", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, PAD), title or T(lang, "Score sheet"), font=font(24, bold=True), fill=INK)
    y = PAD + 40
    small, body, bold = font(14), font(17), font(18, bold=True)
    x0 = PAD + first
    draw.text((PAD, y), "#", font=small, fill=MUTED)
    f, name_lines = fit_all(draw, list(names), [col - 10] * 4, 17, bold=True, max_lines=3)
    step = int(f.size) + 3
    for seat, lines in enumerate(name_lines):
        for i, line in enumerate(lines):
            x = x0 + seat * col + col - 8
            draw.text((x, y + i * step), line, font=f, fill=INK, anchor="ra")
    xv = x0 + 4 * col
    draw.text((xv + value_col - 8, y + 2), T(lang, "Value"), font=small, fill=MUTED, anchor="ra")
    xc = xv + value_col + tag_col
    if compulsory_col:
        draw.text((xc, y + 2), T(lang, "Pflichtsolo"), font=small, fill=MUTED)
    y += max(LINE, step * max(len(n) for n in name_lines) + 6)
    if hidden:
        draw.text(
            (PAD, y), T(lang, "… {count} earlier games", count=hidden), font=small, fill=MUTED
        )
        y += LINE
    for row in shown:
        if row.soloist is not None:
            draw.rectangle((PAD - 6, y - 4, width - PAD + 6, y + LINE - 6), fill=FELT_DARK)
        draw.text((PAD, y), str(row.seq + 1), font=body, fill=MUTED)
        for seat in range(4):
            x = x0 + seat * col + col - 8
            if row.scores is None:
                draw.text((x, y), "…", font=body, fill=MUTED, anchor="ra")
                continue
            total = row.totals[seat]
            draw.text((x, y), str(total), font=body, fill=INK, anchor="ra")
            if seat == row.dealer:
                draw.text((x - 56, y + 3), T(lang, "D"), font=small, fill=MUTED, anchor="ra")
            if seat == row.soloist:
                draw.text((x - 70, y), "★", font=body, fill=GOLD, anchor="ra")
        if row.game_value is not None:
            draw.text(
                (xv + value_col - 8, y), str(row.game_value), font=body, fill=INK, anchor="ra"
            )
        tag = SHORT_CONTRACTS.get(row.contract or "", "") if row.contract else T(lang, "Redeal")
        bock = getattr(row, "bock", 1)
        if bock > 1:
            tag = f"{tag} · Bock ×{bock}" if tag else f"Bock ×{bock}"
        if tag:
            text, f = fit_text(draw, tag, tag_col - 12, 15)
            draw.text(
                (xv + value_col + 12, y + 2),
                text,
                font=f,
                fill=GOLD if row.soloist is not None else MUTED,
            )
        if getattr(row, "compulsory", False) and row.soloist is not None:
            text, f = fit_text(draw, names[row.soloist], compulsory_col - 8, 15)
            draw.text((xc, y + 2), text, font=f, fill=GOLD)
        y += LINE
    y += 4
    draw.line((PAD, y, width - PAD, y), fill=MUTED, width=2)
    y += 10
    draw.text((PAD, y), "Σ", font=bold, fill=INK)
    for seat, total in enumerate(totals):
        draw.text(
            (x0 + seat * col + col - 8, y), str(total), font=bold, fill=_colour(total), anchor="ra"
        )
    if stake:
        y += LINE
        draw.text((PAD, y + 3), T(lang, "Balance"), font=small, fill=MUTED)
        for seat, cents in enumerate(balances(totals, stake)):
            sign = "+" if cents > 0 else "−" if cents < 0 else ""
            draw.text(
                (x0 + seat * col + col - 8, y),
                f"{sign}{abs(cents) / 100:.2f} {currency}",
                font=body,
                fill=_colour(cents),
                anchor="ra",
            )
    y += LINE + 4
    legend = T(lang, "D dealer · ★ solo · shaded: a solo game")
    if stake:
        legend += T(
            lang,
            " · Balance at {stake} {currency} per point: + receives, − pays",
            stake=f"{stake:.2f}",
            currency=currency,
        )
    text, f = fit_text(draw, legend, width - 2 * PAD, 14, minimum=12)
    draw.text((PAD, y), text, font=f, fill=MUTED)
    y += LINE
    if note:
        text, f = fit_text(draw, note, width - 2 * PAD, 15, minimum=12)
        draw.text((PAD, y), text, font=f, fill=GOLD)
        y += LINE
    if chart and rows:
        _chart(draw, (PAD, y, width - PAD, y + CHART_HEIGHT), names, rows, small)
        y += CHART_HEIGHT + 8
    return to_png(image.crop((0, 0, width, y + 4)))


CHART_HEIGHT = 180
#: One colour per seat, distinct on the felt.
SEAT_COLOURS = (GOLD, (120, 200, 255, 255), (255, 140, 170, 255), (190, 240, 150, 255))


def _chart(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    names: Sequence[str],
    rows: Sequence[SheetLine],
    label: ImageFont.FreeTypeFont,
) -> None:
    """Each player's running total over the games: a line per player, zero marked."""
    left, top, right, bottom = box
    key_w = 150
    plot = (left + 36, top + 8, right - key_w, bottom - 8)
    series = [[0, *(r.totals[s] for r in rows)] for s in range(4)]
    low = min(0, *(min(v) for v in series))
    high = max(1, *(max(v) for v in series))
    steps = len(rows)

    def point(i: int, value: int) -> tuple[float, float]:
        x = plot[0] + (plot[2] - plot[0]) * i / max(1, steps)
        y = plot[3] - (plot[3] - plot[1]) * (value - low) / max(1, high - low)
        return x, y

    draw.rectangle(plot, outline=MUTED, width=1)
    zero = point(0, 0)[1]
    draw.line((plot[0], zero, plot[2], zero), fill=MUTED, width=1)
    draw.text((plot[0] - 6, plot[1]), str(high), font=label, fill=MUTED, anchor="ra")
    draw.text((plot[0] - 6, plot[3]), str(low), font=label, fill=MUTED, anchor="rd")
    for seat, values in enumerate(series):
        colour = SEAT_COLOURS[seat]
        draw.line([point(i, v) for i, v in enumerate(values)], fill=colour, width=3)
        y = top + 14 + seat * 26
        draw.line((right - key_w + 14, y + 8, right - key_w + 36, y + 8), fill=colour, width=3)
        text, f = fit_text(draw, f"{names[seat]} {values[-1]:+d}", key_w - 44, 14, minimum=11)
        draw.text((right - key_w + 42, y), text, font=f, fill=INK)


class BoardLine(Protocol):
    """One leaderboard row (``dokobot.storage.LeaderboardRow`` fits)."""

    @property
    def rank(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def points(self) -> int: ...
    @property
    def games(self) -> int: ...
    @property
    def win_rate(self) -> float: ...
    @property
    def average(self) -> float: ...


def render_leaderboard(
    rows: Sequence[BoardLine], *, title: str | None = None, lang: str = DEFAULT
) -> bytes:
    """PNG of a server ranking: rank, name, points, games, win rate, average."""
    width = 640
    height = PAD * 2 + 44 + LINE + LINE * max(1, len(rows)) + 8
    image = Image.new("RGBA", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, PAD), title or T(lang, "Leaderboard"), font=font(24, bold=True), fill=INK)
    y = PAD + 44
    small, body = font(14), font(17)
    columns = [
        (T(lang, "Points"), 390),
        (T(lang, "Games"), 470),
        (T(lang, "Won"), 550),
        ("Ø", width - PAD),
    ]
    for label, x in columns:
        draw.text((x, y + 2), label, font=small, fill=MUTED, anchor="ra")
    y += LINE
    if not rows:
        draw.text((PAD, y), T(lang, "No games yet."), font=body, fill=MUTED)
    medals = {1: GOLD, 2: (205, 210, 215, 255), 3: (214, 150, 90, 255)}
    for row in rows:
        colour = medals.get(row.rank, INK)
        draw.text((PAD + 30, y), f"{row.rank}.", font=font(17, bold=True), fill=colour, anchor="ra")
        text, f = fit_text(draw, row.name, 250, 17, bold=row.rank <= 3)
        draw.text((PAD + 42, y), text, font=f, fill=colour)
        values = [str(row.points), str(row.games), f"{row.win_rate:.0%}", f"{row.average:+.2f}"]
        for (_, x), value in zip(columns, values, strict=True):
            draw.text((x, y), value, font=body, fill=INK, anchor="ra")
        y += LINE
    return to_png(image)
