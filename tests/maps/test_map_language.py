"""Issue 13 point 9: a map says its title, province codes and tooltips in the game's language."""

from __future__ import annotations

import re

import pytest

from judge.maps import render_svg, snapshot_from_turn

POSITION = {"units": {"ITALY": ["A VEN", "F NAP"], "RUSSIA": ["F STP/SC"]},
            "centers": {"ITALY": ["VEN"]}}
EXPECTED = {
    "it": ("roma: Autunno 1901 Movimenti", "MDN", "VEN: Italia", "ANK: neutrale"),
    "fr": ("roma : Automne 1901 Mouvements", "NRD", "VEN: Italie", "ANK: neutre"),
    "en": ("roma: Fall 1901 Movement", "NTH", "VEN: Italy", "ANK: neutral"),
}


@pytest.mark.parametrize("lang", ["it", "fr", "en"])
def test_title_labels_and_centres_in_the_language(lang: str) -> None:
    snap = snapshot_from_turn("F1901M", POSITION, None, None)
    snap["title"], snap["language"] = "roma", lang
    svg = render_svg(snap)
    title, north_sea, venice, ankara = EXPECTED[lang]
    assert f"<title>{title}</title>" in svg
    assert f">{north_sea}<" in svg
    titles = re.findall(r"<title>([^<]*)</title>", svg)
    assert any(t.endswith(venice.split(": ")[1]) and t.startswith("VEN") for t in titles)
    assert ankara.split(": ")[1] in " ".join(titles)


# the unit and order tooltips name the power in the game's language too
UNIT_TITLES = {"it": ("Italia: A VEN", "Russia: F STP/SC", "Italia: A VEN - "),
               "fr": ("Italie: A VEN", "Russie: F STP/SC", "Italie: A VEN - "),
               "en": ("Italy: A VEN", "Russia: F STP/SC", "Italy: A VEN - ")}


@pytest.mark.parametrize("lang", ["it", "fr", "en"])
def test_unit_and_order_tooltips_name_the_power_in_the_language(lang: str) -> None:
    orders = {"ITALY": [{"order": "A VEN - TYR", "result": "succeeds"}]}
    snap = snapshot_from_turn("S1901M", POSITION, orders, None)
    snap["language"] = lang
    titles = re.findall(r"<title>([^<]*)</title>", render_svg(snap))
    unit, russia, order = UNIT_TITLES[lang]
    # the unit's tooltip names its province in full too (it covers the province's own)
    place = {"it": "Venezia", "fr": "Venise", "en": "Venice"}[lang]
    assert f"{unit} ({place})" in titles
    assert any(t.startswith(russia + " (") for t in titles), titles
    assert any(t.startswith(order) for t in titles), titles
    if lang != "en":
        assert not any(t.startswith("Italy:") for t in titles)
