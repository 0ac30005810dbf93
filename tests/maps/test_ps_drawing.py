"""judge.maps.ps_drawing: a DPjudge-style PostScript map into drawing.json, through Ghostscript.

A small drawing in dpmap's shape (a landscape page set-up, a map mode with its own scale and
clip, a form painting a land rectangle, a filled sea and a border that stops short of the
coast) is converted for real: Ghostscript runs it and Shapely polygonizes what it painted.
"""

from __future__ import annotations

import importlib.util
import shutil

import pytest

from tests.conftest import services_required  # noqa: E402

# CI installs both (the test extra pulls in the maps extra; .ci/run installs ghostscript): a
# missing one fails there instead of skipping.
for _missing in (
    "the drawing importer needs the maps extra (Shapely)"
    if importlib.util.find_spec("shapely") is None else "",
    "Ghostscript (gs) is not installed" if shutil.which("gs") is None else "",
):
    if _missing and services_required():
        pytest.fail(f"required service missing: {_missing}", pytrace=False)
    if _missing:  # pragma: no cover - a developer machine without them
        pytest.skip(_missing, allow_module_level=True)

from judge.adjudicator.map_import import power_colours  # noqa: E402
from judge.maps.layout import layout_from_json  # noqa: E402
from judge.maps.ps_drawing import PsDrawingError, drawing_from_ps  # noqa: E402

PS = """%!PS-Adobe-3.0
%%Title: Diplomacy Map (Test Land, designed by Someone)
%%Creator: dpmap, by hand
%%Orientation: Landscape
%%EndComments

% INFO
%   30   50 AAA    Alpha
%  150   50 BBB    Beta
%  100  150 SEA    The Sea
%  140   90 BBB/NC Beta (north coast)
% MAP

/bd { bind def } bind def
/InTextMode true def
/PageSetup { 612 0 translate 90 rotate } bd
/SwitchToMapMode {
    InTextMode { /InTextMode false def gsave 20 30 translate 1.5 1.5 scale
                 0 0 200 200 rectclip } if
} bd
/VisitColors { 3 dict begin /c exch def /r exch def /g exch def
    /Red 1 0 0 r
    /Grey .5 g
end } def
/VisitPowers { 1 dict begin /p exch def
    /UNOWNED (?) /Grey /White p
    /ALPHANS (A) /Red /Black p
end } def
/VisitSupplies { 1 dict begin /s exch def
    /AAA 55 40 s
end } def
/MapForm <<
    /FormType 1 /Matrix [ 2 0 0 2 0 0 ] /BBox [ 0 0 100 100 ]
    /PaintProc { pop
        [ 2 0 0 2 0 0 ] matrix invertmatrix concat
        .8 .7 .4 setrgbcolor 0 0 200 200 rectfill
        newpath 0 100 moveto 200 100 lineto 200 200 lineto 0 200 lineto closepath
        gsave .1 .4 .6 setrgbcolor fill grestore 0 setgray 1 setlinewidth stroke
        newpath 100 0 moveto 100 99.8 lineto stroke
        /Helvetica findfont 6 scalefont setfont 4 4 moveto (Drawn by A. Maker) show
    } bind
>> def
/DrawMap { PageSetup SwitchToMapMode MapForm execform } bd
"""
CODES = ["AAA", "BBB", "SEA"]


def test_the_drawing_becomes_areas_labels_and_credits() -> None:
    drawing = drawing_from_ps(PS, CODES, variant="test")
    assert set(drawing["provinces"]) == set(CODES)
    scale = 1100 / 200  # the map's 200 units become the drawing's 1100 pixels
    assert (drawing["width"], drawing["height"]) == (1100, 1100)
    # map coordinates (y up), not the rotated landscape page's: the unit where % INFO puts it
    assert drawing["provinces"]["AAA"]["unit"] == [30 * scale, (200 - 50) * scale]
    assert drawing["provinces"]["AAA"]["centre"] == [55 * scale, (200 - 40) * scale]
    assert drawing["coasts"] == {"BBB/NC": [140 * scale, (200 - 90) * scale]}
    assert "DPjudge" in drawing["source"] and "MIT" in drawing["source"]
    assert drawing["credits"][:2] == ["Diplomacy Map (Test Land, designed by Someone)",
                                      "dpmap, by hand"]
    assert "Drawn by A. Maker" in drawing["credits"]
    assert any("MIT licence" in line for line in drawing["credits"])
    layout = layout_from_json(drawing, {"AAA": "coast", "BBB": "coast", "SEA": "sea"})
    # one coverage: the border stopping 0.2 short of the coast was joined to it, so the land
    # is two provinces split there (not half way between their labels, at x 90), each
    # sharing a border with the other and with the sea
    assert {frozenset(p) for p in (("AAA", "BBB"), ("AAA", "SEA"), ("BBB", "SEA"))} <= set(layout.borders)
    xs = [x for ring in layout.rings["AAA"] for x, _ in ring]
    ys = [y for ring in layout.rings["AAA"] for _, y in ring]
    assert min(xs) == 0 and max(xs) == pytest.approx(550, abs=2)
    assert min(ys) == pytest.approx(550, abs=2) and max(ys) == 1100
    for code in CODES:
        x, y = layout.labels[code]
        assert 0 <= x <= 1100 and 0 <= y <= 1100


def test_a_province_the_drawing_does_not_label_is_named() -> None:
    with pytest.raises(PsDrawingError, match="CCC"):
        drawing_from_ps(PS, [*CODES, "CCC"])
    # unless it is impassable: then it is left out
    drawing = drawing_from_ps(PS, [*CODES, "CCC"], impassable=["CCC"])
    assert "CCC" not in drawing["provinces"]


def test_a_code_the_drawing_spells_otherwise_is_found_by_name() -> None:
    drawing = drawing_from_ps(PS, ["AAA", "BET", "SEA"], names={"BET": "Beta"})
    assert set(drawing["provinces"]) == {"AAA", "BET", "SEA"}
    assert "BET/NC" in drawing["coasts"]


def test_a_drawing_the_converter_cannot_read_is_refused() -> None:
    with pytest.raises(PsDrawingError, match="neither dpmap's"):
        drawing_from_ps("%!PS-Adobe-2.0\n/Other { } def\n", CODES)
    with pytest.raises(PsDrawingError, match="paints nothing"):
        drawing_from_ps("%!PS-Adobe-2.0\n/DrawMap { } def\n", CODES)


def test_the_powers_colours_come_from_the_drawing() -> None:
    # the importer reads them (judge.adjudicator.map_import) for map.json's "powers"
    assert power_colours(PS) == {"ALPHANS": "#ff0000"}
