"""A trick on the table: four cards in seat positions, names, leader, winner, points."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from dokobot.engine import Card

from .assets import CARD_H, CARD_W, FELT, GOLD, INK, MUTED, SHADOW, face, fit_text, font, to_png

WIDTH, HEIGHT = 540, 560
SIDE_NAME_W = 136
MIDDLE_NAME_W = 240


def _slots() -> dict[int, tuple[int, int]]:
    """Top-left corner of the card for each position: 0 bottom, 1 left, 2 top, 3 right."""
    cx, cy = WIDTH // 2, HEIGHT // 2 + 4
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
) -> bytes:
    """PNG of a trick: ``cards`` as (seat, card) in play order.

    With ``viewer`` that seat sits at the bottom; without, seat 0 does (the
    public picture). The winner's card is framed in gold once known.
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
    for seat in range(4):
        _name(draw, seat, (seat - bottom) % 4, names[seat], seat == leader, seat == winner)
    if title:
        draw.text((16, 14), title, font=font(20, bold=True), fill=INK)
    if points is not None:
        draw.text(
            (WIDTH - 16, 14), f"{points} points", font=font(20, bold=True), fill=INK, anchor="ra"
        )
    return to_png(image)


def _name(
    draw: ImageDraw.ImageDraw, seat: int, pos: int, name: str, leads: bool, wins: bool
) -> None:
    x, y = SLOTS[pos]
    marker = "▶ " if leads else ""
    width = MIDDLE_NAME_W if pos in (0, 2) else SIDE_NAME_W
    text, f = fit_text(draw, marker + name, width, 18, bold=wins)
    colour = GOLD if wins else INK
    if pos == 0:
        draw.text((x + CARD_W // 2, y + CARD_H + 12), text, font=f, fill=colour, anchor="ma")
    elif pos == 2:
        draw.text((x + CARD_W // 2, y - 12), text, font=f, fill=colour, anchor="md")
    else:
        draw.text((x + CARD_W // 2, y + CARD_H + 10), text, font=f, fill=colour, anchor="ma")
