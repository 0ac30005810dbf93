"""The mail map composited from cached layers shows what the position says, as the SVG does."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.catalog import variant_names
from judge.adjudicator.jsonio import position_to_json
from judge.maps import render_png, render_svg
from judge.maps.attachment import map_png
from judge.maps.composite import composite_png
from judge.maps.layout import variant_layout
from judge.maps.style import power_colours, power_tint
from judge.maps.svg import centre_point

# every installed variant: the imported maps' drawings (judge.maps.ps_drawing) too
VARIANTS = list(variant_names())

# the standard map's colours, as its map.json gives them
POWER_COLOURS = power_colours("standard")
POWER_TINTS = {p: power_tint("standard", p) for p in POWER_COLOURS}


def rgb(colour: str) -> tuple[int, int, int]:
    value = colour.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


def near(pixel: tuple[int, ...], colour: str, tolerance: int = 10) -> bool:
    # Pillow maps a colour on a fixed palette through a cache of 5-6-5-bit cells: the entry
    # found may be a few levels off the exact one (not seen)
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], rgb(colour), strict=True))


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def movement() -> dict:
    before = position_to_json(installed_variant("standard").initial_position())
    return {
        "phase": "S1901M", "title": "storm", **before,
        "results": {
            "FRANCE": [{"order": "A PAR - BUR", "result": "succeeds"},
                       {"order": "A MAR S A PAR - BUR", "result": "succeeds"},
                       {"order": "F BRE - MAO", "result": "fails"}],
            "GERMANY": [{"order": "A MUN - BUR", "result": "fails"},
                        {"order": "F KIE - DEN", "result": "succeeds"}],
            "ENGLAND": [{"order": "F LON H", "result": "succeeds"},
                        {"order": "F EDI S F LON", "result": "succeeds"}],
        },
        "dislodged": {"GERMANY": {"A MUN": ["BOH"]}},
    }


def test_the_composite_shows_units_centres_and_ownership_in_the_powers_colours() -> None:
    snap = movement()
    # Belgium is France's in this made-up position: its land takes France's tint
    snap["centers"] = {**snap["centers"], "FRANCE": [*snap["centers"]["FRANCE"], "BEL"]}
    picture = image(composite_png(snap))
    layout = variant_layout("standard")
    for power, units in snap["units"].items():
        for text in units:
            x, y = layout.anchor(text.split()[1])
            # beside the unit's letter, inside its disc (radius 11) or its fleet's box
            assert near(picture.getpixel((round(x) - 7, round(y))), POWER_COLOURS[power]), text
    for power, centres in snap["centers"].items():
        for centre in centres:
            x, y = centre_point(layout, centre)
            assert near(picture.getpixel((round(x), round(y))), POWER_COLOURS[power]), centre
    # a neutral centre's marker is white
    x, y = centre_point(layout, "SWE")
    assert near(picture.getpixel((round(x), round(y))), "#ffffff")

    def tinted(code: str, colour: str) -> int:
        xs = [p[0] for ring in layout.rings[code] for p in ring]
        ys = [p[1] for ring in layout.rings[code] for p in ring]
        box = picture.crop((int(min(xs)), int(min(ys)), int(max(xs)), int(max(ys))))
        raw = box.tobytes()
        return sum(1 for i in range(0, len(raw), 3) if near(tuple(raw[i:i + 3]), colour, 4))

    assert tinted("BEL", POWER_TINTS["FRANCE"]) > 200
    assert tinted("SWE", POWER_TINTS["FRANCE"]) == 0  # neutral: not France's tint
    assert tinted("PAR", POWER_TINTS["FRANCE"]) > 500
    # the successful move's arrow, halfway from Paris to Burgundy, in France's colour
    (ax, ay), (bx, by) = layout.anchor("PAR"), layout.anchor("BUR")
    mid = (round((ax + bx) / 2), round((ay + by) / 2))
    around = [picture.getpixel((mid[0] + dx, mid[1] + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    assert any(near(p, POWER_COLOURS["FRANCE"], 20) for p in around)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_composite_looks_like_the_whole_svg_converted(variant: str) -> None:
    """The same picture as CairoSVG's conversion of the archive's SVG, but for the sprites'
    rounding to whole pixels and the palette: few pixels differ, and none by much."""
    position = installed_variant(variant).initial_position()
    snap = {"phase": str(position.phase), "variant": variant, "title": "storm",
            **position_to_json(position)}
    if variant == "standard":
        snap = movement()
    composite = image(composite_png(snap))
    whole = image(render_png(render_svg(snap)))
    layout = variant_layout(variant)
    assert composite.size == whole.size == (layout.width, layout.height)
    histogram = ImageChops.difference(composite, whole).convert("L").histogram()
    differing = sum(histogram[25:]) / sum(histogram)
    assert differing < 0.005, f"{differing:.2%} of the pixels differ"


def test_the_mail_map_is_the_composite_and_smaller_than_the_whole_conversion() -> None:
    snap = movement()
    png = map_png("storm", "S1901M", snap, snap["results"],
                  {"dislodged": snap["dislodged"]})
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert Image.open(io.BytesIO(png)).mode == "P"  # the variant's palette
    assert len(png) < len(render_png(render_svg(snap))) / 2
