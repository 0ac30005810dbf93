"""Sommossa votes and the dispatch of defaults by phase, rule set and standing."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from judge.adjudicator.orders import parse_canonical
from judge.rules.fill import Standing, generate_orders
from judge.rules.generated import GeneratedWhy
from judge.rules.options import RuleSet
from judge.rules.sommossa import publishable_votes, sommossa_movement_orders
from tests.rules.helpers import position, texts


def _votes(by_voter: dict[str, list[str]]) -> dict:
    return {voter: [parse_canonical(t) for t in orders] for voter, orders in by_voter.items()}


def test_sommossa_tie_means_hold() -> None:
    # the example: one vote to Bulgaria, one to hold: a tie
    pos = position("S1903M", {"TURKEY": ["A CON", "F ANK"]})
    votes = _votes({"ENGLAND": ["A CON - BUL"], "RUSSIA": ["A CON H"]})
    generated = sommossa_movement_orders(pos, "TURKEY", votes)
    assert texts(generated) == ["F ANK H", "A CON H"]
    assert {g.why for g in generated} == {GeneratedWhy.SOMMOSSA_NO_MAJORITY_HOLD}


def test_sommossa_most_voted_order_wins() -> None:
    pos = position("S1903M", {"TURKEY": ["A CON", "F ANK"]})
    votes = _votes(
        {
            "ENGLAND": ["A CON - BUL", "F ANK - BLA"],
            "RUSSIA": ["A CON H", "F ANK - ARM"],
            "AUSTRIA": ["A  con -  bul"],
        }
    )
    generated = sommossa_movement_orders(pos, "TURKEY", votes)
    assert texts(generated) == ["F ANK H", "A CON - BUL"]
    assert generated[1].why is GeneratedWhy.SOMMOSSA_MAJORITY


def test_a_voter_counts_once_per_unit_last_order_standing() -> None:
    pos = position("S1903M", {"TURKEY": ["A CON"]})
    votes = _votes(
        {"ENGLAND": ["A CON - BUL", "A CON - SMY"], "RUSSIA": ["A CON - SMY"], "ITALY": ["A CON H"]}
    )
    assert texts(sommossa_movement_orders(pos, "TURKEY", votes)) == ["A CON - SMY"]


def test_votes_for_units_the_power_does_not_have_are_ignored() -> None:
    pos = position("S1903M", {"TURKEY": ["A CON"], "RUSSIA": ["F SEV"]})
    votes = _votes({"ENGLAND": ["F SEV - BLA", "A CON - BUL"]})
    assert texts(sommossa_movement_orders(pos, "TURKEY", votes)) == ["A CON - BUL"]


def test_sommossa_retreats_are_removals_and_it_never_builds() -> None:
    pos = position(
        "F1903R",
        {"TURKEY": ["F ANK"]},
        dislodged={"TURKEY": {"A CON": ["SMY", "BUL"]}},
    )
    made = generate_orders(pos, "TURKEY", (), Standing.SOMMOSSA, RuleSet.ITALIAN)
    assert texts(made) == ["A CON D"]
    assert made[0].why is GeneratedWhy.SOMMOSSA_DISLODGED_REMOVED
    pos = position("W1903A", {"TURKEY": ["F ANK"]}, {"TURKEY": ["ANK", "CON", "SMY"]})
    assert generate_orders(pos, "TURKEY", (), Standing.SOMMOSSA, RuleSet.ITALIAN) == []
    pos = position("W1903A", {"TURKEY": ["F ANK", "A ARM", "F EAS"]}, {"TURKEY": ["ANK"]})
    made = generate_orders(pos, "TURKEY", (), Standing.SOMMOSSA, RuleSet.ITALIAN)
    assert texts(made) == ["F EAS D", "A ARM D"]


def test_votes_are_published_only_at_the_end() -> None:
    record = {"S1903M": {"TURKEY": {"RUSSIA": [parse_canonical("A CON H")]}}}
    assert publishable_votes(record, game_over=False) is None
    assert publishable_votes(record, game_over=True) == {
        "S1903M": {"TURKEY": {"RUSSIA": ["A CON H"]}}
    }


def test_italian_retreat_fills_only_units_without_orders() -> None:
    pos = position(
        "F1903R",
        {"GERMANY": ["A KIE"]},
        dislodged={"GERMANY": {"A BEL": ["BUR", "HOL", "RUH"], "F DEN": ["BAL", "SWE"]}},
    )
    submitted = (parse_canonical("F DEN R SWE"),)
    made = generate_orders(pos, "GERMANY", submitted, Standing.PLAYING, RuleSet.ITALIAN)
    assert texts(made) == ["A BEL R RUH"]
    made = generate_orders(pos, "GERMANY", (), Standing.PLAYING, RuleSet.RULEBOOK)
    assert texts(made) == ["A BEL D", "F DEN D"]
    assert {g.why for g in made} == {GeneratedWhy.CIVIL_DISORDER_DISBAND}


def test_adjustments_by_rule_set() -> None:
    pos = position(
        "W1901A", {"ENGLAND": ["F NTH", "F NWG", "A NWY"]}, {"ENGLAND": ["EDI", "LON", "LVP", "NWY", "BEL"]}
    )
    made = generate_orders(pos, "ENGLAND", (), Standing.PLAYING, RuleSet.ITALIAN)
    assert texts(made) == ["F EDI B", "F LON B"]
    assert generate_orders(pos, "ENGLAND", (), Standing.PLAYING, RuleSet.RULEBOOK) == []
    # a player who built one unit chose: no automatic second build
    own = (parse_canonical("A LVP B"),)
    assert generate_orders(pos, "ENGLAND", own, Standing.PLAYING, RuleSet.ITALIAN) == []
    pos = position("W1902A", {"FRANCE": ["A PAR", "F TUN", "F MAO"]}, {"FRANCE": ["PAR"]})
    own = (parse_canonical("A PAR D"),)
    made = generate_orders(pos, "FRANCE", own, Standing.PLAYING, RuleSet.ITALIAN)
    assert texts(made) == ["F TUN D"]
    made = generate_orders(pos, "FRANCE", (), Standing.PLAYING, RuleSet.RULEBOOK)
    assert texts(made) == ["F TUN D", "F MAO D"]


def test_movement_defaults_by_standing() -> None:
    pos = position("S1902M", {"FRANCE": ["A PAR", "F BRE", "A MAR"]})
    assert generate_orders(pos, "FRANCE", (), Standing.PLAYING, RuleSet.ITALIAN) == []
    made = generate_orders(pos, "FRANCE", (), Standing.PLAYING, RuleSet.RULEBOOK)
    assert texts(made) == ["F BRE H", "A MAR H", "A PAR H"]
    made = generate_orders(pos, "FRANCE", (), Standing.FIRST_ONP, RuleSet.ITALIAN)
    assert texts(made) == ["F BRE H", "A MAR H", "A PAR S F BRE"]
    votes = _votes({"GERMANY": ["A PAR - BUR"]})
    made = generate_orders(pos, "FRANCE", (), Standing.ABANDONED, RuleSet.ITALIAN, votes)
    assert texts(made) == ["F BRE H", "A MAR H", "A PAR - BUR"]


_CON_ORDERS = ["A CON H", "A CON - BUL", "A CON - SMY", "A CON S F ANK"]


@given(st.lists(st.sampled_from(_CON_ORDERS), min_size=0, max_size=6), st.randoms())
def test_the_count_not_the_order_of_voters_decides(
    choices: list[str], rng: random.Random
) -> None:
    pos = position("S1903M", {"TURKEY": ["A CON", "F ANK"]})
    voters = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA"][: len(choices)]
    votes = _votes(dict(zip(voters, [[c] for c in choices], strict=True)))
    shuffled = list(votes.items())
    rng.shuffle(shuffled)
    first = texts(sommossa_movement_orders(pos, "TURKEY", votes))
    assert texts(sommossa_movement_orders(pos, "TURKEY", dict(shuffled))) == first
    counts = Counter(choices).most_common()
    if counts and (len(counts) == 1 or counts[0][1] > counts[1][1]):
        assert first[1] == counts[0][0]
    else:
        assert first[1] == "A CON H"


def test_french_rules_are_seed_000_civil_disorder() -> None:
    # seed 000, XV: "ses unités tiennent" / "celles de ses unités qui sont contraintes à la
    # retraite sont automatiquement dispersées" / "ne peut pas mobiliser de nouvelles unités"
    pos = position("S1902M", {"FRANCE": ["A PAR", "F BRE", "A MAR"]})
    made = generate_orders(pos, "FRANCE", (), Standing.PLAYING, RuleSet.FRENCH)
    assert texts(made) == ["F BRE H", "A MAR H", "A PAR H"]
    assert {g.why for g in made} == {GeneratedWhy.CIVIL_DISORDER_HOLD}
    pos = position(
        "F1903R", {"GERMANY": ["A KIE"]}, dislodged={"GERMANY": {"A BEL": ["BUR", "HOL", "RUH"]}}
    )
    made = generate_orders(pos, "GERMANY", (), Standing.PLAYING, RuleSet.FRENCH)
    assert texts(made) == ["A BEL D"]
    pos = position(
        "W1901A", {"ENGLAND": ["F NTH", "F NWG", "A NWY"]}, {"ENGLAND": ["EDI", "LON", "LVP", "NWY", "BEL"]}
    )
    assert generate_orders(pos, "ENGLAND", (), Standing.PLAYING, RuleSet.FRENCH) == []
    # removals: off a centre before fleets before armies (the rulebook: fleets, then by code)
    pos = position("W1902A", {"GERMANY": ["A BER", "A DEN", "A PRU"]}, {"GERMANY": ["BER"]})
    made = generate_orders(pos, "GERMANY", (), Standing.PLAYING, RuleSet.FRENCH)
    assert texts(made) == ["A PRU D", "A DEN D"]
    assert {g.why for g in made} == {GeneratedWhy.CIVIL_DISORDER_REMOVAL}
    made = generate_orders(pos, "GERMANY", (), Standing.PLAYING, RuleSet.RULEBOOK)
    assert texts(made) == ["A DEN D", "A PRU D"]
