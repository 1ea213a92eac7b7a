"""A trick on the table: four cards in seat positions, names, leader, winner, points."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from dokobot.engine import Card
from dokobot.i18n import DEFAULT, T

from .assets import (
    CARD_H,
    CARD_W,
    FELT,
    GOLD,
    INK,
    MUTED,
    SHADOW,
    face,
    fit_all,
    fit_text,
    font,
    to_png,
)
from .text import contract_name

WIDTH, HEIGHT = 540, 590
FOOTER = 30
SIDE_NAME_W = 136
MIDDLE_NAME_W = 240


def _slots() -> dict[int, tuple[int, int]]:
    """Top-left corner of the card for each position: 0 bottom, 1 left, 2 top, 3 right."""
    cx, cy = WIDTH // 2, (HEIGHT - FOOTER) // 2 + 4
    return {
        0: (cx - CARD_W // 2, cy + 12),
        1: (cx - CARD_W - 72, cy - CARD_H // 2),
        2: (cx - CARD_W // 2, cy - CARD_H - 12),
        3: (cx + 72, cy - CARD_H // 2),
    }


SLOTS = _slots()


def render_trick(
    cards: Sequence[tuple[int, Card]],
    names: Sequence[str],
    *,
    leader: int,
    winner: int | None = None,
    points: int | None = None,
    viewer: int | None = None,
    title: str | None = None,
    contract: str | None = None,
    soloist: int | None = None,
    lang: str = DEFAULT,
) -> bytes:
    """PNG of a trick: ``cards`` as (seat, card) in play order.

    With ``viewer`` that seat sits at the bottom; without, seat 0 does (the
    public picture). The winner's card is framed in gold once known; the
    contract (and the soloist, marked ★) is named at the foot.
    """
    bottom = 0 if viewer is None else viewer
    image = Image.new("RGBA", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    played = dict(cards)
    for seat in range(4):
        x, y = SLOTS[(seat - bottom) % 4]
        card = played.get(seat)
        if card is None:
            draw.rounded_rectangle(
                (x, y, x + CARD_W, y + CARD_H), radius=10, outline=MUTED, width=2
            )
            continue
        if seat == winner:
            draw.rounded_rectangle(
                (x - 6, y - 6, x + CARD_W + 6, y + CARD_H + 6), radius=14, fill=GOLD
            )
        else:
            image.alpha_composite(Image.new("RGBA", (CARD_W, CARD_H), SHADOW), (x + 4, y + 4))
        image.alpha_composite(face(card), (x, y))
    positions = [(seat - bottom) % 4 for seat in range(4)]
    labels = [
        ("▶ " if seat == leader else "") + ("★ " if seat == soloist else "") + names[seat]
        for seat in range(4)
    ]
    widths = [MIDDLE_NAME_W if pos in (0, 2) else SIDE_NAME_W for pos in positions]
    # Measured in bold, the winner's weight: every name then fits either way.
    f, lines = fit_all(draw, labels, widths, 18, bold=True, max_lines=3)
    for seat in range(4):
        _name(draw, positions[seat], lines[seat], f, seat == winner)
    if contract is not None:
        words = contract_name(contract, lang)
        if soloist is not None:
            words += f" · ★ {names[soloist]}"
        text, small = fit_text(draw, words, WIDTH - 32, 16)
        draw.text((WIDTH // 2, HEIGHT - 12), text, font=small, fill=MUTED, anchor="md")
    if title:
        draw.text((16, 14), title, font=font(20, bold=True), fill=INK)
    if points is not None:
        draw.text(
            (WIDTH - 16, 14),
            T(lang, "{points} points", points=points),
            font=font(20, bold=True),
            fill=INK,
            anchor="ra",
        )
    return to_png(image)


def _name(
    draw: ImageDraw.ImageDraw, pos: int, lines: list[str], f: ImageFont.FreeTypeFont, wins: bool
) -> None:
    x, y = SLOTS[pos]
    used = f if wins else font(int(f.size), bold=False)
    fill = GOLD if wins else INK
    step = f.size + 4
    centre = x + CARD_W // 2
    if pos == 2:  # above the card: the last line nearest to it
        for i, line in enumerate(reversed(lines)):
            draw.text((centre, y - 12 - i * step), line, font=used, fill=fill, anchor="md")
        return
    top = y + CARD_H + (12 if pos == 0 else 10)
    for i, line in enumerate(lines):
        draw.text((centre, top + i * step), line, font=used, fill=fill, anchor="ma")
