"""Read and run DATC case files in the jDip/godip text format (see ../shared/datc/README.md).

Pure: ``parse_cases(text)`` and ``run_case(case)`` take and return values; the CLI reads the file.
Our own files may add one line per case, ``OPTION removal_distance owned``, for DATC 3.0 cases
that follow the 2023 civil-disorder rule.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from judge.adjudicator.adjudication import Options, adjudicate
from judge.adjudicator.adjustments import RemovalDistance
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.geography import Board
from judge.adjudicator.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
)
from judge.adjudicator.phase import Phase
from judge.adjudicator.position import Dislodged, Position
from judge.adjudicator.retreats import retreat_options
from judge.adjudicator.variant import Variant

# the file's spellings that differ from the design's codes
_ALIASES = {"GOL": "LYO", "MID": "MAO", "NAT": "NAO", "NRG": "NWG"}

# errata 1 of the README: ids written wrongly in the file (the second 6.F.14 is 6.F.15)
_RENAMED = {"6.F.E": "6.F.5"}

# cases whose expectation in datc_v2.4_06.txt is not the DATC 3.0 ruling we follow; each is
# replaced by a case in tests/data/datc_v3_cases.txt
KNOWN_WRONG: dict[str, str] = {
    "6.G.8": "the file expects DATC 2.4's fallback to the land route; DATC 3.0 keeps the army in "
    "bel (tests/data/datc_v3_cases.txt 6.G.8)",
}


class DatcFormatError(ValueError):
    pass


@dataclass
class DatcCase:
    id: str
    title: str = ""
    phase: str | None = None  # None: no phase line, the standard variant's first phase
    owners: list[tuple[str, str]] | None = None
    prestate: list[tuple[str, str]] = field(default_factory=list)  # (power, "A LVP")
    dislodged: list[tuple[str, str]] = field(default_factory=list)
    results: list[tuple[bool, str, str]] = field(default_factory=list)
    orders: list[tuple[str, str]] = field(default_factory=list)
    poststate: list[tuple[str, str]] | None = None  # None: POSTSTATE_SAME
    post_dislodged: list[tuple[str, str]] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class CaseReport:
    case: DatcCase
    passed: bool
    expected_units: list[str]
    got_units: list[str]
    expected_dislodged: list[str]
    got_dislodged: list[str]
    error: str | None = None


def _loc(text: str) -> str:
    code = text.strip().upper()
    prov, _, coast = code.partition("/")
    prov = _ALIASES.get(prov, prov)
    return f"{prov}/{coast}" if coast else prov


def _power(text: str) -> str:
    word = text.strip().upper()
    powers = installed_variant("standard").powers  # DATC cases are written on the standard map
    if word in powers:
        return word
    close = difflib.get_close_matches(word, powers, n=1, cutoff=0.7)
    if not close:
        raise DatcFormatError(f"unknown power {text!r}")
    return close[0]


def _split_power(line: str) -> tuple[str, str]:
    if ":" in line:
        head, _, rest = line.partition(":")
    else:
        head, _, rest = line.partition(" ")
    return _power(head), rest.strip()


def _phase(text: str) -> str:
    m = re.match(r"(Spring|Fall|Winter)\s+(\d{4}),\s*(Movement|Retreat|Adjustment)", text.strip())
    if not m:
        raise DatcFormatError(f"bad phase {text!r}")
    season, year, kind = m.groups()
    if kind == "Adjustment":
        return f"W{year}A"
    return f"{season[0]}{year}{kind[0]}"


_BLOCKS = {
    "PRESTATE_SUPPLYCENTER_OWNERS": "owners",
    "PRESTATE": "prestate",
    "PRESTATE_DISLODGED": "dislodged",
    "PRESTATE_RESULTS": "results",
    "ORDERS": "orders",
    "POSTSTATE": "poststate",
    "POSTSTATE_DISLODGED": "post_dislodged",
}


def parse_cases(text: str) -> list[DatcCase]:
    cases: list[DatcCase] = []
    case: DatcCase | None = None
    block: str | None = None
    seen_ids: set[str] = set()
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word = line.split()[0]
        if word == "VARIANT_ALL":
            continue
        if word == "CASE":
            rest = line[5:].strip()
            cid, _, title = rest.partition(" ")
            cid = cid.rstrip(".")
            cid = _RENAMED.get(cid, cid)
            if cid in seen_ids and cid == "6.F.14":
                cid = "6.F.15"
            seen_ids.add(cid)
            case = DatcCase(cid, title.strip())
            block = None
            continue
        if case is None:
            raise DatcFormatError(f"text outside a case: {line!r}")
        if word == "END":
            cases.append(case)
            case, block = None, None
        elif word == "PRESTATE_SETPHASE":
            case.phase = _phase(line[len(word) :])
            block = None
        elif word == "POSTSTATE_SAME":
            case.poststate = None
            block = None
        elif word == "OPTION":
            parts = line.split()
            case.options[parts[1]] = parts[2]
            block = None
        elif word in _BLOCKS:
            block = _BLOCKS[word]
            if block == "owners":
                case.owners = []
            if block == "poststate":
                case.poststate = []
        elif block is None:
            raise DatcFormatError(f"{case.id}: unexpected line {line!r}")
        elif block == "results":
            flag, _, rest = line.partition(":")
            power, order = _split_power(rest)
            case.results.append((flag.strip().upper() == "SUCCESS", power, order))
        else:
            power, rest = _split_power(line)
            getattr(case, block).append((power, rest))
    return cases


def _unit(power: str, text: str) -> Unit:
    kind, loc = text.split(None, 1)
    return Unit(power, UnitType(kind.upper()), _loc(loc))


def parse_order(text: str, units: dict[str, Unit]) -> Order:
    """One order in the file's notation (``A lvp-iri``, ``F nth C A lon-bel``, ``Remove pic``)."""
    low = re.sub(r"\s*-\s*", " - ", text.strip().lower())
    tokens = low.split()
    head = tokens[0]
    if head == "build":
        return Build(UnitType(tokens[1].upper()), _loc(tokens[2]))
    if head in ("remove", "disband"):
        loc = _loc(tokens[-1])
        unit = units.get(loc.split("/")[0])
        kind = (
            UnitType(tokens[1].upper())
            if len(tokens) == 3
            else (unit.type if unit else UnitType.ARMY)
        )
        return Disband(kind, loc)
    kind, loc, rest = UnitType(head.upper()), _loc(tokens[1]), tokens[2:]
    if not rest or rest in (["h"], ["hold"], ["holds"]):
        return Hold(kind, loc)
    if rest[0] == "-":
        via = rest[2:] == ["via", "convoy"]
        return Move(kind, loc, _loc(rest[1]), via)
    if rest[0] in ("s", "supports", "support"):
        other_kind, other = UnitType(rest[1].upper()), _loc(rest[2])
        tail = rest[3:]
        if not tail or tail in (["h"], ["hold"]):
            return SupportHold(kind, loc, other_kind, other)
        if tail[0] == "-":
            return SupportMove(kind, loc, other_kind, other, _loc(tail[1]))
    if rest[0] in ("c", "convoys", "convoy") and rest[1] in ("a", "f") and rest[3] == "-":
        # a convoy of a fleet (6.A.7) is written as one of an army and refused as such
        return Convoy(kind, loc, _loc(rest[2]), _loc(rest[4]))
    raise DatcFormatError(f"cannot read order {text!r}")


def build_position(case: DatcCase, board: Board) -> Position:
    standard = installed_variant("standard")  # DATC cases are written on the standard map
    # a case without a phase line is played in the first phase (the DATC's convention)
    phase = standard.first_phase if case.phase is None else Phase.parse(case.phase)
    units: dict[str, Unit] = {}
    for power, text in case.prestate:
        unit = _unit(power, text)
        units[unit.province] = unit
    if case.owners is None:
        centers = dict(standard.initial_position().centers)
    else:
        centers = {_unit(p, t).province: p for p, t in case.owners}
    dislodged: dict[str, Dislodged] = {}
    if case.dislodged:
        origins: dict[str, str] = {}
        standoffs: set[str] = set()
        failed: list[tuple[str, str]] = []
        for success, _power, text in case.results:
            order = parse_order(text, units)
            if not isinstance(order, Move) or order.via_convoy:
                continue  # convoyed moves neither block a retreat nor make a standoff
            src, dst = order.location.split("/")[0], order.target.split("/")[0]
            if success:
                origins[dst] = src
            else:
                failed.append((src, dst))
        for src, dst in failed:
            # a unit beaten head to head made no standoff in the winner's old province
            if dst not in units and origins.get(src) != dst:
                standoffs.add(dst)
        for power, text in case.dislodged:
            unit = _unit(power, text)
            origin = origins.get(unit.province)
            options = retreat_options(board, unit, units, origin, standoffs)
            dislodged[unit.province] = Dislodged(unit, origin, options)
    return Position(phase, units, centers, dislodged, standard.homes, standard.name)


def _labels(pairs: list[tuple[str, str]]) -> list[str]:
    return sorted(f"{u.power} {u}" for u in (_unit(p, t) for p, t in pairs))


def run_case(case: DatcCase, variant: Variant | None = None) -> CaseReport:
    """DATC cases are written for the standard map; ``variant`` defaults to it."""
    variant = variant or installed_variant()
    b = variant.board
    expected_units = _labels(case.prestate if case.poststate is None else case.poststate)
    expected_dis = _labels(case.dislodged if case.poststate is None else case.post_dislodged)
    try:
        position = build_position(case, b)
        orders: dict[str, list[Order]] = {}
        for power, text in case.orders:
            order = parse_order(text, position.units)
            if position.phase.is_retreat and isinstance(order, Move):
                order = Retreat(order.unit_type, order.location, order.target)
            orders.setdefault(power, []).append(order)
        distance = RemovalDistance(case.options.get("removal_distance", "home"))
        result = adjudicate(position, orders, Options(removal_distance=distance), variant)
    except (DatcFormatError, ValueError) as exc:
        return CaseReport(case, False, expected_units, [], expected_dis, [], str(exc))
    after = result.position
    got_units = sorted(f"{u.power} {u}" for u in after.units.values())
    got_dis = sorted(f"{d.unit.power} {d.unit}" for d in after.dislodged.values())
    passed = got_units == expected_units and got_dis == expected_dis
    return CaseReport(case, passed, expected_units, got_units, expected_dis, got_dis)
