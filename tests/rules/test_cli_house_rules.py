"""``judge adjudicate`` with the house-rule keys gives the same generated orders as the unit
tests (tests/rules/house_cases.py), and adjudicates them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.rules.house_cases import CASES


def _run(request: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "judge.cli", "adjudicate"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture(scope="module")
def answers() -> dict[str, dict]:
    names = sorted(CASES)
    done = _run([CASES[n][0] for n in names])
    assert done.returncode == 0, done.stderr
    return dict(zip(names, json.loads(done.stdout), strict=True))


@pytest.mark.parametrize("name", sorted(CASES))
def test_generated_orders_match_the_unit_tests(answers: dict[str, dict], name: str) -> None:
    answer = answers[name]
    expected = CASES[name][1]
    assert answer["generated"] == expected
    assert {p: [r["order"] for r in rs] for p, rs in answer["generated_reasons"].items()} == expected
    for power, orders in expected.items():
        flagged = [r["order"] for r in answer["results"][power] if r.get("why")]
        assert flagged == orders


def test_seed_moscow_standoff_with_sommossa_support(answers: dict[str, dict]) -> None:
    # seed 002: A MOS holds, A LVN - MOS supported from WAR, Turkey's A SEV supports MOS: standoff
    answer = answers["moscow_standoff_sommossa_support"]
    assert "A MOS" in answer["units"]["RUSSIA"]
    assert answer["dislodged"] == {}


def test_seed_moscow_falls_when_the_support_is_cut(answers: dict[str, dict]) -> None:
    # seed 002: the French attack on Sevastopol cuts the Turkish support; Moscow falls
    answer = answers["moscow_falls_support_cut"]
    assert "A MOS" in answer["units"]["GERMANY"]
    assert "A MOS" in answer["dislodged"]["RUSSIA"]
    assert "A SEV" in answer["units"]["TURKEY"]


def test_second_onp_says_what_follows(answers: dict[str, dict]) -> None:
    assert answers["second_onp_france_majority"]["abandonment"] == {"FRANCE": "await_replacement"}
    assert "abandonment" not in answers["first_onp_france"]


def test_tacit_retreat_is_carried_out(answers: dict[str, dict]) -> None:
    assert "A KIE" in answers["tacit_retreat"]["units"]["GERMANY"]


def test_bad_house_keys_exit_2_with_a_json_error() -> None:
    done = _run({"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "rules": "german"})
    assert done.returncode == 2
    assert "rules" in json.loads(done.stderr)["error"]
    request = {
        "phase": "S1901M",
        "units": {"FRANCE": ["A PAR"]},
        "orders": {"FRANCE": ["A PAR H"]},
        "onp": {"FRANCE": 1},
    }
    done = _run(request)
    assert done.returncode == 2 and "FRANCE" in json.loads(done.stderr)["error"]
