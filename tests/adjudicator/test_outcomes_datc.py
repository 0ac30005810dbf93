"""Per-order outcomes (not only final positions) for the DATC 6.A-6.E cases.

The positions and orders come from the shared DATC file; the expected outcome of every
submitted order is written here, as ``POW ORDER=outcome[:refusal]`` in canonical notation.
"""

from __future__ import annotations

import pytest

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.datc import build_position, parse_order
from tests.adjudicator.test_datc import SHARED_CASES, SHARED_FILE
from tests.standard_variant import STANDARD

EXPECTED: dict[str, list[str]] = {
    "6.A.1": ["ENG F NTH - PIC=illegal:not_adjacent"],
    "6.A.2": ["ENG A LVP - IRI=illegal:army_to_sea"],
    "6.A.3": ["GER F KIE - MUN=illegal:fleet_to_land"],
    "6.A.3.fleet.support.inland": [
        "AUS F TRI S A BUD=illegal:support_unreachable",
        "AUS A BUD H=dislodged",
        "RUS A GAL - BUD=succeeds",
        "RUS A RUM S A GAL - BUD=succeeds",
    ],
    "6.A.4": ["GER F KIE - KIE=illegal:move_to_own_province"],
    "6.A.5": [
        "ENG F NTH C A YOR - YOR=illegal:move_to_own_province",
        "ENG A YOR - YOR=illegal:move_to_own_province",
        "ENG A LVP S A YOR - YOR=illegal:supported_move_impossible",
        "GER F LON - YOR=succeeds",
        "GER A WAL S F LON - YOR=succeeds",
    ],
    "6.A.5.old": [
        "ENG F LON - YOR=bounced",
        "ENG F NTH C A YOR - YOR=illegal:move_to_own_province",
        "ENG A YOR - YOR=illegal:move_to_own_province",
        "ENG A LVP S A YOR - YOR=illegal:supported_move_impossible",
    ],
    "6.A.6": ["GER F LON - NTH=illegal:not_your_unit"],
    "6.A.7": [
        "ENG F LON - BEL=illegal:not_adjacent",
        "ENG F NTH C A LON - BEL=illegal:no_convoyed_army",
    ],
    "6.A.7.modified": [
        "ENG F LON - BEL=illegal:not_adjacent",
        "ENG F NTH C A LON - BEL=illegal:no_convoyed_army",
    ],
    "6.A.8": [
        "ITA A VEN - TRI=succeeds",
        "ITA A TYR S A VEN - TRI=succeeds",
        "AUS F TRI S F TRI=illegal:support_self",
    ],
    "6.A.9": ["ITA F ROM - VEN=illegal:not_adjacent"],
    "6.A.10": [
        "AUS A VEN H=succeeds",
        "ITA F ROM S A APU - VEN=illegal:support_unreachable",
        "ITA A APU - VEN=bounced",
    ],
    "6.A.10.old": [
        "AUS A BUD S F TRI - VEN=illegal:support_unreachable",
        "AUS F TRI - VEN=bounced",
        "ITA A VEN H=succeeds",
    ],
    "6.A.11": ["AUS A VIE - TYR=bounced", "ITA A VEN - TYR=bounced"],
    "6.A.12": ["AUS A VIE - TYR=bounced", "ITA A VEN - TYR=bounced", "GER A MUN - TYR=bounced"],
    "6.B.1": ["FRA F POR - SPA=illegal:missing_coast"],
    "6.B.2": ["FRA F GAS - SPA/NC=succeeds"],
    "6.B.3": ["FRA F GAS - SPA/SC=illegal:wrong_coast"],
    "6.B.4": [
        "FRA F GAS - SPA/NC=succeeds",
        "FRA F MAR S F GAS - SPA/NC=succeeds",
        "ITA F WES - SPA/SC=bounced",
    ],
    "6.B.5": [
        "FRA F SPA/NC S F MAR - LYO=illegal:support_unreachable",
        "FRA F MAR - LYO=bounced",
        "ITA F LYO H=succeeds",
    ],
    "6.B.6": [
        "ENG F IRI S F NAO - MAO=succeeds",
        "ENG F NAO - MAO=succeeds",
        "FRA F SPA/NC S F MAO=support_cut",
        "FRA F MAO H=dislodged",
        "ITA F LYO - SPA/SC=bounced",
    ],
    "6.B.7": [
        "FRA F POR S F MAO - SPA=succeeds",
        "FRA F MAO - SPA/NC=bounced",
        "ITA F LYO S F WES - SPA/SC=succeeds",
        "ITA F WES - SPA/SC=bounced",
    ],
    "6.B.8": [
        "FRA F POR S F GAS - SPA=succeeds",
        "FRA F GAS - SPA/NC=bounced",
        "ITA F LYO S F WES - SPA/SC=succeeds",
        "ITA F WES - SPA/SC=bounced",
    ],
    "6.B.9": [
        "FRA F POR S F MAO - SPA/NC=void",
        "FRA F MAO - SPA/SC=bounced",
        "ITA F LYO S F WES - SPA/SC=succeeds",
        "ITA F WES - SPA/SC=succeeds",
    ],
    "6.B.10": ["FRA F SPA/SC - LYO=succeeds"],
    "6.B.11": ["FRA F SPA/SC - LYO=illegal:not_adjacent"],
    "6.B.12": ["FRA A GAS - SPA=succeeds"],
    "6.B.13": ["TUR F BUL/SC - CON=bounced", "TUR F CON - BUL/EC=bounced"],
    "6.B.14": ["RUS F STP B=illegal:missing_coast"],
    "6.C.1": ["TUR F ANK - CON=succeeds", "TUR A CON - SMY=succeeds", "TUR A SMY - ANK=succeeds"],
    "6.C.2": [
        "TUR F ANK - CON=succeeds",
        "TUR A CON - SMY=succeeds",
        "TUR A SMY - ANK=succeeds",
        "TUR A BUL S F ANK - CON=succeeds",
    ],
    "6.C.3": [
        "TUR F ANK - CON=bounced",
        "TUR A CON - SMY=bounced",
        "TUR A SMY - ANK=bounced",
        "TUR A BUL - CON=bounced",
    ],
    "6.C.4": [
        "AUS A TRI - SER=succeeds",
        "AUS A SER - BUL=succeeds",
        "TUR A BUL - TRI=succeeds",
        "TUR F AEG C A BUL - TRI=succeeds",
        "TUR F ION C A BUL - TRI=succeeds",
        "TUR F ADR C A BUL - TRI=succeeds",
        "ITA F NAP - ION=bounced",
    ],
    "6.C.5": [
        "AUS A TRI - SER=bounced",
        "AUS A SER - BUL=bounced",
        "TUR A BUL - TRI=convoy_disrupted",
        "TUR F AEG C A BUL - TRI=succeeds",
        "TUR F ION C A BUL - TRI=dislodged",
        "TUR F ADR C A BUL - TRI=succeeds",
        "ITA F NAP - ION=succeeds",
        "ITA F TUN S F NAP - ION=succeeds",
    ],
    "6.C.6": [
        "ENG F NTH C A LON - BEL=succeeds",
        "ENG A LON - BEL=succeeds",
        "FRA F ENG C A BEL - LON=succeeds",
        "FRA A BEL - LON=succeeds",
    ],
    "6.C.7": [
        "ENG F NTH C A LON - BEL=succeeds",
        "ENG A LON - BEL=bounced",
        "FRA F ENG C A BEL - LON=succeeds",
        "FRA A BEL - LON=bounced",
        "FRA A BUR - BEL=bounced",
    ],
    "6.D.1": [
        "AUS F ADR S A TRI - VEN=succeeds",
        "AUS A TRI - VEN=bounced",
        "ITA A VEN H=succeeds",
        "ITA A TYR S A VEN=succeeds",
    ],
    "6.D.2": [
        "AUS F ADR S A TRI - VEN=succeeds",
        "AUS A TRI - VEN=succeeds",
        "AUS A VIE - TYR=bounced",
        "ITA A VEN H=dislodged",
        "ITA A TYR S A VEN=support_cut",
    ],
    "6.D.3": [
        "AUS F ADR S A TRI - VEN=support_cut",
        "AUS A TRI - VEN=bounced",
        "ITA A VEN H=succeeds",
        "ITA F ION - ADR=bounced",
    ],
    "6.D.4": [
        "GER A BER S F KIE=support_cut",
        "GER F KIE S A BER=succeeds",
        "RUS F BAL S A PRU - BER=succeeds",
        "RUS A PRU - BER=bounced",
    ],
    "6.D.5": [
        "GER A BER S A MUN - SIL=support_cut",
        "GER F KIE S A BER=succeeds",
        "GER A MUN - SIL=succeeds",
        "RUS F BAL S A PRU - BER=succeeds",
        "RUS A PRU - BER=bounced",
    ],
    "6.D.6": [
        "GER A BER - SWE=succeeds",
        "GER F BAL C A BER - SWE=succeeds",
        "GER F PRU S F BAL=succeeds",
        "RUS F LVN - BAL=bounced",
        "RUS F BOT S F LVN - BAL=succeeds",
    ],
    "6.D.7": [
        "GER F BAL - SWE=bounced",
        "GER F PRU S F BAL=void",
        "RUS F LVN - BAL=succeeds",
        "RUS F BOT S F LVN - BAL=succeeds",
        "RUS A FIN - SWE=bounced",
    ],
    "6.D.8": [
        "AUS F ION H=succeeds",
        "AUS A SER S A ALB - GRE=succeeds",
        "AUS A ALB - GRE=succeeds",
        "TUR A GRE - NAP=no_convoy_route",
        "TUR A BUL S A GRE=void",
    ],
    "6.D.9": [
        "ITA A VEN - TRI=succeeds",
        "ITA A TYR S A VEN - TRI=succeeds",
        "AUS F ALB S A TRI - SER=illegal:wrong_supported_type",
        "AUS F TRI H=dislodged",
    ],
    "6.D.10": [
        "GER A BER H=succeeds",
        "GER F KIE - BER=bounced",
        "GER A MUN S F KIE - BER=succeeds",
    ],
    "6.D.11": [
        "GER A BER - PRU=bounced",
        "GER F KIE - BER=bounced",
        "GER A MUN S F KIE - BER=succeeds",
        "RUS A WAR - PRU=bounced",
    ],
    "6.D.12": [
        "AUS F TRI H=succeeds",
        "AUS A VIE S A VEN - TRI=succeeds",
        "ITA A VEN - TRI=bounced",
    ],
    "6.D.13": [
        "AUS F TRI - ADR=bounced",
        "AUS A VIE S A VEN - TRI=succeeds",
        "ITA A VEN - TRI=bounced",
        "ITA F APU - ADR=bounced",
    ],
    "6.D.14": [
        "AUS F TRI H=dislodged",
        "AUS A VIE S A VEN - TRI=succeeds",
        "ITA A VEN - TRI=succeeds",
        "ITA A TYR S A VEN - TRI=succeeds",
        "ITA F ADR S A VEN - TRI=succeeds",
    ],
    "6.D.15": [
        "RUS F CON S F BLA - ANK=succeeds",
        "RUS F BLA - ANK=succeeds",
        "TUR F ANK - CON=bounced",
    ],
    "6.D.16": [
        "ENG A LON H=dislodged",
        "ENG F NTH C A BEL - LON=succeeds",
        "FRA F ENG S A BEL - LON=succeeds",
        "FRA A BEL - LON=succeeds",
    ],
    "6.D.17": [
        "RUS F CON S F BLA - ANK=dislodged",
        "RUS F BLA - ANK=bounced",
        "TUR F ANK - CON=succeeds",
        "TUR A SMY S F ANK - CON=succeeds",
        "TUR A ARM - ANK=bounced",
    ],
    "6.D.18": [
        "RUS F CON S F BLA - ANK=succeeds",
        "RUS F BLA - ANK=succeeds",
        "RUS A BUL S F CON=succeeds",
        "TUR F ANK - CON=bounced",
        "TUR A SMY S F ANK - CON=succeeds",
        "TUR A ARM - ANK=bounced",
    ],
    "6.D.19": [
        "RUS F CON S F BLA - ANK=succeeds",
        "RUS F BLA - ANK=succeeds",
        "RUS A SMY S F ANK - CON=succeeds",
        "TUR F ANK - CON=bounced",
    ],
    "6.D.20": [
        "ENG F LON S F NTH - ENG=succeeds",
        "ENG F NTH - ENG=succeeds",
        "ENG A YOR - LON=bounced",
        "FRA F ENG H=dislodged",
    ],
    "6.D.21": [
        "AUS F TRI H=succeeds",
        "ITA A VEN - TRI=bounced",
        "ITA A TYR S A VEN - TRI=support_cut",
        "GER A MUN - TYR=bounced",
        "RUS A SIL - MUN=succeeds",
        "RUS A BER S A SIL - MUN=succeeds",
    ],
    "6.D.22": [
        "GER F KIE - MUN=illegal:fleet_to_land",
        "GER A BUR S A MUN - KIE=illegal:support_unreachable",
        "RUS A MUN - KIE=succeeds",
        "RUS A BER S A MUN - KIE=succeeds",
    ],
    "6.D.23": [
        "ITA F LYO - SPA/SC=succeeds",
        "ITA F WES S F LYO - SPA/SC=succeeds",
        "FRA F SPA/NC - LYO=illegal:not_adjacent",
        "FRA F MAR S F SPA/NC - LYO=illegal:supported_move_impossible",
    ],
    "6.D.24": [
        "FRA A MAR - LYO=illegal:army_to_sea",
        "FRA F SPA/SC S A MAR - LYO=illegal:supported_move_impossible",
        "ITA F LYO H=dislodged",
        "TUR F TYS S F WES - LYO=succeeds",
        "TUR F WES - LYO=succeeds",
    ],
    "6.D.25": [
        "GER A BER S A PRU=void",
        "GER F KIE S A BER=succeeds",
        "RUS F BAL S A PRU - BER=succeeds",
        "RUS A PRU - BER=bounced",
    ],
    "6.D.26": [
        "GER A BER S A SIL=illegal:no_supported_unit",
        "GER F KIE S A BER=succeeds",
        "RUS F BAL S A PRU - BER=succeeds",
        "RUS A PRU - BER=bounced",
    ],
    "6.D.27": [
        "ENG F SWE - BAL=bounced",
        "ENG F DEN S F SWE - BAL=succeeds",
        "GER A BER H=succeeds",
        "RUS F BAL C A BER - LVN=void",
        "RUS F PRU S F BAL=succeeds",
    ],
    "6.D.28": [
        "AUS A BUD S F RUM=succeeds",
        "RUS F RUM - HOL=illegal:not_adjacent",
        "TUR F BLA - RUM=bounced",
        "TUR A BUL S F BLA - RUM=succeeds",
    ],
    "6.D.29": [
        "AUS A BUD S F RUM=succeeds",
        "RUS F RUM - BUL/SC=illegal:wrong_coast",
        "TUR F BLA - RUM=bounced",
        "TUR A BUL S F BLA - RUM=succeeds",
    ],
    "6.D.30": [
        "ITA F AEG S F CON=succeeds",
        "RUS F CON - BUL=illegal:missing_coast",
        "TUR F BLA - CON=bounced",
        "TUR A BUL S F BLA - CON=succeeds",
    ],
    "6.D.31": ["AUS A RUM - ARM=no_convoy_route", "TUR F BLA S A RUM - ARM=succeeds"],
    "6.D.32": [
        "ENG F EDI S A LVP - YOR=succeeds",
        "ENG A LVP - YOR=bounced",
        "FRA F LON S A YOR=succeeds",
        "GER A YOR - HOL=illegal:no_fleets_to_convoy",
    ],
    "6.D.33": [
        "AUS A SER - BUD=succeeds",
        "AUS A VIE - BUD=bounced",
        "RUS A GAL S A SER - BUD=succeeds",
        "TUR A BUL - SER=succeeds",
    ],
    "6.D.34": [
        "GER A BER - PRU=succeeds",
        "GER A SIL S A BER - PRU=succeeds",
        "GER F BAL S A BER - PRU=succeeds",
        "ITA A PRU S A LVN - PRU=illegal:support_own_province",
        "RUS A WAR S A LVN - PRU=succeeds",
        "RUS A LVN - PRU=bounced",
    ],
    "6.E.1": [
        "GER A BER - PRU=succeeds",
        "GER A KIE - BER=succeeds",
        "GER A SIL S A BER - PRU=succeeds",
        "RUS A PRU - BER=bounced",
    ],
    "6.E.2": [
        "GER A BER - KIE=bounced",
        "GER F KIE - BER=bounced",
        "GER A MUN S A BER - KIE=succeeds",
    ],
    "6.E.3": [
        "GER A BER - KIE=bounced",
        "GER A MUN S F KIE - BER=succeeds",
        "ENG F KIE - BER=bounced",
    ],
    "6.E.4": [
        "GER F HOL - NTH=bounced",
        "GER F HEL S F HOL - NTH=succeeds",
        "GER F SKA S F HOL - NTH=succeeds",
        "FRA F NTH - HOL=bounced",
        "FRA F BEL S F NTH - HOL=succeeds",
        "ENG F EDI S F NWG - NTH=succeeds",
        "ENG F YOR S F NWG - NTH=succeeds",
        "ENG F NWG - NTH=bounced",
        "AUS A KIE S A RUH - HOL=succeeds",
        "AUS A RUH - HOL=bounced",
    ],
    "6.E.5": [
        "GER F HOL - NTH=bounced",
        "GER F HEL S F HOL - NTH=succeeds",
        "GER F SKA S F HOL - NTH=succeeds",
        "FRA F NTH - HOL=bounced",
        "FRA F BEL S F NTH - HOL=succeeds",
        "ENG F EDI S F NWG - NTH=succeeds",
        "ENG F YOR S F NWG - NTH=succeeds",
        "ENG F NWG - NTH=succeeds",
        "ENG F LON S F NWG - NTH=succeeds",
        "AUS A KIE S A RUH - HOL=succeeds",
        "AUS A RUH - HOL=bounced",
    ],
    "6.E.6": [
        "GER F HOL - NTH=bounced",
        "GER F HEL S F HOL - NTH=succeeds",
        "FRA F NTH - HOL=bounced",
        "FRA F BEL S F NTH - HOL=succeeds",
        "FRA F ENG S F HOL - NTH=succeeds",
        "AUS A KIE S A RUH - HOL=succeeds",
        "AUS A RUH - HOL=bounced",
    ],
    "6.E.7": [
        "ENG F NTH H=succeeds",
        "ENG F YOR S F NWY - NTH=succeeds",
        "GER F HOL S F HEL - NTH=succeeds",
        "GER F HEL - NTH=bounced",
        "RUS F SKA S F NWY - NTH=succeeds",
        "RUS F NWY - NTH=bounced",
    ],
    "6.E.8": [
        "ENG F NTH - NWY=bounced",
        "ENG F YOR S F NWY - NTH=succeeds",
        "GER F HOL S F HEL - NTH=succeeds",
        "GER F HEL - NTH=bounced",
        "RUS F SKA S F NWY - NTH=succeeds",
        "RUS F NWY - NTH=bounced",
    ],
    "6.E.9": [
        "ENG F NTH - NWG=succeeds",
        "ENG F YOR S F NWY - NTH=succeeds",
        "GER F HOL S F HEL - NTH=succeeds",
        "GER F HEL - NTH=bounced",
        "RUS F SKA S F NWY - NTH=succeeds",
        "RUS F NWY - NTH=succeeds",
    ],
    "6.E.10": [
        "ENG F NTH - DEN=bounced",
        "ENG F YOR S F NWY - NTH=succeeds",
        "GER F HOL S F HEL - NTH=succeeds",
        "GER F HEL - NTH=bounced",
        "GER F DEN - HEL=bounced",
        "RUS F SKA S F NWY - NTH=succeeds",
        "RUS F NWY - NTH=bounced",
    ],
    "6.E.11": [
        "FRA A SPA - POR VIA=succeeds",
        "FRA F MAO C A SPA - POR=succeeds",
        "FRA F LYO S F POR - SPA/NC=succeeds",
        "GER A MAR S A GAS - SPA=succeeds",
        "GER A GAS - SPA=bounced",
        "ITA F POR - SPA/NC=succeeds",
        "ITA F WES S F POR - SPA/NC=succeeds",
    ],
    "6.E.12": [
        "AUS A BUD - RUM=bounced",
        "AUS A SER S A VIE - BUD=succeeds",
        "ITA A VIE - BUD=bounced",
        "RUS A GAL - BUD=bounced",
        "RUS A RUM S A GAL - BUD=succeeds",
    ],
    "6.E.13": [
        "ENG F EDI S F YOR - NTH=succeeds",
        "ENG F YOR - NTH=bounced",
        "FRA F BEL - NTH=bounced",
        "FRA F ENG S F BEL - NTH=succeeds",
        "GER F NTH H=succeeds",
        "RUS F NWG - NTH=bounced",
        "RUS F NWY S F NWG - NTH=succeeds",
    ],
    "6.E.14": ["ENG A LVP - EDI=bounced", "RUS F EDI - LVP=illegal:not_adjacent"],
    "6.E.15": [
        "ENG F HOL S A RUH - KIE=succeeds",
        "ENG A RUH - KIE=bounced",
        "FRA A KIE - BER=bounced",
        "FRA A MUN S A KIE - BER=succeeds",
        "FRA A SIL S A KIE - BER=succeeds",
        "GER A BER - KIE=bounced",
        "GER F DEN S A BER - KIE=succeeds",
        "GER F HEL S A BER - KIE=succeeds",
        "RUS F BAL S A PRU - BER=succeeds",
        "RUS A PRU - BER=bounced",
    ],
}


def _outcomes(case_id: str) -> list[str]:
    case = next(c for c in SHARED_CASES if c.id == case_id)
    board = STANDARD.board
    position = build_position(case, board)
    orders: dict = {}
    for power, text in case.orders:
        orders.setdefault(power, []).append(parse_order(text, position.units))
    result = adjudicate(position, orders)
    got = []
    for power, results in result.results.items():
        for r in results:
            if r.generated:
                continue
            tail = f":{r.refusal.value}" if r.refusal else ""
            got.append(f"{power[:3]} {r.order}={r.outcome.value}{tail}")
    return got


@pytest.mark.skipif(not SHARED_CASES, reason=f"{SHARED_FILE} not present")
@pytest.mark.parametrize("case_id", sorted(EXPECTED))
def test_outcomes_of_every_order(case_id: str) -> None:
    assert sorted(_outcomes(case_id)) == sorted(EXPECTED[case_id])


@pytest.mark.skipif(not SHARED_CASES, reason=f"{SHARED_FILE} not present")
def test_table_covers_sections_a_to_e() -> None:
    wanted = {c.id for c in SHARED_CASES if c.id[:3] in ("6.A", "6.B", "6.C", "6.D", "6.E")}
    assert wanted == set(EXPECTED)
