"""The JSON shapes of design.md: positions, and one adjudication request and its answer.

``position_to_json`` / ``position_from_json`` are the stored form of a position (other modules
keep positions this way, so the shape is stable):
``{"phase": "F1901R", "units": {"ENGLAND": ["F LON"]}, "centers": {"ENGLAND": ["LON"]},
"dislodged": {"FRANCE": {"A BUR": ["GAS", "PAR"]}}}`` (+ ``"homes"`` when not the standard ones).

``adjudicate_json(request)`` answers the ``judge adjudicate`` contract; bad input raises
``RequestError`` with a message that names the problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.adjudicator.adjudication import Options, adjudicate
from judge.adjudicator.adjustments import RemovalDistance
from judge.adjudicator.geography import POWERS, Board, standard_board
from judge.adjudicator.orders import (
    Build,
    Move,
    NotationError,
    Order,
    Retreat,
    Unit,
    UnitType,
    Waive,
    parse_canonical,
    parse_unit,
    unit_value,
)
from judge.adjudicator.phase import Phase
from judge.adjudicator.position import Dislodged, Position


class RequestError(ValueError):
    """The request cannot be adjudicated; the message says why, for a one-line error."""


def _sorted_units(units: list[Unit]) -> list[str]:
    return sorted(str(u) for u in units)


def position_to_json(pos: Position) -> dict[str, Any]:
    units: dict[str, list[str]] = {}
    for unit in pos.units.values():
        units.setdefault(unit.power, []).append(str(unit))
    centers: dict[str, list[str]] = {}
    for prov, power in pos.centers.items():
        centers.setdefault(power, []).append(prov)
    dislodged: dict[str, dict[str, list[str]]] = {}
    for d in pos.dislodged.values():
        dislodged.setdefault(d.unit.power, {})[str(d.unit)] = list(d.retreats)
    out: dict[str, Any] = {
        "phase": str(pos.phase),
        "units": {p: sorted(v) for p, v in sorted(units.items())},
        "centers": {p: sorted(v) for p, v in sorted(centers.items())},
        "dislodged": {p: dict(sorted(v.items())) for p, v in sorted(dislodged.items())},
    }
    if pos.homes != standard_board().all_home_centers:
        out["homes"] = {p: list(v) for p, v in sorted(pos.homes.items())}
    return out


def _power(name: Any) -> str:
    if not isinstance(name, str) or name.upper() not in POWERS:
        raise RequestError(f"unknown power {name!r} (expected one of {', '.join(POWERS)})")
    return name.upper()


def _string_list(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RequestError(f"{what} must be a list of strings")
    return value


def _mapping(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise RequestError(f"{what} must be an object")
    return value


def _read_unit(text: str, power: str, board: Board) -> Unit:
    try:
        unit = parse_unit(text, power)
    except NotationError as exc:
        raise RequestError(f"bad unit {text!r} for {power}: expected e.g. 'A PAR'") from exc
    if unit.location not in board.locations:
        raise RequestError(f"unknown province in unit {text!r} for {power}")
    if unit.type is UnitType.ARMY and not board.can_army_stand(unit.location):
        raise RequestError(f"army at sea: {text!r} for {power}")
    if unit.type is UnitType.FLEET and not board.can_fleet_stand(unit.location):
        prov = board.provinces[unit.province]
        why = "coast not named" if prov.coasts else "inland"
        raise RequestError(f"fleet cannot stand at {unit.location} ({why}): {text!r} for {power}")
    return unit_value(unit.power, unit.type, unit.location)  # the shared value: see orders.py


def position_from_json(obj: Any, board: Board | None = None) -> Position:
    b = board or standard_board()
    data = _mapping(obj, "the request")
    raw_phase = data.get("phase")
    if not isinstance(raw_phase, str):
        raise RequestError('missing phase (e.g. "S1901M")')
    try:
        phase = Phase.parse(raw_phase)
    except ValueError as exc:
        raise RequestError(str(exc)) from exc
    units: dict[str, Unit] = {}
    for power_name, texts in _mapping(data.get("units", {}), "units").items():
        power = _power(power_name)
        for text in _string_list(texts, f"units of {power}"):
            unit = _read_unit(text, power, b)
            if unit.province in units:
                raise RequestError(f"two units in {unit.province}")
            units[unit.province] = unit
    if "centers" in data and data["centers"] is not None:
        centers: dict[str, str] = {}
        for power_name, provs in _mapping(data["centers"], "centers").items():
            power = _power(power_name)
            for text in _string_list(provs, f"centers of {power}"):
                prov = text.strip().upper()
                if prov not in b.provinces:
                    raise RequestError(f"unknown province {text!r} in centers of {power}")
                if not b.provinces[prov].supply_center:
                    raise RequestError(f"{prov} is not a supply centre (centers of {power})")
                if prov in centers:
                    raise RequestError(f"supply centre {prov} owned twice")
                centers[prov] = power
    else:
        centers = {c: p for p, cs in b.all_home_centers.items() for c in cs}
    dislodged: dict[str, Dislodged] = {}
    for power_name, entries in _mapping(data.get("dislodged", {}), "dislodged").items():
        power = _power(power_name)
        for text, retreats in _mapping(entries, f"dislodged units of {power}").items():
            unit = _read_unit(text, power, b)
            if unit.province in dislodged:
                raise RequestError(f"two dislodged units in {unit.province}")
            locs = []
            for r in _string_list(retreats, f"retreats of {text}"):
                loc = r.strip().upper()
                if loc not in b.locations:
                    raise RequestError(f"unknown province {r!r} in retreats of {text}")
                locs.append(loc)
            dislodged[unit.province] = Dislodged(unit, None, tuple(sorted(locs)))
    homes = b.all_home_centers
    if "homes" in data:
        homes = {}
        for power_name, provs in _mapping(data["homes"], "homes").items():
            power = _power(power_name)
            homes[power] = tuple(sorted(p.strip().upper() for p in _string_list(provs, "homes")))
    return Position(phase, units, centers, dislodged, homes)


def _read_order(text: str, power: str, position: Position) -> Order:
    try:
        order = parse_canonical(text)
    except NotationError as exc:
        raise RequestError(f"bad order {text!r} for {power}: {exc}") from exc
    if isinstance(order, Waive | Build):
        return order
    prov = order.location.split("/", 1)[0]
    if position.phase.is_retreat:
        if prov not in position.dislodged and prov not in position.units:
            raise RequestError(f"order for a unit that does not exist: {text!r} for {power}")
        if isinstance(order, Move):
            # a retreat is often written as a move; read it as the retreat it is
            return Retreat(order.unit_type, order.location, order.target)
        return order
    if prov not in position.units:
        raise RequestError(f"order for a unit that does not exist: {text!r} for {power}")
    return order


def orders_from_json(obj: Any, position: Position) -> dict[str, list[Order]]:
    orders: dict[str, list[Order]] = {}
    for power_name, texts in _mapping(obj, "orders").items():
        power = _power(power_name)
        orders[power] = [
            _read_order(t, power, position) for t in _string_list(texts, f"orders of {power}")
        ]
    return orders


def options_from_json(obj: Any) -> Options:
    if obj is None:
        return Options()
    data = _mapping(obj, "options")
    try:
        return Options(RemovalDistance(data.get("removal_distance", "home")))
    except ValueError as exc:
        raise RequestError('options.removal_distance must be "home" or "owned"') from exc


def adjudicate_json(obj: Any) -> dict[str, Any]:
    """One request of the ``judge adjudicate`` contract -> its answer."""
    position = position_from_json(obj)
    orders = orders_from_json(obj.get("orders") or {}, position)
    result = adjudicate(position, orders, options_from_json(obj.get("options")))
    after = position_to_json(result.position)
    return {
        "phase": str(position.phase),
        "results": {
            power: [r.to_json() for r in rs] for power, rs in sorted(result.results.items())
        },
        "units": after["units"],
        "dislodged": after["dislodged"],
        "centers": after["centers"],
        "next_phase": after["phase"],
    }
