"""ONP: seed 002's hold-with-mutual-support algorithm, majority orders, three-and-two."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.adjudicator.orders import Hold, SupportHold, parse_canonical
from judge.adjudicator.position import Position
from judge.rules.generated import GeneratedWhy
from judge.rules.onp import (
    AbandonmentOutcome,
    abandoned_orders,
    after_abandonment,
    keeps_three_and_two,
    mutual_support_orders,
    strikes_after,
)
from tests.rules.helpers import position, texts
from tests.standard_variant import STANDARD


def _support(power: str, pos: Position | None = None) -> list[str]:
    return texts(mutual_support_orders(pos or STANDARD.initial_position(), power))


def test_opening_positions() -> None:
    assert _support("FRANCE") == ["F BRE H", "A MAR H", "A PAR S F BRE"]
    # BER: MUN and KIE tie up to (d), the army wins; MUN: KIE has no support yet (a)
    assert _support("GERMANY") == ["A BER S A MUN", "F KIE S A BER", "A MUN S F KIE"]
    assert _support("RUSSIA") == ["A MOS S A WAR", "F SEV H", "F STP/SC H", "A WAR S A MOS"]
    assert _support("AUSTRIA") == ["A BUD S A VIE", "F TRI H", "A VIE S A BUD"]
    # Edinburgh and London do not touch; only the army in Liverpool can support (Edinburgh)
    assert _support("ENGLAND") == ["F EDI H", "F LON H", "A LVP S F EDI"]


def test_criteria_a_c_e_on_a_balkan_position() -> None:
    pos = position("F1903M", {"TURKEY": ["A BUL", "A GRE", "F AEG", "A SER"]})
    assert _support("TURKEY", pos) == [
        "F AEG S A BUL",  # (c) Bulgaria is one province from Constantinople, Greece two
        "A BUL S A GRE",  # Greece and Serbia equal up to (d): (e) the first by code
        "A GRE S A SER",  # (a) Serbia has no support yet, Bulgaria has one
        "A SER S A BUL",  # both supported already, both centres: (c) Bulgaria nearer home
    ]


def test_criterion_b_supply_centre_first() -> None:
    pos = position("S1902M", {"ENGLAND": ["A WAL", "F LON", "A YOR"]})
    assert _support("ENGLAND", pos) == ["F LON S A WAL", "A WAL S F LON", "A YOR S F LON"]


def test_a_lone_unit_holds() -> None:
    pos = position("S1905M", {"ITALY": ["F TUN"]})
    generated = mutual_support_orders(pos, "ITALY")
    assert texts(generated) == ["F TUN H"]
    assert generated[0].why is GeneratedWhy.ONP_NOTHING_TO_SUPPORT


_LAND = sorted(
    code for code, p in STANDARD.board.provinces.items() if p.kind in ("land", "coast")
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_LAND), min_size=1, max_size=10, unique=True))
def test_every_unit_gets_one_legal_defensive_order(places: list[str]) -> None:
    board = STANDARD.board
    pos = position("S1905M", {"GERMANY": [f"A {p}" for p in places]})
    generated = mutual_support_orders(pos, "GERMANY")
    assert sorted(g.order.location for g in generated) == sorted(places)
    for g in generated:
        if isinstance(g.order, SupportHold):
            assert g.order.supported in places and g.order.supported != g.order.location
            assert board.can_reach("A", g.order.location, g.order.supported)
        else:
            assert isinstance(g.order, Hold)


def _votes(**by_voter: list[str]) -> dict:
    return {voter: [parse_canonical(t) for t in orders] for voter, orders in by_voter.items()}


def test_abandoned_power_takes_the_most_voted_order() -> None:
    pos = position("F1902M", {"FRANCE": ["A PAR", "F BRE", "A MAR"]})
    votes = _votes(
        ENGLAND=["F BRE - MAO", "A PAR - BUR", "A MAR H"],
        GERMANY=["F BRE - MAO", "A PAR - PIC"],
        ITALY=["F BRE H", "A PAR - GAS"],
    )
    generated = abandoned_orders(pos.units_of("FRANCE"), votes)
    assert texts(generated) == ["F BRE - MAO", "A MAR H", "A PAR H"]
    assert [g.why for g in generated] == [
        GeneratedWhy.ABANDONED_MAJORITY,
        GeneratedWhy.ABANDONED_MAJORITY,  # one vote, no rival: the most voted
        GeneratedWhy.ABANDONED_NO_MAJORITY_HOLD,  # three different votes: tie, hold
    ]


def test_abandoned_power_without_votes_holds() -> None:
    pos = position("F1902M", {"FRANCE": ["A PAR"]})
    assert texts(abandoned_orders(pos.units_of("FRANCE"), {})) == ["A PAR H"]


def test_three_centres_two_of_them_home() -> None:
    pos = position("F1903M", {"FRANCE": ["A PAR"]}, {"FRANCE": ["PAR", "BRE", "SPA"]})
    assert keeps_three_and_two(pos, "FRANCE")
    assert after_abandonment(pos, "FRANCE") is AbandonmentOutcome.AWAIT_REPLACEMENT
    pos = position("F1903M", {"FRANCE": ["A PAR"]}, {"FRANCE": ["PAR", "POR", "SPA"]})
    assert not keeps_three_and_two(pos, "FRANCE")
    assert after_abandonment(pos, "FRANCE") is AbandonmentOutcome.SOMMOSSA
    pos = position("F1903M", {"FRANCE": ["A PAR"]}, {"FRANCE": ["PAR", "BRE"]})
    assert after_abandonment(pos, "FRANCE") is AbandonmentOutcome.SOMMOSSA


def test_strikes() -> None:
    assert strikes_after(0, sent_orders=False) == 1
    assert strikes_after(1, sent_orders=False) == 2
    assert strikes_after(1, sent_orders=True) == 0
