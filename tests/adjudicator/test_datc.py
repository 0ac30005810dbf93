"""Every DATC case: the shared v2.4 file (read at test time, never copied) and our own 3.0 file."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.adjudicator.datc import KNOWN_WRONG, DatcCase, parse_cases, run_case
from tests.conftest import SHARED

SHARED_FILE = SHARED / "datc" / "datc_v2.4_06.txt"
OWN_FILE = Path(__file__).resolve().parent.parent / "data" / "datc_v3_cases.txt"


def _cases(path: Path) -> list[DatcCase]:
    return parse_cases(path.read_text("utf-8")) if path.exists() else []


SHARED_CASES = _cases(SHARED_FILE)
OWN_CASES = _cases(OWN_FILE)


def _explain(case: DatcCase) -> str:
    r = run_case(case)
    return (
        f"{case.id}: {r.error or ''}\n expected units {r.expected_units}\n got      units "
        f"{r.got_units}\n expected dislodged {r.expected_dislodged}\n got      dislodged "
        f"{r.got_dislodged}"
    )


@pytest.mark.skipif(not SHARED_CASES, reason=f"{SHARED_FILE} not present")
@pytest.mark.parametrize("case", SHARED_CASES, ids=lambda c: c.id)
def test_shared_datc_case(case: DatcCase) -> None:
    report = run_case(case)
    if case.id in KNOWN_WRONG:
        # the file keeps a pre-3.0 expectation; our own file holds the 3.0 version
        assert not report.passed, f"{case.id} is listed as known wrong but passes"
        assert case.id in {c.id for c in OWN_CASES}
    else:
        assert report.passed, _explain(case)


@pytest.mark.parametrize("case", OWN_CASES, ids=lambda c: c.id)
def test_own_datc_v3_case(case: DatcCase) -> None:
    assert run_case(case).passed, _explain(case)


def test_own_file_covers_the_missing_and_wrong_cases() -> None:
    ids = {c.id for c in OWN_CASES}
    missing_from_shared = {"6.B.15", "6.C.8", "6.C.9", "6.F.25", "6.G.19", "6.G.20"}
    new_versions = {"6.G.8", "6.J.11"}
    corrected = {"6.F.15", "6.H.5", "6.H.14", "6.H.15", "6.H.16"}
    assert missing_from_shared | new_versions | corrected <= ids
    assert set(KNOWN_WRONG) <= ids


@pytest.mark.skipif(not SHARED_CASES, reason=f"{SHARED_FILE} not present")
def test_shared_file_reads_completely() -> None:
    assert len(SHARED_CASES) == 167
    ids = [c.id for c in SHARED_CASES]
    # errata 1 of the README: the mislabelled ids are renamed on reading
    assert "6.F.5" in ids and "6.F.15" in ids and "6.F.E" not in ids


def test_6j11_depends_on_the_distance_rule() -> None:
    case = next(c for c in OWN_CASES if c.id == "6.J.11")
    home_rule = DatcCase(**{**case.__dict__, "options": {}})
    report = run_case(home_rule)
    # measured from Italy's home centres, Warsaw is the farthest unit and goes instead
    assert report.got_units == ["ITALY A TUS"]
