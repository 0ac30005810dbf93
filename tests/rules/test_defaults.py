"""Seed 002's defaults: tacit retreat, automatic disband, automatic build; 2008 removals."""

from __future__ import annotations

from judge.adjudicator.catalog import variant
from judge.adjudicator.orders import parse_unit
from judge.adjudicator.position import Dislodged
from judge.rules.defaults import (
    automatic_builds,
    automatic_disbands,
    french_removals,
    rulebook_removals,
    tacit_retreat,
)
from judge.rules.generated import GeneratedWhy
from tests.rules.helpers import position, texts

ENGLAND_HOMES = {"ENGLAND": ["EDI", "LON", "LVP"]}
STANDARD_BOARD = variant("standard").board


def _england_builds(units: list[str], centers: list[str]) -> list[str]:
    pos = position("W1901A", {"ENGLAND": units, "FRANCE": ["A BRE"]}, {"ENGLAND": centers})
    owed = pos.adjustment_counts()["ENGLAND"]
    return texts(automatic_builds(pos, "ENGLAND", owed))


def test_seed_england_two_builds_only_london_free() -> None:
    # seed 002: "soltanto Londra è libera: viene costruita una flotta a Londra e basta"
    units = ["A EDI", "F NTH", "A LVP"]
    centers = ["EDI", "LON", "LVP", "NWY", "BEL"]
    assert _england_builds(units, centers) == ["F LON B"]


def test_seed_england_two_builds_edinburgh_and_liverpool_free() -> None:
    units = ["F LON", "F NTH", "F NWG"]
    centers = ["EDI", "LON", "LVP", "NWY", "BEL"]
    assert _england_builds(units, centers) == ["F EDI B", "A LVP B"]


def test_seed_england_two_builds_all_three_free() -> None:
    units = ["F NTH", "F NWG", "A NWY"]
    centers = ["EDI", "LON", "LVP", "NWY", "BEL"]
    assert _england_builds(units, centers) == ["F EDI B", "F LON B"]


def test_russia_builds_st_petersburg_fleet_on_south_coast() -> None:
    pos = position(
        "W1901A",
        {"RUSSIA": ["A UKR", "F BOT", "A LVN", "F BLA"]},
        {"RUSSIA": ["MOS", "SEV", "STP", "WAR", "RUM", "SWE"]},
    )
    built = automatic_builds(pos, "RUSSIA", 2)
    assert texts(built) == ["A MOS B", "F SEV B"]
    built = automatic_builds(pos, "RUSSIA", 4)
    assert texts(built) == ["A MOS B", "F SEV B", "F STP/SC B", "A WAR B"]
    assert {g.why for g in built} == {GeneratedWhy.AUTOMATIC_BUILD}


def test_no_build_on_a_lost_home_centre() -> None:
    pos = position("W1901A", {"ENGLAND": ["F NTH"]}, {"ENGLAND": ["LON", "NWY"], "FRANCE": ["EDI"]})
    assert texts(automatic_builds(pos, "ENGLAND", 2)) == ["F LON B"]


def _retreat(power: str, unit: str, retreats: tuple[str, ...]) -> str:
    pos = position("F1901R", {})
    dislodged = Dislodged(parse_unit(unit, power), None, retreats)
    return str(tacit_retreat(dislodged, pos.homes, STANDARD_BOARD))


def test_seed_tacit_retreat_prefers_the_original_borders() -> None:
    # seed 002: a German army "in Olanda" that may go to Ruhr or Burgundy goes to Ruhr
    assert _retreat("GERMANY", "A HOL", ("BUR", "RUH")) == "A HOL R RUH"


def test_seed_tacit_retreat_then_prefers_a_supply_centre() -> None:
    # seed 002: Munich rather than Ruhr
    assert _retreat("GERMANY", "A BUR", ("RUH", "MUN")) == "A BUR R MUN"


def test_seed_tacit_retreat_then_alphabetical() -> None:
    # seed 002: kie rather than mun
    assert _retreat("GERMANY", "A RUH", ("MUN", "KIE")) == "A RUH R KIE"


def test_tacit_retreat_on_a_real_position() -> None:
    # a German army in Belgium driven out of it from Picardy: Holland, Ruhr or Burgundy
    assert _retreat("GERMANY", "A BEL", ("BUR", "HOL", "RUH")) == "A BEL R RUH"
    # a French fleet far from home heads back towards France
    assert _retreat("FRANCE", "F ION", ("TUN", "TYS", "APU")) == "F ION R TYS"


def test_tacit_retreat_with_nowhere_to_go_disbands() -> None:
    pos = position("F1901R", {})
    generated = tacit_retreat(Dislodged(parse_unit("A MUN", "GERMANY"), "BOH", ()), pos.homes,
                              STANDARD_BOARD)
    assert str(generated) == "A MUN D"
    assert generated.why is GeneratedWhy.TACIT_RETREAT_NOWHERE


def test_automatic_disband_farthest_first() -> None:
    pos = position(
        "W1902A",
        {"FRANCE": ["A PAR", "F MAO", "A SPA", "F TUN", "A BUR"]},
        {"FRANCE": ["PAR", "BRE", "MAR"]},
    )
    # TUN is 2 provinces from MAR, SPA and MAO 1 from home centres; BUR and PAR closer
    assert texts(automatic_disbands(pos, "FRANCE", 1)) == ["F TUN D"]
    # MAO, SPA, BUR all one province away: off a centre first (MAO, BUR), fleet before army
    assert texts(automatic_disbands(pos, "FRANCE", 3)) == ["F TUN D", "F MAO D", "A BUR D"]


def test_automatic_disband_fleet_before_army_then_alphabetical() -> None:
    pos = position(
        "W1902A",
        {"TURKEY": ["A SER", "F ION", "A ALB", "F ADR"]},
        {"TURKEY": ["ANK"]},
    )
    order = texts(automatic_disbands(pos, "TURKEY", 4))
    assert order[-1] == "A SER D"
    # ALB (army, no centre) and ADR (fleet, no centre) at the same distance: fleet first
    assert order.index("F ADR D") < order.index("A ALB D")


def test_automatic_disband_skips_units_the_player_removed() -> None:
    pos = position("W1902A", {"FRANCE": ["A PAR", "F TUN", "F MAO"]}, {"FRANCE": ["PAR"]})
    assert texts(automatic_disbands(pos, "FRANCE", 1, keep_out={"TUN"})) == ["F MAO D"]


def test_rulebook_removal_ignores_supply_centres() -> None:
    pos = position(
        "W1902A",
        {"FRANCE": ["A PAR", "A SPA", "F MAO"]},
        {"FRANCE": ["PAR"]},
    )
    # both one province from home centres; the rulebook takes the fleet first, seed 002 too
    assert texts(rulebook_removals(pos, "FRANCE", 1)) == ["F MAO D"]
    pos = position("W1902A", {"FRANCE": ["A PAR", "A SPA", "A GAS"]}, {"FRANCE": ["PAR"]})
    # GAS and SPA both one province from a home centre: off a centre (seed 002), by code (2008)
    assert texts(automatic_disbands(pos, "FRANCE", 1)) == ["A GAS D"]
    assert texts(rulebook_removals(pos, "FRANCE", 1)) == ["A GAS D"]
    pos = position("W1902A", {"FRANCE": ["A PAR", "A POR", "A PIC"]}, {"FRANCE": ["PAR"]})
    # POR is two provinces from MAR, PIC one from PAR
    assert texts(automatic_disbands(pos, "FRANCE", 1)) == ["A POR D"]


def test_seed_000_civil_disorder_removals_take_units_off_a_centre_first() -> None:
    # seed 000, XV: "les unités retirées du jeu en priorité sont celles qui sont les plus
    # éloignées de leurs centres d'origine [...] En cas d'égalité, sont éliminées
    # prioritairement les unités qui n'occupent pas un centre, puis les flottes avant les
    # armées; en dernier lieu, on utilise l'ordre alphabétique."
    pos = position(
        "W1902A", {"FRANCE": ["A PAR", "A SPA", "F MAO", "A GAS"]}, {"FRANCE": ["PAR", "BRE"]}
    )
    # SPA (a centre), MAO and GAS are each one province from a home centre
    assert texts(french_removals(pos, "FRANCE", 1)) == ["F MAO D"]
    assert texts(french_removals(pos, "FRANCE", 2)) == ["F MAO D", "A GAS D"]
    # the 2008 rulebook knows no centre criterion: fleets first, then GAS before SPA by code
    assert texts(rulebook_removals(pos, "FRANCE", 2)) == ["F MAO D", "A GAS D"]
    # DEN (a centre) and PRU are both one province from a German home centre: seed 000 removes
    # the army off the centre, the rulebook the first by code
    pos = position("W1902A", {"GERMANY": ["A BER", "A DEN", "A PRU"]}, {"GERMANY": ["BER"]})
    assert texts(french_removals(pos, "GERMANY", 1)) == ["A PRU D"]
    assert texts(rulebook_removals(pos, "GERMANY", 1)) == ["A DEN D"]
    # "les plus éloignées" first, whatever the type of the provinces between
    pos = position("W1902A", {"FRANCE": ["A PAR", "F NAO", "A MUN"]}, {"FRANCE": ["PAR", "BRE"]})
    assert texts(french_removals(pos, "FRANCE", 1)) == ["F NAO D"]


def test_seed_002_no_home_centre_left_no_automatic_build() -> None:
    # seed 002: "Se una potenza non possiede più CdA in patria, non può costruire nuove unità."
    pos = position(
        "W1905A",
        {"ENGLAND": ["F NTH"]},
        {"ENGLAND": ["NWY", "BEL", "HOL"], "FRANCE": ["EDI", "LON", "LVP"]},
    )
    assert pos.adjustment_counts()["ENGLAND"] == 2
    assert automatic_builds(pos, "ENGLAND", 2) == []
