"""Card faces and fonts, loaded once per process."""

from __future__ import annotations

import io
import os
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from dokobot.engine import Card

FONT_DIR = Path(__file__).resolve().parent / "fonts"
CARD_W, CARD_H = 120, 168

# Colours: a felt-green table, cream text, gold for winners and highlights.
FELT = (21, 87, 54, 255)
FELT_DARK = (14, 62, 38, 255)
INK = (246, 241, 225, 255)
MUTED = (176, 199, 184, 255)
GOLD = (244, 196, 48, 255)
RED = (226, 74, 74, 255)
GREEN = (120, 220, 140, 255)
SHADOW = (0, 0, 0, 90)


def card_images_dir() -> Path:
    """``$DOKOBOT_CARD_IMAGES``, else the ``card_images/`` folder of the source tree."""
    env = os.environ.get("DOKOBOT_CARD_IMAGES")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "card_images"


@cache
def face(card: Card | None) -> Image.Image:
    """The 1× face of ``card`` (``None``: the back) as RGBA."""
    name = "back" if card is None else card.name
    path = card_images_dir() / "1x" / f"{name}.png"
    with Image.open(path) as image:
        return image.convert("RGBA")


@cache
def dimmed_face(card: Card) -> Image.Image:
    """A face greyed out, for cards that cannot be played now."""
    image = face(card).copy()
    veil = Image.new("RGBA", image.size, (40, 48, 44, 150))
    alpha = image.getchannel("A")
    image.alpha_composite(veil)
    image.putalpha(alpha)
    return image


@cache
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (shipped with the package): suit symbols, umlauts and all."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


def fit_text(
    draw: ImageDraw.ImageDraw,
    text: str,
    width: int,
    size: int,
    *,
    bold: bool = False,
    minimum: int = 14,
) -> tuple[str, ImageFont.FreeTypeFont]:
    """Shrink the font down to ``minimum`` px, then shorten with "…", so ``text`` fits."""
    for s in range(size, minimum - 1, -1):
        f = font(s, bold=bold)
        if draw.textlength(text, font=f) <= width:
            return text, f
    f = font(minimum, bold=bold)
    while text and draw.textlength(text + "…", font=f) > width:
        text = text[:-1]
    return text + "…", f


def to_png(image: Image.Image) -> bytes:
    """PNG bytes, deterministic for the same image; fast compression for the event path."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()
