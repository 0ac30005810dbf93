"""The SVG's data attributes: what the play page's script (issue 15 point 1) reads from the map.

Root ``<svg data-variant viewBox>``; each province's shape ``data-province`` (the map.json code)
with its unit anchor in ``data-x``/``data-y``; each split coast a mark with ``data-coast`` and its
anchor; each unit ``<g class="unit" data-unit="F STP/SC" data-power="RUSSIA">``; the orders'
arrows inside ``<g class="orders">``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from judge.adjudicator.geography import load_board
from judge.adjudicator.jsonio import position_to_json
from judge.maps import render_png, render_svg
from judge.maps.layout import variant_layout
from tests.standard_variant import STANDARD

SVG = "{http://www.w3.org/2000/svg}"


def test_the_svg_names_provinces_coasts_units_and_orders() -> None:
    snap = {
        "phase": "F1901M",
        "units": {"RUSSIA": ["F STP/SC", "A MOS"], "FRANCE": ["F SPA/NC", "A PAR"]},
        "orders": {"RUSSIA": ["A MOS - UKR"], "FRANCE": ["A PAR - BUR"]},
    }
    root = ET.fromstring(render_svg(snap))
    assert root.tag == f"{SVG}svg"
    assert root.get("data-variant") == "standard"
    layout, board = variant_layout("standard"), load_board("standard")
    assert root.get("viewBox") == f"0 0 {layout.width} {layout.height}"

    shapes = {e.get("data-province"): e for e in root.iter() if e.get("data-province")}
    assert set(shapes) == set(board.provinces)
    for code, element in shapes.items():
        x, y = float(element.get("data-x", "nan")), float(element.get("data-y", "nan"))
        assert (round(x, 1), round(y, 1)) == tuple(round(v, 1) for v in layout.anchor(code))
        assert element.get("d"), code  # the shape itself carries the attributes

    coasts = {e.get("data-coast"): e for e in root.iter() if e.get("data-coast")}
    assert set(coasts) == {"STP/NC", "STP/SC", "SPA/NC", "SPA/SC", "BUL/EC", "BUL/SC"}
    for code, element in coasts.items():
        at = (float(element.get("data-x", "nan")), float(element.get("data-y", "nan")))
        assert at == layout.anchors[code]

    units = {
        e.get("data-unit"): e.get("data-power")
        for e in root.iter(f"{SVG}g")
        if "unit" in (e.get("class") or "").split()
    }
    assert units == {"F STP/SC": "RUSSIA", "A MOS": "RUSSIA", "F SPA/NC": "FRANCE", "A PAR": "FRANCE"}

    orders = [e for e in root.iter(f"{SVG}g") if e.get("class") == "orders"]
    assert len(orders) == 1
    moves = [e for e in orders[0] if "move" in (e.get("class") or "").split()]
    assert len(moves) == 2


def test_a_fleet_on_a_split_coast_stands_on_that_coast() -> None:
    snap = {"phase": "S1901M", "units": {"RUSSIA": ["F STP/SC"], "TURKEY": ["F BUL/EC"]}}
    root = ET.fromstring(render_svg(snap))
    layout = variant_layout("standard")
    for unit in root.iter(f"{SVG}g"):
        if "unit" not in (unit.get("class") or "").split():
            continue
        coast = str(unit.get("data-unit")).split()[1]
        shape = unit.find(f"{SVG}rect")
        assert shape is not None  # a fleet
        centre = (float(shape.get("x", "0")) + float(shape.get("width", "0")) / 2,
                  float(shape.get("y", "0")) + float(shape.get("height", "0")) / 2)
        assert abs(centre[0] - layout.anchors[coast][0]) < 0.2
        assert abs(centre[1] - layout.anchors[coast][1]) < 0.2


@pytest.mark.parametrize("variant", ["standard", "pure", "standard-2"])
def test_every_variant_renders_to_png(variant: str) -> None:
    position = STANDARD.initial_position() if variant == "standard" else None
    if position is not None:
        snap = {"phase": "S1901M", **position_to_json(position)}
    else:
        board = load_board("pure" if variant == "pure" else "standard")
        snap = {"phase": "S1901M", "variant": variant,
                "units": {"GERMANY": ["A BER"]} if "BER" in board.provinces else {}}
    svg = render_svg(snap)
    root = ET.fromstring(svg)
    assert root.get("data-variant") == variant
    assert render_png(svg).startswith(b"\x89PNG")
