"""The house-rule keys of ``judge adjudicate`` requests, without the adjudicator."""

from __future__ import annotations

import pytest

from judge.adjudicator.orders import parse_canonical
from judge.adjudicator.phase import Phase
from judge.adjudicator.position import Position
from judge.rules.house_request import HouseRequestError, house_orders, read_house_request
from judge.rules.options import RuleSet
from tests.rules.helpers import position
from tests.rules.house_cases import CASES
from tests.standard_variant import STANDARD


def _position(obj: dict) -> Position:
    return position(obj["phase"], obj["units"], obj.get("centers"), obj.get("dislodged"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_house_orders(name: str) -> None:
    obj, expected = CASES[name]
    submitted = {p: [parse_canonical(t) for t in ts] for p, ts in obj.get("orders", {}).items()}
    made = house_orders(_position(obj), submitted, read_house_request(obj))
    assert {p: [str(g) for g in gs] for p, gs in made.items()} == expected


def test_defaults_and_parsing() -> None:
    request = read_house_request({})
    assert request.rules is RuleSet.ITALIAN and not request.onp and not request.sommossa
    request = read_house_request({"rules": "rulebook", "onp": {"france": 1}, "homes": {"ITALY": ["rom"]}})
    assert request.onp == {"FRANCE": 1} and request.homes == {"ITALY": ("ROM",)}
    assert read_house_request({"rules": "french"}).rules is RuleSet.FRENCH  # seed 000


@pytest.mark.parametrize(
    "bad",
    [
        {"rules": "german"},
        {"onp": {"FRANCE": -1}},
        {"onp": {"PRUSSIA": 1}},
        {"sommossa": "TURKEY"},
        {"votes": {"TURKEY": {"ENGLAND": ["A CON TO BUL"]}}},
        {"homes": {"ITALY": ["TUS"]}},
    ],
)
def test_malformed_keys_are_refused(bad: dict) -> None:
    with pytest.raises(HouseRequestError):
        read_house_request(bad)


def test_orders_and_onp_for_the_same_power_are_refused() -> None:
    request = read_house_request({"onp": {"FRANCE": 1}})
    with pytest.raises(HouseRequestError):
        house_orders(STANDARD.initial_position(), {"FRANCE": [parse_canonical("A PAR H")]}, request)


def test_custom_homes_drive_the_builds() -> None:
    pos = position("W1901A", {"ITALY": ["A TUN"]}, {"ITALY": ["ROM", "NAP", "TUN", "GRE"]})
    request = read_house_request({"homes": {"ITALY": ["NAP", "ROM", "GRE"]}})
    made = house_orders(pos, {}, request)
    assert [str(g) for g in made["ITALY"]] == ["A GRE B", "F NAP B", "A ROM B"]
    assert pos.phase == Phase.parse("W1901A")
