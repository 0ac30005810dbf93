"""``judge adjudicate`` requests with house-rule keys, and the orders the judge must make up.

Shared by the unit tests (house_orders) and the command-line tests, so both give the same
generated orders.
"""

from __future__ import annotations

from typing import Any

INITIAL_UNITS = {
    "AUSTRIA": ["A VIE", "A BUD", "F TRI"],
    "ENGLAND": ["F LON", "F EDI", "A LVP"],
    "FRANCE": ["F BRE", "A PAR", "A MAR"],
    "GERMANY": ["F KIE", "A BER", "A MUN"],
    "ITALY": ["F NAP", "A ROM", "A VEN"],
    "RUSSIA": ["A WAR", "A MOS", "F SEV", "F STP/SC"],
    "TURKEY": ["F ANK", "A CON", "A SMY"],
}

# seed 002's Moscow standoff examples, with Turkey's army in Sevastopol in Sommossa
MOSCOW_UNITS = {
    "RUSSIA": ["A MOS"],
    "GERMANY": ["A LVN"],
    "ITALY": ["A WAR"],
    "TURKEY": ["A SEV"],
    "FRANCE": ["F BLA"],
}
MOSCOW_ORDERS = {
    "RUSSIA": ["A MOS H"],
    "GERMANY": ["A LVN - MOS"],
    "ITALY": ["A WAR S A LVN - MOS"],
}
MOSCOW_VOTES = {
    "TURKEY": {
        "ENGLAND": ["A SEV S A MOS"],
        "AUSTRIA": ["A SEV S A MOS"],
        "ITALY": ["A SEV - UKR"],
    }
}

CASES: dict[str, tuple[dict[str, Any], dict[str, list[str]]]] = {
    "first_onp_france": (
        {"phase": "S1901M", "units": INITIAL_UNITS, "orders": {}, "onp": {"FRANCE": 1}},
        {"FRANCE": ["F BRE H", "A MAR H", "A PAR S F BRE"]},
    ),
    "second_onp_france_majority": (
        {
            "phase": "S1901M",
            "units": INITIAL_UNITS,
            "orders": {},
            "onp": {"FRANCE": 2},
            "votes": {
                "FRANCE": {
                    "ENGLAND": ["A PAR - PIC", "F BRE - MAO"],
                    "GERMANY": ["A PAR - PIC"],
                    "ITALY": ["A PAR - BUR"],
                }
            },
        },
        {"FRANCE": ["F BRE - MAO", "A MAR H", "A PAR - PIC"]},
    ),
    "sommossa_tie_holds": (
        {
            "phase": "S1901M",
            "units": INITIAL_UNITS,
            "orders": {},
            "sommossa": ["TURKEY"],
            "votes": {"TURKEY": {"ENGLAND": ["A CON - BUL"], "RUSSIA": ["A CON H"]}},
        },
        {"TURKEY": ["F ANK H", "A CON H", "A SMY H"]},
    ),
    "moscow_standoff_sommossa_support": (
        {
            "phase": "S1902M",
            "units": MOSCOW_UNITS,
            "orders": MOSCOW_ORDERS,
            "sommossa": ["TURKEY"],
            "votes": MOSCOW_VOTES,
        },
        {"TURKEY": ["A SEV S A MOS"]},
    ),
    "moscow_falls_support_cut": (
        {
            "phase": "S1902M",
            "units": MOSCOW_UNITS,
            "orders": {**MOSCOW_ORDERS, "FRANCE": ["F BLA - SEV"]},
            "sommossa": ["TURKEY"],
            "votes": MOSCOW_VOTES,
        },
        {"TURKEY": ["A SEV S A MOS"]},
    ),
    "tacit_retreat": (
        {
            "phase": "F1901R",
            "units": {"FRANCE": ["A HOL", "F NTH"], "GERMANY": ["A MUN"]},
            "dislodged": {"GERMANY": {"A HOL": ["KIE", "RUH"]}},
            "orders": {},
            "rules": "italian",
        },
        {"GERMANY": ["A HOL R KIE"]},
    ),
    "rulebook_retreat_disbands": (
        {
            "phase": "F1901R",
            "units": {"FRANCE": ["A HOL", "F NTH"], "GERMANY": ["A MUN"]},
            "dislodged": {"GERMANY": {"A HOL": ["KIE", "RUH"]}},
            "orders": {},
            "rules": "rulebook",
        },
        {"GERMANY": ["A HOL D"]},
    ),
    "england_builds_all_three_free": (
        {
            "phase": "W1901A",
            "units": {"ENGLAND": ["F NTH", "F NWG", "A NWY"], "FRANCE": ["A PAR"]},
            "centers": {"ENGLAND": ["EDI", "LON", "LVP", "NWY", "BEL"], "FRANCE": ["PAR"]},
            "orders": {},
        },
        {"ENGLAND": ["F EDI B", "F LON B"]},
    ),
    "england_builds_edinburgh_liverpool_free": (
        {
            "phase": "W1901A",
            "units": {"ENGLAND": ["F LON", "F NTH", "F NWG"], "FRANCE": ["A PAR"]},
            "centers": {"ENGLAND": ["EDI", "LON", "LVP", "NWY", "BEL"], "FRANCE": ["PAR"]},
            "orders": {},
        },
        {"ENGLAND": ["F EDI B", "A LVP B"]},
    ),
    "automatic_disband": (
        {
            "phase": "W1901A",
            "units": {"FRANCE": ["A PAR", "F TUN", "F MAO"], "ITALY": ["A ROM"]},
            "centers": {"FRANCE": ["PAR", "BRE"], "ITALY": ["ROM", "NAP", "VEN"]},
            "orders": {"ITALY": ["WAIVE"]},
        },
        {"FRANCE": ["F TUN D"]},
    ),
    # seed 000's civil disorder: at equal distance, the unit off a centre goes first
    "french_removal_off_a_centre_first": (
        {
            "phase": "W1902A",
            "units": {"GERMANY": ["A BER", "A DEN", "A PRU"], "FRANCE": ["A PAR"]},
            "centers": {"GERMANY": ["BER", "MUN"], "FRANCE": ["PAR"]},
            "orders": {},
            "rules": "french",
        },
        {"GERMANY": ["A PRU D"]},
    ),
    "rulebook_removal_by_code": (
        {
            "phase": "W1902A",
            "units": {"GERMANY": ["A BER", "A DEN", "A PRU"], "FRANCE": ["A PAR"]},
            "centers": {"GERMANY": ["BER", "MUN"], "FRANCE": ["PAR"]},
            "orders": {},
            "rules": "rulebook",
        },
        {"GERMANY": ["A DEN D"]},
    ),
}
