"""Images: sizes, determinism, dimmed cards, names that fit, and golden pictures."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from dokobot.engine import Card, Contract, card_order, parse_cards
from dokobot.render import render_hand, render_trick, sort_hand
from dokobot.render.assets import CARD_H, fit_all, fit_text, font
from dokobot.render.hand import PAD, step_for
from dokobot.render.samples import record_images, sample_images
from dokobot.render.text import balances, signed_breakdown

GOLDEN = Path(__file__).parent / "golden"
HAND = tuple(
    parse_cards(["CQ", "H10", "SA", "S9", "DA", "D9", "HK", "CA", "C10", "SJ", "DQ", "HA"])
)


def load(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def test_hand_sorted_like_players_sort() -> None:
    normal = [c.name for c in sort_hand(HAND)]
    assert normal == ["H10", "CQ", "DQ", "SJ", "DA", "D9", "CA", "C10", "SA", "S9", "HA", "HK"]
    queen_solo = [c.name for c in sort_hand(HAND, card_order(Contract.QUEEN_SOLO))]
    # Queen solo: only queens are trumps; jacks and H10 sit in their plain suits.
    assert queen_solo == ["CQ", "DQ", "CA", "C10", "SA", "SJ", "S9", "HA", "H10", "HK", "DA", "D9"]


def test_image_sizes_and_modes() -> None:
    images = {name: load(png) for name, png in sample_images(7).items()}
    for name, image in images.items():
        assert image.format == "PNG", name
        assert image.mode == "RGBA", name
    assert images["hand"].size == (2 * PAD + 120 + step_for(9) * 8, images["hand"].size[1])
    assert images["trick"].size == (540, 590)
    assert all(len(png) <= 300 * 1024 for png in sample_images(7).values())


def test_rendering_is_deterministic() -> None:
    assert sample_images(3) == sample_images(3)
    assert sample_images(3)["hand"] != sample_images(4)["hand"]


def _strip_brightness(png: bytes, index: int, count: int) -> float:
    image = load(png).convert("L")
    x = PAD + index * step_for(count) + 4
    box = (x, PAD + 40, x + 30, PAD + CARD_H - 20)
    return float(ImageStat.Stat(image.crop(box)).mean[0])


def test_cards_that_cannot_be_played_are_dimmed() -> None:
    ordered = sort_hand(HAND)
    everything = render_hand(HAND)
    only_trumps = render_hand(HAND, playable=set(ordered[:6]))
    spade_ace = ordered.index(Card.SA)
    assert (
        _strip_brightness(only_trumps, spade_ace, 12)
        < _strip_brightness(everything, spade_ace, 12) - 40
    )
    # A playable card is raised and stays bright.
    assert _strip_brightness(only_trumps, 0, 12) > 150


def test_labels_match_the_buttons() -> None:
    with pytest.raises(ValueError, match="one label per card"):
        render_hand(HAND, labels=["1", "2"])
    assert render_hand(HAND, labels=[c.label for c in sort_hand(HAND)]) != render_hand(HAND)


def test_long_and_non_ascii_names_fit() -> None:
    draw = ImageDraw.Draw(Image.new("RGBA", (10, 10)))
    long = "Maximilian-Alexander Freiherr von und zu Hohenstein-Überlingen"
    text, f = fit_text(draw, long, 136, 18)
    assert draw.textlength(text, font=f) <= 136
    assert f.size >= 14  # never smaller than 14 px at 1×
    assert text.endswith("…")
    text, f = fit_text(draw, "Zoë", 136, 18)
    assert (text, f.size) == ("Zoë", 18)
    names = ["Jürgen", "Zoë", long, "Ærøskøbing Ğüneş"]
    png = render_trick([(0, Card.CQ), (1, Card.H10)], names, leader=0, winner=None)
    assert load(png).size == (540, 590)


def test_long_names_wrap_instead_of_being_cut_and_share_one_size() -> None:
    draw = ImageDraw.Draw(Image.new("RGBA", (10, 10)))
    names = ["Anna", "Jürgen", "Zoë", "Maximilian-Alexander von Hohenstein"]
    f, lines = fit_all(draw, names, [136] * 4, 18, bold=True, max_lines=3)
    assert lines[3] == ["Maximilian-", "Alexander von", "Hohenstein"]
    assert lines[0] == ["Anna"]
    assert f.size >= 14
    assert all(draw.textlength(line, font=f) <= 136 for name in lines for line in name)
    # Only a name that cannot fit in the lines allowed is shortened.
    _, cut = fit_all(draw, ["Maximilian-Alexander von Hohenstein"], [136], 18, max_lines=1)
    assert cut[0][0].endswith("…")


def test_the_breakdown_subtracts_the_other_sides_extra_points() -> None:
    result = {
        "winner": "re",
        "game_value": 1,
        "breakdown": [
            {"item": "won", "party": "re", "points": 1},
            {"item": "fox_caught", "party": "kontra", "points": 1},
            {"item": "karlchen", "party": "re", "points": 1},
        ],
    }
    lines = signed_breakdown(result)
    assert lines == [("won", "re", 1), ("fox_caught", "kontra", -1), ("karlchen", "re", 1)]
    assert sum(points for _, _, points in lines) == result["game_value"]
    # Nobody wins: the value is Re's, so Kontra's extra points count against it.
    nobody = {"winner": None, "breakdown": [{"item": "doppelkopf", "party": "kontra", "points": 1}]}
    assert signed_breakdown(nobody) == [("doppelkopf", "kontra", -1)]


def test_the_balance_says_who_receives_and_who_pays() -> None:
    # Totals of the sample sheet at 5 cents per point: the winner receives 1.65.
    assert balances((-13, 33, 9, -29), 0.05) == [-65, 165, 45, -145]


def test_the_trick_names_its_contract_and_soloist() -> None:
    cards = [(0, Card.CQ), (1, Card.SQ), (2, Card.HQ), (3, Card.DQ)]
    names = ["Anna", "Jürgen", "Zoë", "Max"]
    plain = load(render_trick(cards, names, leader=0, winner=0)).convert("RGB")
    solo = load(
        render_trick(cards, names, leader=0, winner=0, contract="solo:queen", soloist=2)
    ).convert("RGB")
    footer = (0, 560, 540, 590)
    assert ImageChops.difference(plain.crop(footer), solo.crop(footer)).getbbox() is not None
    top_name = (150, 40, 390, 100)  # Zoë sits at the top, now marked ★
    assert ImageChops.difference(plain.crop(top_name), solo.crop(top_name)).getbbox() is not None


def test_a_record_without_names_shows_players_not_seats() -> None:
    from tests.engine.test_records import finished_record

    record = finished_record()
    record.pop("players", None)
    named = record | {"players": ["Player 1", "Player 2", "Player 3", "Player 4"]}
    assert record_images(json.dumps(record)) == record_images(json.dumps(named))


def test_font_has_suits_and_umlauts() -> None:
    """Pillow's built-in font lacks these; the shipped DejaVu Sans draws every one."""

    def drawn(glyph: str) -> bytes:
        image = Image.new("L", (32, 32))
        ImageDraw.Draw(image).text((4, 4), glyph, font=font(18), fill=255)
        return image.tobytes()

    missing = drawn("\ue000")  # a private-use code point: the "no glyph" box
    for glyph in "♠♥♦♣äöüÄÖÜßë▶★Σ":
        assert drawn(glyph) != missing, glyph
        assert any(drawn(glyph)), glyph


@pytest.mark.parametrize("kind", ["hand", "trick", "result", "sheet", "leaderboard"])
def test_golden_images(kind: str) -> None:
    """Each kind matches its reviewed picture within a small pixel tolerance.

    Regenerate after an intended change with DOKOBOT_UPDATE_GOLDEN=1 and look at them.
    """
    png = sample_images(7)[kind]
    path = GOLDEN / f"{kind}.png"
    if os.environ.get("DOKOBOT_UPDATE_GOLDEN"):
        path.write_bytes(png)
    golden = load(path.read_bytes()).convert("RGBA")
    actual = load(png).convert("RGBA")
    assert actual.size == golden.size
    diff = ImageChops.difference(actual, golden).convert("L")
    changed = sum(diff.point(lambda v: 255 if v > 48 else 0).histogram()[255:])
    assert changed / (actual.size[0] * actual.size[1]) < 0.005
