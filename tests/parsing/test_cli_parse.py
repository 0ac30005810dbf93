"""The ``judge parse`` contract: one line out per line in, canonical order or ``ERROR: ``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from judge.cli import main


def run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str, *args: str
) -> tuple[int, list[str], str]:
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO(stdin))
    code = main(["parse", *args])
    out = capsys.readouterr()
    return code, out.out.splitlines(), out.err


def test_one_line_out_per_line_in(capsys, monkeypatch) -> None:
    stdin = "A Par - Bur\n\nF Mid - Spa\nA Par - Bur, A Mar S A Par - Bur\nA Prais - Bur\n"
    code, lines, _ = run(capsys, monkeypatch, stdin, "--lang", "en")
    assert code == 0
    assert len(lines) == 5
    assert lines[0] == "A PAR - BUR"
    assert lines[1] == ""
    assert lines[2].startswith("ERROR: missing_coast: ")
    assert lines[3] == "A PAR - BUR; A MAR S A PAR - BUR"
    assert lines[4].startswith("ERROR: unknown_province: ")
    assert "Par (Paris)" in lines[4]


def test_language_choice(capsys, monkeypatch) -> None:
    _, fr, _ = run(capsys, monkeypatch, "A MAR - TUN\nF TOS - VEN\n", "--lang", "fr")
    assert fr == ["A NAF - TUN", "ERROR: not_adjacent: Toscane n'est pas adjacente à Venise"]
    _, it, _ = run(capsys, monkeypatch, "A Bud APP A Gal\n", "--lang", "it")
    assert it[0].startswith("ERROR: support_ambiguous: l'appoggio deve sempre specificare")


def test_with_phase_and_units(capsys, monkeypatch) -> None:
    units = json.dumps({"ENGLAND": ["F LON", "A LVP", "F EDI"], "RUSSIA": ["F STP/SC"]})
    stdin = "Lon - Nth\nLvp - Edi\nA Lon H\nStP - Bot\nF Edi - Nwg\n"
    code, lines, _ = run(
        capsys, monkeypatch, stdin, "--lang", "en", "--phase", "S1901M", "--units", units
    )
    assert code == 0
    assert lines == [
        "F LON - NTH",
        "A LVP - EDI",
        "ERROR: wrong_unit_type: the unit there is F LON, not A",
        "F STP/SC - BOT",
        "F EDI - NWG",
    ]


def test_power_and_notes(capsys, monkeypatch) -> None:
    units = json.dumps({"ENGLAND": ["F LON"], "FRANCE": ["A PAR"]})
    args = ("--lang", "en", "--phase", "S1901M", "--units", units, "--power", "france", "--notes")
    _, lines, _ = run(capsys, monkeypatch, "Par - Bur\nLon - Nth\n", *args)
    assert lines[0] == "A PAR - BUR # read as A PAR"
    assert lines[1] == "ERROR: not_your_unit: F LON belongs to ENGLAND"


def test_retreat_phase_with_dislodged(capsys, monkeypatch) -> None:
    args = (
        "--lang", "fr", "--phase", "F1901R", "--units", '{"GERMANY": ["A BUR"]}',
        "--dislodged", '{"FRANCE": {"A BUR": ["GAS", "PAR"]}}',
    )  # fmt: skip
    _, lines, _ = run(capsys, monkeypatch, "A BOU - GAS\nA BOU r TOU\n", *args)
    assert lines == [
        "A BUR R GAS",
        "ERROR: retreat_not_allowed: l'unité ne peut pas faire retraite en Marseille",
    ]


def test_bad_units_json_exits_2(capsys, monkeypatch) -> None:
    code, lines, err = run(
        capsys, monkeypatch, "A Par H\n", "--lang", "en", "--units", "{", "--phase", "S1901M"
    )
    assert code == 2
    assert lines == []
    assert "error" in json.loads(err)


def test_units_need_a_phase(capsys, monkeypatch) -> None:
    code, _, err = run(capsys, monkeypatch, "", "--lang", "en", "--units", '{"FRANCE": ["A PAR"]}')
    assert code == 2
    assert "--phase" in err


def test_installed_command() -> None:
    done = subprocess.run(
        ["judge", "parse", "--lang", "it"], input="A Ven - Tri\nF Tri TRA A Alb-Ven\n",
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert done.stdout.splitlines()[0] == "A VEN - TRI"
    assert done.stdout.splitlines()[1].startswith("ERROR: convoy_by_coastal_fleet: ")


def test_variant_names_the_map_the_units_stand_on(capsys, monkeypatch) -> None:
    """Pure: every capital borders every other, so Paris - London is a move there and not on
    the standard map (``--variant``, default standard; no global board)."""
    units = ("--phase", "S1901M", "--units", '{"FRANCE": ["A PAR"]}', "--power", "FRANCE")
    _, standard, _ = run(capsys, monkeypatch, "A PAR - LON\n", "--lang", "en", *units)
    assert standard[0].startswith("ERROR: not_adjacent: ")
    _, pure, _ = run(capsys, monkeypatch, "A PAR - LON\n", "--lang", "en", *units,
                     "--variant", "pure")
    assert pure == ["A PAR - LON"]
