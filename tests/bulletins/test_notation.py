"""French notation of seed 000 and njudge-style lines for each outcome."""

from __future__ import annotations

import pytest

from judge.bulletins.notation import Mark, classify, render_order
from judge.bulletins.views import order_lines
from tests.bulletins.cases import fall_record


@pytest.mark.parametrize(
    ("order", "mark", "expected"),
    [
        ("A PAR - PIC", Mark.SUCCEEDS, "A PAR=PIC"),
        ("A BUR - PIC", Mark.BOUNCED, "A BOU:PIC"),
        ("A SIL S A PRU - WAR", Mark.CUT, "A SIL s A PRU-VAR"),
        ("F NTH C A LON - BEL", Mark.DISRUPTED, "F NRD c A LON-BEL"),
        ("A VEN H", Mark.SUCCEEDS, "A VEN T"),
        ("A BUR R PAR", Mark.SUCCEEDS, "A BOU r PAR"),
        ("A SIL D", Mark.SUCCEEDS, "A SIL (d)"),
        ("A DEN S F NTH", Mark.VOID, "A DAN S F NRD (v)"),
        ("A CON - BUL", Mark.ILLEGAL, "A CON:BUL (i)"),
    ],
)
def test_french_marks(order: str, mark: Mark, expected: str) -> None:
    assert str(render_order(order, mark, "fr", variant="standard")) == expected


def test_french_adjustments_and_forgotten_unit() -> None:
    assert str(render_order("F MAR B", Mark.SUCCEEDS, "fr", variant="standard", adjustment=True)) == "+ F TOU"
    assert str(render_order("A UKR D", Mark.SUCCEEDS, "fr", variant="standard", adjustment=True)) == "- A UKR"
    assert str(render_order("F STP/NC B", Mark.SUCCEEDS, "fr", variant="standard", adjustment=True)) == "+ F STP CN"
    line = render_order("A VEN H", Mark.SUCCEEDS, "fr", variant="standard", source="generated")
    assert str(line) == "A VEN T (o)"


def test_english_notes() -> None:
    line = render_order("A BUD - GAL", classify("fails", "bounced"), "en", variant="standard")
    assert str(line) == "Army Budapest -> Galicia.  (*bounce*)"
    line = render_order("A RUH H", classify("fails", "dislodged"), "en", variant="standard", dislodged=True)
    assert str(line) == "Army Ruhr HOLD.  (*dislodged*)"
    assert classify("fails", "no_convoy_route") is Mark.NO_CONVOY
    assert classify("fails", "convoy_paradox") is Mark.DISRUPTED


def test_dislodged_unit_marked_in_its_power_block() -> None:
    lines = {p["power"]: p["orders"] for p in order_lines(fall_record(), "it", ["GERMANY"])}
    assert "Armata Ruhr FERMA.  (*scacciata*)" in lines["GERMANY"]
    assert any("F KIE - MOS" in line and "non accettato" in line for line in lines["GERMANY"])
