"""A reason for every illegal order; normalisation of coasts; possible orders are all legal."""

from __future__ import annotations

import random

import pytest

from judge.adjudicator.jsonio import RequestError, position_from_json, position_to_json
from judge.adjudicator.legality import Refusal, check, normalize
from judge.adjudicator.orders import Move, UnitType, parse_canonical
from judge.adjudicator.position import Dislodged, Position
from judge.adjudicator.possible import possible_orders
from tests.adjudicator.helpers import position
from tests.standard_variant import STANDARD

MOVEMENT = position(
    "S1901M",
    {
        "ENGLAND": ["F LON", "A LVP", "F NTH", "A YOR"],
        "FRANCE": ["F MAO", "A PAR", "F SPA/SC", "F POR", "A MAR", "A GAS"],
        "RUSSIA": ["F STP/SC", "A MOS"],
        "ITALY": ["F TYS", "A ROM", "F WES"],
    },
)


@pytest.mark.parametrize(
    ("power", "text", "refusal"),
    [
        ("ENGLAND", "A PAR H", Refusal.NOT_YOUR_UNIT),
        ("ENGLAND", "A BEL H", Refusal.NO_UNIT),
        ("ENGLAND", "A LON H", Refusal.WRONG_UNIT_TYPE),
        ("ENGLAND", "F LON - LON", Refusal.MOVE_TO_OWN_PROVINCE),
        ("ENGLAND", "F LON - BEL", Refusal.NOT_ADJACENT),
        ("ENGLAND", "A LVP - IRI", Refusal.ARMY_TO_SEA),
        ("ENGLAND", "F LON - BUR", Refusal.FLEET_TO_LAND),
        ("ENGLAND", "A LVP - MUN", Refusal.NOT_ADJACENT),
        ("FRANCE", "F MAO - SPA", Refusal.MISSING_COAST),
        ("FRANCE", "F POR - SPA/EC", Refusal.UNKNOWN_LOCATION),
        ("RUSSIA", "F STP/SC - BAR", Refusal.NOT_ADJACENT),
        ("FRANCE", "F SPA/SC - GAS", Refusal.NOT_ADJACENT),
        ("ENGLAND", "F LON S F LON", Refusal.SUPPORT_SELF),
        ("ENGLAND", "F LON S A YOR - LON", Refusal.SUPPORT_OWN_PROVINCE),
        ("ENGLAND", "F NTH S A PAR", Refusal.SUPPORT_UNREACHABLE),
        ("ENGLAND", "F NTH S A BEL", Refusal.NO_SUPPORTED_UNIT),
        ("ENGLAND", "F NTH S F YOR", Refusal.WRONG_SUPPORTED_TYPE),
        ("ENGLAND", "A LVP S F NTH - WAL", Refusal.SUPPORTED_MOVE_IMPOSSIBLE),
        ("ENGLAND", "A YOR C A LVP - EDI", Refusal.CONVOY_BY_ARMY),
        ("ENGLAND", "F LON C A YOR - BEL", Refusal.CONVOY_NOT_AT_SEA),
        ("ENGLAND", "F NTH C A WAL - BEL", Refusal.NO_CONVOYED_ARMY),
        ("ENGLAND", "F NTH C A YOR - YOR", Refusal.MOVE_TO_OWN_PROVINCE),
        ("ITALY", "F WES C A MAR - SPA", Refusal.CONVOY_NOT_ON_ROUTE),  # DATC 6.G.19
        ("ENGLAND", "A YOR - BRE", Refusal.NO_FLEETS_TO_CONVOY),
        ("ENGLAND", "F LON B", Refusal.WRONG_PHASE),
    ],
)
def test_refusals_in_movement(power: str, text: str, refusal: Refusal) -> None:
    assert check(MOVEMENT, power, parse_canonical(text)) is refusal


@pytest.mark.parametrize(
    ("power", "text", "normalized"),
    [
        ("ENGLAND", "A YOR - NWY", "A YOR - NWY"),  # convoy possible: the fleet in NTH
        ("FRANCE", "A GAS - SPA/NC", "A GAS - SPA"),  # coast on an army's target dropped
        ("RUSSIA", "F STP - BOT", "F STP/SC - BOT"),  # the unit's own coast need not be written
        ("FRANCE", "F MAO - NAF", "F MAO - NAF"),
        ("FRANCE", "F POR S F MAO - SPA", "F POR S F MAO - SPA"),  # supports need no coast
        ("ITALY", "F TYS C A ROM - TUN", "F TYS C A ROM - TUN"),
        ("ITALY", "F TYS C A ROM - VEN", "F TYS C A ROM - VEN"),  # TYS-ION-ADR is minimal
    ],
)
def test_normalized_orders(power: str, text: str, normalized: str) -> None:
    assert str(normalize(MOVEMENT, power, parse_canonical(text))) == normalized


def test_single_reachable_coast_is_filled_in() -> None:
    pos = position("S1901M", {"FRANCE": ["F GAS"]})
    assert normalize(pos, "FRANCE", parse_canonical("F GAS - SPA")) == Move(
        UnitType.FLEET, "GAS", "SPA/NC"
    )


def test_retreat_refusals() -> None:
    pos = position("S1901R", {"GERMANY": ["A MUN"]})
    from judge.adjudicator.orders import Unit

    pos.dislodged = {"BUR": Dislodged(Unit("FRANCE", UnitType.ARMY, "BUR"), "MUN", ("GAS", "PAR"))}
    assert check(pos, "FRANCE", parse_canonical("A BUR R GAS")) is None
    assert check(pos, "FRANCE", parse_canonical("A BUR D")) is None
    assert check(pos, "FRANCE", parse_canonical("A BUR R MUN")) is Refusal.RETREAT_NOT_ALLOWED
    assert check(pos, "GERMANY", parse_canonical("A BUR R GAS")) is Refusal.NOT_YOUR_UNIT
    assert check(pos, "GERMANY", parse_canonical("A MUN R BOH")) is Refusal.NOT_DISLODGED
    assert check(pos, "FRANCE", parse_canonical("A BUR - GAS")) is None  # a move reads as a retreat
    assert check(pos, "FRANCE", parse_canonical("A BUR H")) is Refusal.WRONG_PHASE


def test_adjustment_refusals() -> None:
    pos = position(
        "W1901A",
        {"GERMANY": ["A BER"], "RUSSIA": ["A MOS", "A WAR", "A UKR"]},
        {"GERMANY": ["BER", "KIE", "HOL"], "RUSSIA": ["MOS", "WAR"]},
    )
    assert check(pos, "GERMANY", parse_canonical("F KIE B")) is None
    assert check(pos, "GERMANY", parse_canonical("A HOL B")) is Refusal.NOT_A_HOME_CENTER
    assert check(pos, "GERMANY", parse_canonical("A MUN B")) is Refusal.CENTER_NOT_OWNED
    assert check(pos, "GERMANY", parse_canonical("A BER B")) is Refusal.CENTER_OCCUPIED
    assert check(pos, "GERMANY", parse_canonical("A BER D")) is Refusal.NO_REMOVALS_NEEDED
    assert check(pos, "GERMANY", parse_canonical("WAIVE")) is None
    assert check(pos, "RUSSIA", parse_canonical("A UKR D")) is None
    assert check(pos, "RUSSIA", parse_canonical("F SEV B")) is Refusal.NO_BUILDS_AVAILABLE
    assert check(pos, "RUSSIA", parse_canonical("A MOS - STP")) is Refusal.WRONG_PHASE
    pos.centers["MUN"] = "GERMANY"
    assert check(pos, "GERMANY", parse_canonical("F MUN B")) is Refusal.FLEET_INLAND


def _random_position(seed: int) -> Position:
    from judge.adjudicator.adjudication import adjudicate
    from judge.adjudicator.possible import random_orders

    rng = random.Random(seed)
    pos = STANDARD.initial_position()
    for _ in range(rng.randrange(0, 16)):
        pos = adjudicate(pos, {p: random_orders(pos, p, rng) for p in STANDARD.powers}).position
    return pos


@pytest.mark.parametrize("seed", range(12))
def test_possible_orders_are_all_legal(seed: int) -> None:
    pos = _random_position(seed)
    for power in STANDARD.powers:
        for location, orders in possible_orders(pos, power).items():
            assert orders, location
            for order in orders:
                assert check(pos, power, order) is None, (str(pos.phase), power, str(order))


@pytest.mark.parametrize("seed", range(12))
def test_all_possible_orders_is_every_power_listing(seed: int) -> None:
    """The one-call listing (issue 16) is each power's ``possible_orders``, order for order."""
    from judge.adjudicator.possible import all_possible_orders

    pos = _random_position(seed)
    listed = all_possible_orders(pos)
    assert set(listed) == set(STANDARD.powers)
    for power in STANDARD.powers:
        assert listed[power] == possible_orders(pos, power), (str(pos.phase), power)


def test_possible_orders_include_convoys_and_supports() -> None:
    options = possible_orders(MOVEMENT, "ENGLAND")
    texts = {str(o) for os in options.values() for o in os}
    assert {"A YOR - NWY", "F NTH C A YOR - NWY", "F NTH S A YOR - NWY", "A LVP - YOR"} <= texts
    assert "F LON S F NTH - ENG" in texts


@pytest.mark.parametrize("seed", range(6))
def test_position_json_round_trip(seed: int) -> None:
    pos = _random_position(seed)
    data = position_to_json(pos)
    again = position_from_json(data)
    assert position_to_json(again) == data
    assert again.units == pos.units and again.centers == pos.centers
    assert {k: (d.unit, d.retreats) for k, d in again.dislodged.items()} == {
        k: (d.unit, d.retreats) for k, d in pos.dislodged.items()
    }


def test_position_json_rejects_bad_dislodged_retreat() -> None:
    with pytest.raises(RequestError, match="unknown province"):
        position_from_json(
            {"phase": "S1901R", "units": {}, "dislodged": {"FRANCE": {"A BUR": ["XXX"]}}}
        )


def test_position_json_centres_are_read_alike_the_first_time_and_after() -> None:
    """The texts of centres are checked once and then looked up (jsonio._Reading): the answer,
    and each error, is the same the first time and every time after."""
    good = {"phase": "S1901M", "units": {},
            "centers": {"FRANCE": ["PAR", "bre", "MAR"], "ENGLAND": ["LON"]}}
    for _ in range(2):
        pos = position_from_json(good)
        assert pos.centers == {"PAR": "FRANCE", "BRE": "FRANCE", "MAR": "FRANCE",
                               "LON": "ENGLAND"}
        pos.centers["PAR"] = "GERMANY"  # a position's centres are its own
    for _ in range(2):  # the same list, now owned by two powers
        with pytest.raises(RequestError, match="supply centre PAR owned twice"):
            position_from_json({"phase": "S1901M", "units": {},
                                "centers": {"FRANCE": ["PAR", "bre", "MAR"],
                                            "GERMANY": ["MUN", "PAR"]}})
        with pytest.raises(RequestError, match="supply centre BRE owned twice"):
            position_from_json({"phase": "S1901M", "units": {},
                                "centers": {"FRANCE": ["BRE", "PAR", "bre"]}})
        with pytest.raises(RequestError, match="not a supply centre"):
            position_from_json({"phase": "S1901M", "units": {}, "centers": {"FRANCE": ["BUR"]}})


def test_position_json_lists_powers_and_their_entries_in_order() -> None:
    """Powers in order, each one's units and centres sorted, whatever order they came in; a
    power the variant does not name (none does, from a request) is listed in order too."""
    from judge.adjudicator.jsonio import _sorted_groups

    request = {
        "phase": "S1901M",
        "units": {"TURKEY": ["F ANK", "A CON"], "AUSTRIA": ["F TRI", "A BUD"]},
        "centers": {"TURKEY": ["SMY", "ANK"], "AUSTRIA": ["VIE", "BUD"]},
    }
    out = position_to_json(position_from_json(request))
    assert list(out["units"].items()) == [("AUSTRIA", ["A BUD", "F TRI"]),
                                          ("TURKEY", ["A CON", "F ANK"])]
    assert list(out["centers"].items()) == [("AUSTRIA", ["BUD", "VIE"]), ("TURKEY", ["ANK", "SMY"])]
    groups = {"ZZZ": ["B", "A"], "AUSTRIA": ["Y", "X"], "AAA": ["Q", "P"]}
    assert list(_sorted_groups(groups, ("AUSTRIA", "TURKEY")).items()) == [
        ("AAA", ["P", "Q"]), ("AUSTRIA", ["X", "Y"]), ("ZZZ", ["A", "B"])
    ]
