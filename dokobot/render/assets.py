"""Card faces and fonts, loaded once per process."""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
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


def _words(text: str) -> list[str]:
    """Pieces a name may break between: after a space (dropped) or after a hyphen (kept)."""
    pieces: list[str] = []
    for word in text.split(" "):
        parts = word.split("-")
        pieces.extend(f"{p}-" for p in parts[:-1])
        pieces.append(parts[-1] + " ")
    return [p for p in pieces if p.strip()]


def _lines_at(
    draw: ImageDraw.ImageDraw, text: str, width: int, f: ImageFont.FreeTypeFont, max_lines: int
) -> list[str] | None:
    """``text`` wrapped greedily into at most ``max_lines`` lines of ``width``, or ``None``."""
    if draw.textlength(text, font=f) <= width:
        return [text]
    lines: list[str] = []
    current = ""
    for piece in _words(text):
        candidate = current + piece
        if current and draw.textlength(candidate.rstrip(), font=f) > width:
            lines.append(current.rstrip())
            current = piece
        else:
            current = candidate
    lines.append(current.rstrip())
    if len(lines) > max_lines or any(draw.textlength(line, font=f) > width for line in lines):
        return None
    return lines


def fit_all(
    draw: ImageDraw.ImageDraw,
    texts: Sequence[str],
    widths: Sequence[int],
    size: int,
    *,
    bold: bool = False,
    minimum: int = 13,
    max_lines: int = 2,
) -> tuple[ImageFont.FreeTypeFont, list[list[str]]]:
    """One font size for all ``texts`` (names side by side look alike), the largest at
    which each fits its width on at most ``max_lines`` lines; "…" only as a last resort."""
    for s in range(size, minimum - 1, -1):
        f = font(s, bold=bold)
        lines = [_lines_at(draw, t, w, f, max_lines) for t, w in zip(texts, widths, strict=True)]
        if all(line is not None for line in lines):
            return f, [line for line in lines if line is not None]
    f = font(minimum, bold=bold)
    out: list[list[str]] = []
    for text, width in zip(texts, widths, strict=True):
        wrapped = _lines_at(draw, text, width, f, max_lines)
        if wrapped is None:
            short, _ = fit_text(draw, text, width, minimum, bold=bold, minimum=minimum)
            wrapped = [short]
        out.append(wrapped)
    return f, out


def to_png(image: Image.Image) -> bytes:
    """PNG bytes, deterministic for the same image; fast compression for the event path."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()
