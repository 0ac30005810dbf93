"""The mail map's PNG, composited from layers drawn once per process (issue 16).

Converting the whole SVG of a phase with CairoSVG cost about 300 ms on an idle core (1.8 s
under a storm's load), almost all of it CairoSVG parsing and stroking the province shapes and
borders again for every phase, although they never change. Here the parts of ``svg.py``'s
drawing that do not change are rasterised once per process by CairoSVG, from the same SVG
markup (so the look is the same), and each phase only paints over them what the position says:

1. ``under``: the sea and every province in its neutral colour (per variant);
2. the tint of each supply-centre province a power owns, through that province's mask (its
   shape from ``drawing.json``, filled by cairo once per process, even-odd like the SVG);
3. ``over``: borders, province labels and split-coast marks, transparent elsewhere (per variant
   and language: the labels are in the game's language);
4. centre markers, units and dislodged rings: small sprites rendered by CairoSVG from
   ``svg.py``'s own markup once per colour, painted at their place (rounded to the pixel);
5. the orders and the caption: the only per-phase SVG left, converted by CairoSVG (a few dozen
   elements instead of the whole board);

then the picture is mapped on a palette of 64 colours made once per variant (the map's
colours are flat; the PNG is a third of the size, and every recipient's mail carries it) and
encoded by Pillow.

The layers are composited with cairo (through cairocffi, which CairoSVG itself draws with):
pixman's compositing of whole surfaces costs a few milliseconds. The archive's SVG (and its
PNG) stay ``svg.render_svg`` whole. Pure: bytes in memory, no I/O.
"""

from __future__ import annotations

import io
import math
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cairocffi as cairo
from cairosvg.parser import Tree
from cairosvg.surface import PNGSurface
from PIL import Image

from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
)
from judge.maps import style
from judge.maps import svg as drawing
from judge.maps.layout import Layout, Point, variant_layout
from judge.maps.scene import DrawnOrder, MapSnapshot

# sprites are drawn centred on this point of a square this size
_SPRITE = 48
_MID = _SPRITE // 2
_FONT = 'font-family="DejaVu Sans, Verdana, Arial, sans-serif"'
# the caption's box ends at x 608 at most and y 36 (svg._caption); its layer is that small
_CAPTION = (620, 44)
# the PNG's palette: 64 colours keep the anti-aliased edges and text smooth (fewer pixels
# off the whole conversion by much than with 128: tests/maps/test_composite.py) in a PNG 15%
# smaller than with 128, a fourth of the whole conversion's; every recipient's mail carries it
PALETTE = 64


def _document(width: int, height: int, body: str) -> bytes:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" {_FONT}>{body}</svg>').encode()


def _rasterise(width: int, height: int, body: str) -> cairo.ImageSurface:
    """SVG markup drawn by CairoSVG on a transparent surface (kept in memory, no PNG)."""
    surface = PNGSurface(Tree(bytestring=_document(width, height, body)), None, 96).cairo
    surface.flush()
    return surface


@dataclass(frozen=True)
class _Mask:
    x: int
    y: int
    surface: cairo.ImageSurface  # A8: the province's shape, anti-aliased


@dataclass(frozen=True)
class _Board:
    """What does not change between the phases of one variant."""

    layout: Layout
    under: cairo.ImageSurface
    masks: dict[str, _Mask]  # tintable supply-centre provinces


def _mask(layout: Layout, code: str) -> _Mask:
    points = [p for ring in layout.rings[code] for p in ring]
    x0, y0 = int(min(p[0] for p in points)) - 1, int(min(p[1] for p in points)) - 1
    x1, y1 = int(max(p[0] for p in points)) + 2, int(max(p[1] for p in points)) + 2
    surface = cairo.ImageSurface(cairo.FORMAT_A8, x1 - x0, y1 - y0)
    ctx = cairo.Context(surface)
    ctx.translate(-x0, -y0)
    ctx.set_fill_rule(cairo.FILL_RULE_EVEN_ODD)  # as the SVG's fill-rule="evenodd"
    for ring in layout.rings[code]:
        ctx.move_to(*ring[0])
        for p in ring[1:]:
            ctx.line_to(*p)
        ctx.close_path()
    ctx.fill()
    surface.flush()
    return _Mask(x0, y0, surface)


def _first_phase(variant: str) -> str:
    """The variant's first phase (standard-2 starts in 1914): a snapshot needs a phase, and
    the layers drawn once show none of it."""
    return str(installed_variant(variant).first_phase)


@lru_cache(maxsize=4)
def _board(variant: str) -> _Board:
    layout = variant_layout(variant)
    board = drawing._board(variant)
    neutral = MapSnapshot.from_dict({"phase": _first_phase(variant), "variant": variant})
    under = _rasterise(layout.width, layout.height,
                       f'<rect width="{layout.width}" height="{layout.height}" '
                       f'fill="{style.SEA}"/>' + drawing._provinces(layout, neutral, board))
    # a province the drawing leaves out (an impassable one it does not label) has no mask
    masks = {code: _mask(layout, code) for code in board.supply_centers
             if layout.rings.get(code) and layout.kind(code) not in ("sea", "impassable")}
    return _Board(layout, under, masks)


@lru_cache(maxsize=8)
def _over(variant: str, language: str) -> cairo.ImageSurface:
    layout = variant_layout(variant)
    board = drawing._board(variant)
    return _rasterise(layout.width, layout.height, drawing._borders(layout)
                      + drawing._labels(layout, board, language)
                      + drawing._coasts(layout, board, language) + drawing._credits(layout))


@lru_cache(maxsize=256)
def _sprite(kind: str, power: str, variant: str, extra: str = "") -> cairo.ImageSurface:
    """A centre marker (``power`` its owner, "" neutral), a unit (``kind`` A or F), or the
    dislodged ring, drawn by ``svg.py``'s markup at the sprite's middle, in the colours of
    ``variant``'s powers."""
    at = (float(_MID), float(_MID))
    if kind == "centre":
        body = drawing._centre_svg(at, style.power_colour(variant, power, "#ffffff"))
    elif kind == "ring":
        body = drawing._ring_svg(at)
    else:
        body = drawing._unit_svg(Unit(power, UnitType(kind), "X"), at, extra=extra,
                                 variant=variant)
    return _rasterise(_SPRITE, _SPRITE, body)


def _paint(ctx: cairo.Context, sprite: cairo.ImageSurface, at: tuple[float, float]) -> None:
    # on whole pixels: a sprite painted between pixels would be resampled (blurred); half a
    # pixel off is not seen at this scale
    ctx.set_source_surface(sprite, round(at[0]) - _MID, round(at[1]) - _MID)
    ctx.paint()


def _hex_bytes(colour: str) -> tuple[int, int, int]:
    value = colour.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


def _hex(colour: str) -> tuple[float, float, float]:
    value = colour.lstrip("#")
    return (int(value[0:2], 16) / 255, int(value[2:4], 16) / 255, int(value[4:6], 16) / 255)


# --------------------------------------------------------------------------- the orders
# The orders are drawn with cairo itself: through CairoSVG, the arrows of one phase cost more
# than everything else together (parsing markup and marker definitions every time). Each
# shape below is the one ``svg._order_svg`` writes (same points, widths, dashes and markers:
# a marker is scaled by the stroke width, SVG's default markerUnits); tests/maps compares
# the two pictures.


def _arrow(ctx: cairo.Context, at: Point, angle: float, width: float,
           colour: tuple[float, float, float]) -> None:
    """svg._defs' arrow marker: M0,0 L10,5 L0,10 z, 4.5 of 10 units, tip at refX 8, refY 5."""
    ctx.save()
    ctx.translate(*at)
    ctx.rotate(angle)
    ctx.scale(width * 0.45, width * 0.45)
    ctx.translate(-8, -5)
    ctx.move_to(0, 0)
    ctx.line_to(10, 5)
    ctx.line_to(0, 10)
    ctx.close_path()
    ctx.set_source_rgb(*colour)
    ctx.fill()
    ctx.restore()


def _dot(ctx: cairo.Context, at: Point, width: float,
         colour: tuple[float, float, float]) -> None:
    """svg._defs' dot marker: a white circle of radius 3.5 ringed 2 wide, 5 of 10 units."""
    ctx.save()
    ctx.translate(*at)
    ctx.scale(width * 0.5, width * 0.5)
    ctx.new_path()
    ctx.arc(0, 0, 3.5, 0, 2 * math.pi)
    ctx.set_source_rgb(1, 1, 1)
    ctx.fill_preserve()
    ctx.set_line_width(2)
    ctx.set_dash([])
    ctx.set_source_rgb(*colour)
    ctx.stroke()
    ctx.restore()


def _line(ctx: cairo.Context, points: list[Point], width: float,
          colour: tuple[float, float, float], dash: list[float], alpha: float = 1.0,
          curve: bool = False) -> float:
    """Stroke a line (or, ``curve``, a quadratic curve through a control point); returns
    the direction at its end (where the marker points)."""
    ctx.new_path()
    ctx.move_to(*points[0])
    if curve:
        (x0, y0), (qx, qy), (x1, y1) = points
        ctx.curve_to(x0 + 2 / 3 * (qx - x0), y0 + 2 / 3 * (qy - y0),
                     x1 + 2 / 3 * (qx - x1), y1 + 2 / 3 * (qy - y1), x1, y1)
    else:
        for p in points[1:]:
            ctx.line_to(*p)
    ctx.set_line_width(width)
    ctx.set_dash(dash)
    ctx.set_source_rgba(*colour, alpha)
    ctx.stroke()
    (ax, ay), (bx, by) = points[-2], points[-1]
    return math.atan2(by - ay, bx - ax)


def _circle(ctx: cairo.Context, at: Point, radius: float, width: float,
            colour: tuple[float, float, float], dash: list[float]) -> None:
    ctx.new_path()
    ctx.arc(at[0], at[1], radius, 0, 2 * math.pi)
    ctx.set_line_width(width)
    ctx.set_dash(dash)
    ctx.set_source_rgb(*colour)
    ctx.stroke()


def _order(ctx: cairo.Context, layout: Layout, drawn: DrawnOrder, retreating: set[str],
           variant: str) -> None:
    order, power = drawn.order, drawn.power
    colour = _hex(style.power_colour(variant, power, "#000000"))
    dash = [7.0, 5.0] if drawn.succeeded is False else []
    toward, anchor = drawing._toward, layout.anchor
    ctx.set_line_cap(cairo.LINE_CAP_ROUND)  # the orders group's stroke-linecap
    if isinstance(order, Move):
        a, b = anchor(order.location), anchor(order.target)
        end, start = toward(a, b, 13), toward(b, a, 11)
        _arrow(ctx, end, _line(ctx, [start, end], 3.2, colour, dash), 3.2, colour)
    elif isinstance(order, SupportMove):
        a, s, t = anchor(order.location), anchor(order.supported), anchor(order.target)
        mid = ((s[0] + t[0]) / 2, (s[1] + t[1]) / 2)
        end, start = toward(mid, t, 14), toward(mid, a, 11)
        _line(ctx, [start, mid, end], 1.8, colour, dash, alpha=0.9, curve=True)
        _dot(ctx, end, 1.8, colour)
    elif isinstance(order, SupportHold):
        a, s = anchor(order.location), anchor(order.supported)
        end, start = toward(a, s, 15), toward(s, a, 11)
        _line(ctx, [start, end], 1.8, colour, dash)
        _dot(ctx, end, 1.8, colour)
    elif isinstance(order, Convoy):
        a, s, t = anchor(order.location), anchor(order.army), anchor(order.target)
        mid = ((s[0] + t[0]) / 2, (s[1] + t[1]) / 2)
        # dotted so a convoy reads differently from a support at a glance
        _line(ctx, [toward(mid, a, 11), mid], 2.2, colour, dash or [2.0, 3.0])
        _dot(ctx, mid, 2.2, colour)
    elif isinstance(order, Hold):
        _circle(ctx, anchor(order.location), 15.5, 2, colour, dash)
    elif isinstance(order, Retreat):
        a = drawing._shifted(anchor(order.location), order.location in retreating)
        end = toward(a, anchor(order.target), 13)
        red = _hex(style.RETREAT)
        _arrow(ctx, end, _line(ctx, [a, end], 3, red, dash), 3, red)
    elif isinstance(order, Disband):
        x, y = drawing._shifted(anchor(order.location), order.location in retreating)
        red = _hex(style.FAILED)
        _line(ctx, [(x - 10, y - 10), (x + 10, y + 10)], 3.5, red, [])
        _line(ctx, [(x - 10, y + 10), (x + 10, y - 10)], 3.5, red, [])
    elif isinstance(order, Build):
        at = anchor(order.location)
        _circle(ctx, at, 16, 2, colour, [3.0, 2.0])
        sprite = _sprite(order.unit_type.value, power, variant)
        ctx.set_source_surface(sprite, round(at[0]) - _MID, round(at[1]) - _MID)
        ctx.paint_with_alpha(0.75)
    # WAIVE draws nothing


def composite(snap: MapSnapshot) -> cairo.ImageSurface:
    """The map of ``snap`` as a cairo surface (ARGB32, opaque)."""
    # the caches are per process; two threads missing one at once both draw it (no harm)
    board = _board(snap.variant)
    over = _over(snap.variant, snap.language)
    layout = board.layout
    geography = drawing._board(snap.variant)
    out = cairo.ImageSurface(cairo.FORMAT_ARGB32, layout.width, layout.height)
    ctx = cairo.Context(out)
    ctx.set_source_surface(board.under)
    ctx.paint()
    for centre, owner in snap.centers.items():
        mask = board.masks.get(centre)
        tint = style.power_tint(snap.variant, owner, "")
        if mask is not None and tint:
            ctx.set_source_rgb(*_hex(tint))
            ctx.mask_surface(mask.surface, mask.x, mask.y)
    ctx.set_source_surface(over)
    ctx.paint()
    for centre in sorted(geography.supply_centers):
        owner = snap.centers.get(centre) or ""
        known = owner in geography.powers
        _paint(ctx, _sprite("centre", owner if known else "", snap.variant),
               drawing.centre_point(layout, centre))
    ordered, retreating = drawing.drawing_order(snap)
    for drawn in ordered:
        _order(ctx, layout, drawn, retreating, snap.variant)
    rank = {p: i for i, p in enumerate(geography.powers)}
    for unit in sorted(snap.units, key=lambda u: (rank.get(u.power, len(rank)), u.location)):
        _paint(ctx, _sprite(unit.type.value, unit.power, snap.variant),
               layout.anchor(unit.location))
    for unit in snap.dislodged:
        at = layout.anchor(unit.location)
        if snap.phase.is_retreat:
            at = drawing._shifted(at, True)
            _paint(ctx, _sprite(unit.type.value, unit.power, snap.variant), at)
        _paint(ctx, _sprite("ring", "", snap.variant), at)
    ctx.set_source_surface(_rasterise(*_CAPTION, drawing._caption(snap)))
    ctx.paint()
    out.flush()
    return out


def _image(surface: cairo.ImageSurface) -> Image.Image:
    # cairo's ARGB32 is native-endian premultiplied; the map is opaque, so BGRX (little
    # endian, as cairo is on every machine the judge runs on) reads its colours as they are
    return Image.frombuffer("RGB", (surface.get_width(), surface.get_height()),
                            surface.get_data(), "raw", "BGRX",
                            surface.get_stride(), 1)


@lru_cache(maxsize=4)
def _palette(variant: str) -> Image.Image:
    """The variant's 64 colours: every colour of ``style`` exactly, and the rest found once
    by the fast octree in a map where every power owns centres, has armies, fleets and
    orders. Mapping a phase's picture on a fixed palette costs a tenth of
    reducing it afresh, and the map's colours are the same in every phase."""
    geography = drawing._board(variant)
    power_colours = style.power_colours(variant)
    powers = list(geography.powers)
    centres = sorted(geography.supply_centers)
    layout = variant_layout(variant)
    units: dict[str, list[str]] = {}
    results: dict[str, list[dict[str, str]]] = {}
    drawn = [c for c in sorted(geography.provinces) if c in layout.anchors]
    for i, code in enumerate(drawn):
        power = powers[i % len(powers)]
        kind = "F" if layout.kind(code) == "sea" else "A"
        units.setdefault(power, []).append(f"{kind} {code}")
        results.setdefault(power, []).append(
            {"order": f"{kind} {code} H", "result": "fails" if i % 2 else "succeeds"})
    sample = MapSnapshot.from_dict({
        "phase": _first_phase(variant), "variant": variant, "title": "palette",
        "units": units, "results": results,
        "centers": {powers[i % len(powers)]: centres[i::len(powers)] for i in range(len(powers))},
    })
    tints = [style.power_tint(variant, p) for p in powers]
    swatches = [style.SEA, style.LAND, style.IMPASSABLE, style.OFFBOARD, style.BORDER,
                style.COAST, style.LABEL, style.FAILED, style.RETREAT, "#ffffff", "#222222",
                *power_colours.values(), *tints]
    # a map of many powers (Chaos: 34) keeps room for the octree's blended edges
    exact = list(dict.fromkeys(_hex_bytes(c) for c in swatches))[:PALETTE - 16]
    # the rest of the 64: the anti-aliased edges and text, as the octree finds them
    blended = _image(composite(sample)).quantize(PALETTE - len(exact),
                                                  method=Image.Quantize.FASTOCTREE)
    rest = blended.getpalette() or []
    colours = exact + [tuple(rest[i:i + 3]) for i in range(0, 3 * (PALETTE - len(exact)), 3)]
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for colour in colours for v in colour])
    return palette


def warm(variant: str = "standard", language: str = "en") -> None:
    """Draw the cached layers and the palette now (a turn worker does it as it starts, so
    the first turns of a storm do not pay for it)."""
    _board(variant)
    _over(variant, language)
    _palette(variant)
    for kind in ("A", "F"):
        for power in style.power_colours(variant):
            _sprite(kind, power, variant)


def composite_png(snapshot: MapSnapshot | Mapping[str, Any]) -> bytes:
    """The mail map of ``snapshot`` (a ``MapSnapshot`` or the dict it is read from) as a PNG
    of the SVG's size, in the variant's 64 colours."""
    snap = snapshot if isinstance(snapshot, MapSnapshot) else MapSnapshot.from_dict(snapshot)
    palette = _palette(snap.variant)
    # nearest colours, no dithering: flat areas stay flat (and compress)
    image = _image(composite(snap)).quantize(palette=palette, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    # run-length deflate: the map's long runs of one palette entry compress as well as with
    # the default strategy (5% larger) in less than half its time
    image.save(buffer, "PNG", compress_level=6, compress_type=zlib.Z_RLE)
    return buffer.getvalue()
