"""The SVG map of one phase: provinces, centre ownership, units, and orders as arrows.

Pure: a ``MapSnapshot`` (or the plain dict it is read from) in, SVG text out. Every text that
reaches the SVG is escaped, because order texts can come from players.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.geography import Board
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
from judge.i18n import N_, tr
from judge.maps import style
from judge.maps.layout import UNPLAYED_LAND, UNPLAYED_WATER, Layout, Point, variant_layout
from judge.maps.scene import DrawnOrder, MapSnapshot
from judge.parsing.commands_lexicon import lexicon

_SEASONS = {"S": N_("Spring"), "F": N_("Fall"), "W": N_("Winter")}
_KINDS = {"M": N_("Movement"), "R": N_("Retreats"), "A": N_("Adjustments")}
# retreating units stand beside the unit that took their province
_RETREAT_OFFSET = (15.0, 13.0)


def render_svg(snapshot: MapSnapshot | Mapping[str, Any]) -> str:
    """The map of ``snapshot`` as a standalone SVG document."""
    snap = snapshot if isinstance(snapshot, MapSnapshot) else MapSnapshot.from_dict(snapshot)
    return draw_svg(snap, variant_layout(snap.variant), _board(snap.variant))


def draw_svg(snap: MapSnapshot, layout: Layout, board: Board) -> str:
    """The map of ``snap`` on ``layout`` (a drawing) for ``board`` (its map)."""
    parts: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {layout.width} {layout.height}" '
        f'data-variant={quoteattr(snap.variant)} '
        f'width="{layout.width}" height="{layout.height}" '
        'font-family="DejaVu Sans, Verdana, Arial, sans-serif" role="img" '
        f'aria-label={quoteattr(_title(snap))}>',
        f"<title>{escape(_title(snap))}</title>",
        _defs(snap.variant),
        f'<rect width="{layout.width}" height="{layout.height}" fill="{style.SEA}"/>',
    ]
    parts.append(_provinces(layout, snap, board))
    parts.append(_borders(layout))
    parts.append(_labels(layout, board, snap.language))
    parts.append(_coasts(layout, board, snap.language))
    parts.append(_centres(layout, snap, board))
    parts.append(_orders(layout, snap))
    parts.append(_units(layout, snap, board.powers))
    parts.append(_caption(snap))
    parts.append(_credits(layout))
    parts.append("</svg>")
    return "\n".join(p for p in parts if p)


def _title(snap: MapSnapshot) -> str:
    ph, lang = snap.phase, snap.language
    text = tr(lang, "%(season)s %(year)s %(kind)s", season=tr(lang, _SEASONS[ph.season.value]),
              year=ph.year, kind=tr(lang, _KINDS[ph.kind.value]))
    return tr(lang, "%(game)s: %(phase)s", game=snap.title, phase=text) if snap.title else text


def _power(power: str, lang: str, variant: str) -> str:
    # the power's name on the variant's map (its map.json's "powers")
    return str(lexicon().power_name(power, lang, variant))


def _label(code: str, board: Board, lang: str) -> str:
    """A province's short code in the map's language (``MDN`` for the North Sea in Italian);
    a coast's in the language too (``cn`` in French for the north coast)."""
    if "/" in code:
        province, coast = code.split("/", 1)
        names = board.coast_names.get(code, {}).get(lang, {})
        for abbr in names.get("abbr") or []:
            # "STP CN", "Bul(ec)": the part after the province's own code
            rest = abbr[len(province):].strip(" ()").lower()
            if rest:
                return str(rest)
        return coast.lower()
    province_data = board.provinces.get(code)
    abbrs = province_data.names.get(lang, {}).get("abbr") if province_data else None
    return str(abbrs[0]).upper() if abbrs else code


def _defs(variant: str) -> str:
    colours = {**style.power_colours(variant), "RETREAT": style.RETREAT}
    out = ["<defs>"]
    for name, colour in colours.items():
        out.append(
            f'<marker id="arrow-{name}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4.5" '
            f'markerHeight="4.5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
            f'fill="{colour}"/></marker>'
        )
        out.append(
            f'<marker id="dot-{name}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="5" '
            f'markerHeight="5"><circle cx="5" cy="5" r="3.5" fill="white" stroke="{colour}" '
            'stroke-width="2"/></marker>'
        )
    out.append("</defs>")
    return "".join(out)


def _board(variant: str) -> Board:
    """The map of ``variant`` (its own folder's, or the one its ``variant.json`` names)."""
    return installed_variant(variant).board


def _provinces(layout: Layout, snap: MapSnapshot, board: Board) -> str:
    out = ['<g class="provinces" stroke="none">']
    for key, fill in ((UNPLAYED_WATER, style.SEA), (UNPLAYED_LAND, style.OFFBOARD)):
        if key in layout.paths:
            out.append(f'<path class="unplayed" d="{layout.paths[key]}" fill="{fill}"/>')
    for code in sorted(board.provinces):
        if code not in layout.paths:
            continue
        kind = layout.kind(code)
        if kind == "sea":
            fill = style.SEA
        elif kind == "impassable":
            fill = style.IMPASSABLE
        elif board.provinces[code].supply_center and code in snap.centers:
            fill = style.power_tint(snap.variant, snap.centers[code])
        else:
            fill = style.LAND
        x, y = layout.anchor(code)
        name = _name(code, board, snap.language)
        # data-province and its unit's data-x/y: what the play page's script reads (i15play)
        out.append(
            f'<path class="province {kind}" data-province="{code}" data-x="{x:.1f}" '
            f'data-y="{y:.1f}" d="{layout.paths[code]}" fill="{fill}" fill-rule="evenodd">'
            f"<title>{escape(name)}</title></path>"
        )
    out.append("</g>")
    return "".join(out)


def _name(code: str, board: Board, lang: str) -> str:
    province = board.provinces.get(code)
    names = province.names.get(lang) or province.names.get("en") if province else None
    return str(names.get("name") or code) if names else code


def _borders(layout: Layout) -> str:
    land: list[str] = []
    coast: list[str] = []
    sea: list[str] = []
    for pair, edges in layout.borders.items():
        kinds = {layout.kind(o) for o in pair}
        if "sea" in kinds and kinds & {"offboard", "land", "coast", "impassable"}:
            target = coast
        elif kinds == {"sea"}:
            target = sea
        elif UNPLAYED_WATER in pair:
            target = coast
        else:
            target = land
        target.append(_polylines(edges))
    return (
        f'<path class="sea-borders" d="{"".join(sea)}" stroke="#8fb3cf" stroke-width="1" '
        'fill="none" stroke-dasharray="5 3"/>'
        f'<path class="land-borders" d="{"".join(land)}" stroke="{style.BORDER}" '
        'stroke-width="0.9" fill="none" stroke-linejoin="round"/>'
        f'<path class="coast" d="{"".join(coast)}" stroke="{style.COAST}" stroke-width="1.3" '
        'fill="none" stroke-linejoin="round"/>'
    )


def _polylines(edges: list[tuple[Point, Point]]) -> str:
    """Path data for a border's edges, chained into as few polylines as their order allows."""
    out: list[str] = []
    last: Point | None = None
    for p, q in edges:
        if p != last:
            out.append(f"M{p[0]:g},{p[1]:g}")
        out.append(f"L{q[0]:g},{q[1]:g}")
        last = q
    return "".join(out)


def _labels(layout: Layout, board: Board, lang: str) -> str:
    out = [f'<g class="labels" font-size="10" fill="{style.LABEL}" text-anchor="middle">']
    for code in sorted(layout.labels):
        if code not in board.provinces or layout.kind(code) == "impassable":
            continue
        x, y = layout.labels[code]
        label = escape(_label(code, board, lang))
        weight = ' font-weight="bold"' if layout.kind(code) != "sea" else ' font-style="italic"'
        out.append(f'<text x="{x:.1f}" y="{y + 3.5:.1f}"{weight}>{label}</text>')
    out.append("</g>")
    return "".join(out)


def _coasts(layout: Layout, board: Board, lang: str) -> str:
    """A small mark with its short name on each split coast (where a fleet there stands)."""
    out = [f'<g class="coasts" font-size="8" fill="{style.COAST}" text-anchor="middle">']
    for code, (x, y) in sorted(layout.coasts.items()):
        label = escape(_label(code, board, lang))
        out.append(
            f'<g class="coast-mark" data-coast="{code}" data-x="{x:.1f}" data-y="{y:.1f}">'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="none" stroke="{style.COAST}" '
            f'stroke-width="1.2"/><text x="{x:.1f}" y="{y + 11:.1f}">{label}</text></g>'
        )
    out.append("</g>")
    return "".join(out)


def _centres(layout: Layout, snap: MapSnapshot, board: Board) -> str:
    out = ['<g class="centres">']
    for centre in sorted(board.supply_centers):
        x, y = centre_point(layout, centre)
        owner = snap.centers.get(centre)
        fill = style.power_colour(snap.variant, owner, "#ffffff")
        held_by = _power(owner, snap.language, snap.variant) if owner else tr(snap.language, "neutral")
        title = f"{_label(centre, board, snap.language)}: {held_by}"
        out.append(_centre_svg((x, y), fill, title))
    out.append("</g>")
    return "".join(out)


def centre_point(layout: Layout, centre: str) -> Point:
    """Where a supply centre's marker is drawn."""
    return layout.centres.get(centre) or _offset(layout.anchor(centre))


def _centre_svg(at: Point, fill: str, title: str = "") -> str:
    """One supply centre's marker (also drawn alone, as the mail map's sprite)."""
    x, y = at
    tip = f"<title>{escape(title)}</title>" if title else ""
    return (
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5" fill="{fill}" stroke="#222" '
        f'stroke-width="1.2">{tip}</circle>'
    )


def _offset(p: Point) -> Point:
    return (p[0] + 20, p[1] - 18)


def _toward(p: Point, q: Point, gap: float) -> Point:
    """The point ``gap`` short of ``q`` on the segment from ``p``."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy) or 1.0
    return (q[0] - dx / length * gap, q[1] - dy / length * gap)


def _stroke(power: str, succeeded: bool | None, variant: str) -> tuple[str, str]:
    colour = style.power_colour(variant, power, "#000")
    dash = ' stroke-dasharray="7 5"' if succeeded is False else ""
    return colour, dash


def _order_svg(layout: Layout, snap: MapSnapshot, drawn: DrawnOrder, retreating: set[str]) -> str:
    order, power = drawn.order, drawn.power
    colour, dash = _stroke(power, drawn.succeeded, snap.variant)
    css = "failed" if drawn.succeeded is False else "order"
    title = f"<title>{escape(_power(power, snap.language, snap.variant))}: {escape(drawn.text)}</title>"
    if isinstance(order, Move):
        a, b = layout.anchor(order.location), layout.anchor(order.target)
        end = _toward(a, b, 13)
        start = _toward(b, a, 11)
        return (
            f'<path class="{css} move" d="M{start[0]:.1f},{start[1]:.1f}L{end[0]:.1f},{end[1]:.1f}" '
            f'stroke="{colour}" stroke-width="3.2" fill="none"{dash} '
            f'marker-end="url(#arrow-{power})">{title}</path>'
        )
    if isinstance(order, SupportMove):
        a = layout.anchor(order.location)
        s, t = layout.anchor(order.supported), layout.anchor(order.target)
        mid = ((s[0] + t[0]) / 2, (s[1] + t[1]) / 2)
        end = _toward(mid, t, 14)
        start = _toward(mid, a, 11)
        return (
            f'<path class="{css} support" d="M{start[0]:.1f},{start[1]:.1f}Q{mid[0]:.1f},{mid[1]:.1f} '
            f'{end[0]:.1f},{end[1]:.1f}" stroke="{colour}" stroke-width="1.8" fill="none"{dash} '
            f'stroke-opacity="0.9" marker-end="url(#dot-{power})">{title}</path>'
        )
    if isinstance(order, SupportHold):
        a, s = layout.anchor(order.location), layout.anchor(order.supported)
        end, start = _toward(a, s, 15), _toward(s, a, 11)
        return (
            f'<path class="{css} support" d="M{start[0]:.1f},{start[1]:.1f}L{end[0]:.1f},{end[1]:.1f}" '
            f'stroke="{colour}" stroke-width="1.8" fill="none"{dash} '
            f'marker-end="url(#dot-{power})">{title}</path>'
        )
    if isinstance(order, Convoy):
        a = layout.anchor(order.location)
        s, t = layout.anchor(order.army), layout.anchor(order.target)
        mid = ((s[0] + t[0]) / 2, (s[1] + t[1]) / 2)
        start = _toward(mid, a, 11)
        # dotted so a convoy reads differently from a support at a glance
        pattern = dash or ' stroke-dasharray="2 3"'
        return (
            f'<path class="{css} convoy" d="M{start[0]:.1f},{start[1]:.1f}L{mid[0]:.1f},{mid[1]:.1f}" '
            f'stroke="{colour}" stroke-width="2.2" fill="none"{pattern} stroke-linecap="round" '
            f'marker-end="url(#dot-{power})">{title}</path>'
        )
    if isinstance(order, Hold):
        x, y = layout.anchor(order.location)
        return (
            f'<circle class="{css} hold" cx="{x:.1f}" cy="{y:.1f}" r="15.5" fill="none" '
            f'stroke="{colour}" stroke-width="2"{dash}>{title}</circle>'
        )
    if isinstance(order, Retreat):
        a = _shifted(layout.anchor(order.location), order.location in retreating)
        b = layout.anchor(order.target)
        end = _toward(a, b, 13)
        return (
            f'<path class="{css} retreat" d="M{a[0]:.1f},{a[1]:.1f}L{end[0]:.1f},{end[1]:.1f}" '
            f'stroke="{style.RETREAT}" stroke-width="3" fill="none"{dash} '
            f'marker-end="url(#arrow-RETREAT)">{title}</path>'
        )
    if isinstance(order, Disband):
        x, y = _shifted(layout.anchor(order.location), order.location in retreating)
        return (
            f'<path class="{css} disband" d="M{x - 10:.1f},{y - 10:.1f}L{x + 10:.1f},{y + 10:.1f}'
            f'M{x - 10:.1f},{y + 10:.1f}L{x + 10:.1f},{y - 10:.1f}" stroke="{style.FAILED}" '
            f'stroke-width="3.5" stroke-linecap="round">{title}</path>'
        )
    if isinstance(order, Build):
        x, y = layout.anchor(order.location)
        ghost = _unit_svg(Unit(power, order.unit_type, order.location), (x, y), extra=' opacity="0.75"',
                          lang=snap.language, variant=snap.variant)
        return (
            f'<g class="{css} build">{title}<circle cx="{x:.1f}" cy="{y:.1f}" r="16" fill="none" '
            f'stroke="{colour}" stroke-width="2" stroke-dasharray="3 2"/>{ghost}</g>'
        )
    return ""  # WAIVE draws nothing


def _shifted(p: Point, moved: bool) -> Point:
    return (p[0] + _RETREAT_OFFSET[0], p[1] + _RETREAT_OFFSET[1]) if moved else p


def drawing_order(snap: MapSnapshot) -> tuple[list[DrawnOrder], set[str]]:
    """The orders in the order they are drawn, and the places of units waiting to retreat
    (drawn beside the unit now there)."""
    retreating = {u.location for u in snap.dislodged} if snap.phase.is_retreat else set()
    # supports and convoys under moves, so the moves stay readable
    rank = {SupportMove: 0, SupportHold: 0, Convoy: 0, Hold: 1, Move: 2, Retreat: 2}
    return sorted(snap.orders, key=lambda d: rank.get(type(d.order), 3)), retreating


def _orders(layout: Layout, snap: MapSnapshot) -> str:
    ordered, retreating = drawing_order(snap)
    body = "".join(_order_svg(layout, snap, d, retreating) for d in ordered)
    return f'<g class="orders" stroke-linecap="round">{body}</g>'


def _unit_svg(
    unit: Unit, at: Point, extra: str = "", lang: str = "en", variant: str = "standard",
    place: str = "",
) -> str:
    x, y = at
    colour = style.power_colour(variant, unit.power, "#000")
    ink = style.ink_on(colour) if len(colour) == 7 else "#fff"
    r = style.UNIT_RADIUS
    if unit.type is UnitType.ARMY:
        shape = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{colour}" stroke="#fff" stroke-width="1.6"/>'
    else:
        shape = (
            f'<rect x="{x - r - 3:.1f}" y="{y - r + 2:.1f}" width="{2 * r + 6:.1f}" '
            f'height="{2 * r - 4:.1f}" rx="6" fill="{colour}" stroke="#fff" stroke-width="1.6"/>'
        )
    label = (
        f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="11" font-weight="bold" fill="{ink}" '
        f'text-anchor="middle">{unit.type.value}</text>'
    )
    # the province's full name too: the unit covers the province's own tooltip (issue 29)
    named = f" ({place})" if place else ""
    title = (f"<title>{escape(_power(unit.power, lang, variant))}: {escape(str(unit))}"
             f"{escape(named)}</title>")
    return (
        f'<g class="unit" data-unit={quoteattr(str(unit))} data-power={quoteattr(unit.power)}{extra}>'
        f"{title}{shape}{label}</g>"
    )


def _light(colour: str) -> bool:
    """Whether dark ink reads better than white on ``colour`` (Turkey's yellow, France's blue)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b > 140


def _units(layout: Layout, snap: MapSnapshot, powers: tuple[str, ...]) -> str:
    out = ['<g class="units">']
    rank = {p: i for i, p in enumerate(powers)}
    board = _board(snap.variant)

    def place(unit: Unit) -> str:
        return _name(unit.location.split("/")[0], board, snap.language)
    for unit in sorted(snap.units, key=lambda u: (rank.get(u.power, len(rank)), u.location)):
        out.append(_unit_svg(unit, layout.anchor(unit.location), lang=snap.language,
                             variant=snap.variant, place=place(unit)))
    for unit in snap.dislodged:
        at = layout.anchor(unit.location)
        if snap.phase.is_retreat:
            at = _shifted(at, True)
            # the unit waiting to retreat, told apart from the one now in its province
            out.append(_unit_svg(unit, at, extra=' data-dislodged="true"', lang=snap.language,
                                 variant=snap.variant, place=place(unit)))
        x, y = at
        # a red ring marks a unit dislodged (movement map) or waiting to retreat
        ring = tr(snap.language, "dislodged: %(unit)s", unit=str(unit))
        out.append(_ring_svg((x, y), ring))
    out.append("</g>")
    return "".join(out)


def _ring_svg(at: Point, title: str = "") -> str:
    """The red ring around a dislodged unit (also drawn alone, as the mail map's sprite)."""
    x, y = at
    tip = f"<title>{escape(title)}</title>" if title else ""
    return (
        f'<circle class="dislodged" cx="{x:.1f}" cy="{y:.1f}" r="15" fill="none" '
        f'stroke="{style.FAILED}" stroke-width="2.5" stroke-dasharray="4 2">{tip}</circle>'
    )


def _credits(layout: Layout) -> str:
    """The drawing's own credits (an imported map's maker, title and licence), bottom right."""
    if not layout.credits:
        return ""
    lines = "".join(
        f'<text x="{layout.width - 6}" y="{layout.height - 6 - 10 * i}">{escape(text)}</text>'
        for i, text in enumerate(reversed(layout.credits))
    )
    # on a pale box, so that they read over the map's own names (DejaVu Sans 8px: under 5px a
    # character)
    width = 8 + 4.6 * max(len(text) for text in layout.credits)
    height = 6 + 10 * len(layout.credits)
    return (f'<g class="credits" font-size="8" fill="{style.LABEL}" text-anchor="end">'
            f'<rect x="{layout.width - width:.0f}" y="{layout.height - height:.0f}" '
            f'width="{width:.0f}" height="{height}" fill="#ffffff" fill-opacity="0.75"/>'
            f'{lines}</g>')


def _caption(snap: MapSnapshot) -> str:
    title = _title(snap)
    text = escape(title)
    # bold 15px DejaVu Sans averages under 9.5px a character
    width = min(600, 24 + 9.5 * len(title))
    return (
        f'<g class="caption"><rect x="8" y="8" width="{width:.0f}" height="28" rx="5" fill="#ffffff" '
        f'fill-opacity="0.85" stroke="{style.BORDER}"/><text x="18" y="28" font-size="15" '
        f'font-weight="bold" fill="{style.LABEL}">{text}</text></g>'
    )
