"""Rasterise the Kennard card faces (CC0) into card_images/ — run once, by hand.

    npm pack @heruka_urgyen/react-playing-cards && tar xzf heruka_urgyen-*.tgz
    pip install resvg-py   # development only: at run time DokoBot needs Pillow alone
    python scripts/make_card_images.py package/src/images

Writes the 24 Doppelkopf faces (9 to A in four suits) and a back, at 1×
(120×168 px) and 2× (240×336 px), using the big-index two-colour deck.
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import resvg_py  # type: ignore[import-not-found]
from PIL import Image

OUT = Path(__file__).resolve().parent.parent / "card_images"
RANKS = {"9": "9", "10": "T", "J": "J", "Q": "Q", "K": "K", "A": "A"}
SIZES = {"1x": (120, 168), "2x": (240, 336)}


def rasterise(svg: Path, size: tuple[int, int]) -> Image.Image:
    png = bytes(resvg_py.svg_to_bytes(svg_path=str(svg), width=size[0], height=size[1], dpi=96.0))
    return Image.open(io.BytesIO(png)).convert("RGBA")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("images", type=Path, help="the package's src/images folder")
    parser.add_argument("--deck", default="2color-bf", help="2color, 2color-bf, 4color, 4color-bf")
    args = parser.parse_args()
    for scale, size in SIZES.items():
        folder = OUT / scale
        folder.mkdir(parents=True, exist_ok=True)
        for suit in "CSHD":
            for rank, kennard in RANKS.items():
                face = rasterise(args.images / args.deck / f"{kennard}{suit}.svg", size)
                face.save(folder / f"{suit}{rank}.png", optimize=True)
        rasterise(args.images / "back.svg", size).save(folder / "back.png", optimize=True)
    print(f"wrote {len(SIZES) * 25} images to {OUT}")


if __name__ == "__main__":
    main()
