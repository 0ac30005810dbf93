"""``"options": {"removal_distance": "owned"}`` through ``judge adjudicate`` under every rule set.

The house-rule layer makes up civil-disorder removals before the adjudicator reads the options;
it used to count distance to the home centres whatever the option said, so DATC 3.0 (2023
edition) 6.J.3, 6.J.6, 6.J.10 and 6.J.11 came out wrong. The cases are read from TedDriggs's
DATC file in ../shared/corpora/ (never copied): its ``occupiers`` own those centres, a unit on a
supply centre owns it (the Fall just ended), every other home centre stays with its power.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.adjudicator.catalog import variant
from judge.rules.house_jsonio import adjudicate_json_with_rules

CASES_FILE = Path(__file__).resolve().parents[2].parent / "shared" / "corpora" / "teddriggs_datc.json"
_POWERS = {"AUS": "AUSTRIA", "ENG": "ENGLAND", "FRA": "FRANCE", "GER": "GERMANY",
           "ITA": "ITALY", "RUS": "RUSSIA", "TUR": "TURKEY"}
WANTED = ("t6j03", "t6j06", "t6j10", "t6j11")  # 6.J.9: the two tests below


def _cases() -> list[dict]:
    if not CASES_FILE.exists():
        pytest.skip(f"{CASES_FILE} is not there")
    cases = json.loads(CASES_FILE.read_text("utf-8"))["cases"]
    return [c for c in cases if c["name"][:5] in WANTED and c.get("edition") == "2023"]


def _request(case: dict, rules: str) -> tuple[dict, list[str]]:
    board = variant("standard").board
    owner = {c: p for p, cs in board.all_home_centers.items() for c in cs}
    units: dict[str, list[str]] = {}
    for entry in case["starting_state"]:
        code, unit = entry.split(": ")
        units.setdefault(_POWERS[code], []).append(unit.upper())
        province = unit.split()[1].upper().split("/")[0]
        if board.provinces[province].supply_center:
            owner[province] = _POWERS[code]
    for centre, code in case["occupiers"].items():
        owner[centre.upper()] = _POWERS[code]
    centers: dict[str, list[str]] = {}
    for centre, power in owner.items():
        centers.setdefault(power, []).append(centre)
    removed = sorted(f"{_POWERS[e.split(': ')[0]]} {e.split(': ')[1].upper()} D"
                     for e in case["civil_disorder"])
    request = {"phase": "W1901A", "units": units, "centers": centers, "orders": {},
               "rules": rules, "options": {"removal_distance": "owned"}}
    return request, removed


def test_the_four_cases_are_in_the_file() -> None:
    assert sorted(c["name"][:5] for c in _cases()) == sorted(WANTED)


@pytest.mark.parametrize("rules", ["italian", "rulebook", "french"])
def test_owned_distance_reaches_the_house_rules(rules: str) -> None:
    for case in _cases():
        request, expected = _request(case, rules)
        answer = adjudicate_json_with_rules(request)
        removed = sorted(f"{power} {r['order']}" for power, rs in answer["results"].items()
                         for r in rs if r["order"].endswith(" D"))
        assert removed == expected, case["name"]
        # and the removals are the house rules' made-up orders, not the adjudicator's
        assert all(answer["generated"].get(p) for p in {e.split()[0] for e in expected})


def test_home_distance_stays_the_default() -> None:
    case = next(c for c in _cases() if c["name"].startswith("t6j03"))
    request, expected = _request(case, "rulebook")
    del request["options"]
    answer = adjudicate_json_with_rules(request)
    removed = sorted(f"{power} {r['order']}" for power, rs in answer["results"].items()
                     for r in rs if r["order"].endswith(" D"))
    assert removed != expected  # 6.J.3 of the 1971 edition: the home-centre distance


def _removed(request: dict) -> list[str]:
    answer = adjudicate_json_with_rules(request)
    return sorted(f"{power} {r['order']}" for power, rs in answer["results"].items()
                  for r in rs if r["order"].endswith(" D"))


@pytest.mark.parametrize("rules", ["italian", "rulebook", "french"])
def test_6j9_first_scenario_counts_from_the_south_coast(rules: str) -> None:
    if not CASES_FILE.exists():
        pytest.skip(f"{CASES_FILE} is not there")
    case = next(c for c in json.loads(CASES_FILE.read_text("utf-8"))["cases"]
                if c["name"] == "t6j09_civil_disorder_must_be_counted_from_both_coasts")
    request, expected = _request(case, rules)
    assert _removed(request) == expected == ["RUSSIA A ALB D"]  # F BAL - BOT - STP/SC: two


@pytest.mark.parametrize("rules", ["italian", "rulebook", "french"])
@pytest.mark.parametrize("army", ["GRE", "ALB"])
def test_6j9_second_scenario_counts_from_the_north_coast(rules: str, army: str) -> None:
    """DATC 3.0 6.J.9, second scenario, as the DATC text states it: Russia owns St Petersburg
    and Sevastopol, has A Greece, A Sevastopol, F Skagerrak and must remove one; the fleet is
    two from St Petersburg (north coast, by Norway), the army three from Sevastopol, so the army
    goes. TedDriggs's JSON puts the army in Albania (also three: ALB - SER - RUM - SEV) but
    expects the fleet removed, which contradicts the DATC's own reasoning; we follow the DATC."""
    request = {"phase": "W1901A",
               "units": {"RUSSIA": [f"A {army}", "A SEV", "F SKA"]},
               "centers": {"RUSSIA": ["SEV", "STP"], "GERMANY": ["WAR"], "ENGLAND": ["MOS"]},
               "orders": {}, "rules": rules, "options": {"removal_distance": "owned"}}
    assert _removed(request) == [f"RUSSIA A {army} D"]
