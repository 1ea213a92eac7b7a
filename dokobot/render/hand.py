"""A player's hand: overlapping cards sorted as players sort, playable ones raised."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from PIL import Image, ImageDraw

from dokobot.engine import NORMAL_ORDER, Card, CardOrder

from .assets import CARD_H, CARD_W, FELT, GOLD, INK, MUTED, dimmed_face, face, font, to_png

PAD = 14
LIFT = 14
BADGE = 28
LABEL_H = BADGE + 10


def sort_hand(cards: Sequence[Card], order: CardOrder = NORMAL_ORDER) -> list[Card]:
    """Trumps high to low, then clubs, spades, hearts, diamonds, each high to low."""
    return sorted(cards, key=order.sort_key)


def step_for(count: int) -> int:
    """Horizontal distance between overlapping cards: enough to show each index."""
    return 54 if count <= 12 else 44


def render_hand(
    cards: Sequence[Card],
    *,
    order: CardOrder = NORMAL_ORDER,
    playable: Collection[Card] | None = None,
    labels: Sequence[str] | None = None,
) -> bytes:
    """PNG of a hand in players' order; ``playable`` cards raised, the rest dimmed.

    ``labels`` (default 1, 2, 3 …) are drawn under each card in the sorted
    order, the same labels the card buttons carry.
    """
    ordered = sort_hand(cards, order)
    labels = list(labels) if labels is not None else [str(i + 1) for i in range(len(ordered))]
    if len(labels) != len(ordered):
        raise ValueError("one label per card")
    step = step_for(len(ordered))
    width = 2 * PAD + CARD_W + step * max(0, len(ordered) - 1)
    height = PAD + LIFT + CARD_H + LABEL_H + PAD // 2
    image = Image.new("RGBA", (max(width, 2 * PAD + CARD_W), height), FELT)
    draw = ImageDraw.Draw(image)
    badge_font = font(17, bold=True)
    top = PAD + LIFT
    for i, card in enumerate(ordered):
        x = PAD + i * step
        can_play = playable is None or card in playable
        y = top - LIFT if playable is not None and can_play else top
        image.alpha_composite(face(card) if can_play else dimmed_face(card), (x, y))
        # The badge sits under the visible strip of the card, like its button.
        visible = CARD_W if i == len(ordered) - 1 else step
        cx = x + min(visible, CARD_W) // 2
        cy = top + CARD_H + 6 + BADGE // 2
        fill = GOLD if (playable is not None and can_play) else (INK if can_play else MUTED)
        draw.ellipse(
            (cx - BADGE // 2, cy - BADGE // 2, cx + BADGE // 2, cy + BADGE // 2), fill=fill
        )
        draw.text((cx, cy), labels[i], font=badge_font, fill=FELT, anchor="mm")
    return to_png(image)
