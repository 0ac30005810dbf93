"""The JSON shapes of design.md: positions, and one adjudication request and its answer.

``position_to_json`` / ``position_from_json`` are the stored form of a position (other modules
keep positions this way, so the shape is stable):
``{"phase": "F1901R", "units": {"ENGLAND": ["F LON"]}, "centers": {"ENGLAND": ["LON"]},
"dislodged": {"FRANCE": {"A BUR": ["GAS", "PAR"]}}}`` (+ ``"homes"`` when not the standard ones).

``adjudicate_json(request)`` answers the ``judge adjudicate`` contract; bad input raises
``RequestError`` with a message that names the problem. ``"variant"`` (default ``"standard"``)
names the map and rules (``judge variants`` lists them); ``"italy_joins"`` names the power that
won the lot of seed 001's two-player game (``standard-2``), needed from Winter 1914 on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from judge.adjudicator.adjudication import Options, adjudicate
from judge.adjudicator.adjustments import BuildRule, RemovalDistance
from judge.adjudicator.catalog import DEFAULT_VARIANT, variant_names
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.geography import Board
from judge.adjudicator.order_result import order_result_json
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
from judge.adjudicator.variant import Variant, VariantError

# orders about no unit on the board (a tuple made once: ``Waive | Build`` makes a union each time)
_NO_UNIT: Final = (Waive, Build)


class RequestError(ValueError):
    """The request cannot be adjudicated; the message says why, for a one-line error."""


# The texts of phases written, by the object's identity: phases are shared values (read once per
# text), and ``str`` of one runs Python code each time (an order keeps its own text, see
# ``orders._OrderValue``). The entry keeps its object, so an id is never reused while listed.
_TEXTS: Final[dict[int, tuple[object, str]]] = {}


def _text(value: object) -> str:
    entry = _TEXTS.get(id(value))
    if entry is not None and entry[0] is value:
        return entry[1]
    text = str(value)
    _keep(_TEXTS, id(value), (value, text))
    return text


def _sorted_groups(groups: dict[str, list[str]], powers: tuple[str, ...]) -> dict[str, list[str]]:
    """``groups`` with the powers and each list in order: the lists sorted in place, the powers
    taken in the variant's sorted order (sorting the pairs compared tuples, at every answer)."""
    out: dict[str, list[str]] = {}
    for power in powers:
        group = groups.get(power)
        if group is not None:
            group.sort()
            out[power] = group
    if len(out) != len(groups):  # a power the variant does not name (never from a request)
        return {p: sorted(v) for p, v in sorted(groups.items())}
    return out


def position_to_json(pos: Position, variant: Variant | None = None) -> dict[str, Any]:
    units: dict[str, list[str]] = {}
    for unit in pos.units.values():
        mine = units.get(unit.power)
        if mine is None:
            units[unit.power] = [str(unit)]
        else:
            mine.append(str(unit))
    centers: dict[str, list[str]] = {}
    for prov, power in pos.centers.items():
        owned = centers.get(power)
        if owned is None:
            centers[power] = [prov]
        else:
            owned.append(prov)
    dislodged: dict[str, dict[str, list[str]]] = {}
    for d in pos.dislodged.values():
        dislodged.setdefault(d.unit.power, {})[str(d.unit)] = list(d.retreats)
    v = variant or installed_variant(pos.variant)
    reading = _reading(v)
    out: dict[str, Any] = {
        "phase": _text(pos.phase),
        "units": _sorted_groups(units, reading.sorted_powers),
        "centers": _sorted_groups(centers, reading.sorted_powers),
        "dislodged": {p: dict(sorted(v.items())) for p, v in sorted(dislodged.items())},
    }
    if pos.homes != reading.homes:
        out["homes"] = {p: list(h) for p, h in sorted(pos.homes.items())}
    if v.name != DEFAULT_VARIANT:
        out["variant"] = v.name  # a stored position keeps its map (the service reads it back)
    return out


def _power(name: Any, powers: tuple[str, ...]) -> str:
    if not isinstance(name, str) or name.upper() not in powers:
        raise RequestError(f"unknown power {name!r} (expected one of {', '.join(powers)})")
    return name.upper()


def variant_from_request(obj: Any) -> Variant:
    """The request's ``"variant"`` (default ``"standard"``)."""
    name = obj.get("variant", DEFAULT_VARIANT) if isinstance(obj, dict) else DEFAULT_VARIANT
    if not isinstance(name, str) or name not in variant_names():
        raise RequestError(
            f"unknown variant {name!r} (installed: {', '.join(variant_names())})"
        )
    return installed_variant(name)


def _string_list(value: Any, what: str, whose: str = "") -> list[str]:
    """``value`` checked as a list of strings; the error names ``what`` (+ `` whose``), a text
    built only then (an f-string made for every list would cost more than the check)."""
    if not isinstance(value, list):
        raise RequestError(f"{what} {whose}".rstrip() + " must be a list of strings")
    # a plain loop: the compiled build makes it C (``all(map(...))`` would stay calls)
    for item in value:
        if not isinstance(item, str):
            raise RequestError(f"{what} {whose}".rstrip() + " must be a list of strings")
    return value


def _mapping(value: Any, what: str) -> dict[str, Any]:
    # a dict, not a Mapping, for the compiled build: its ``.get`` and ``.items()`` are then C
    if not isinstance(value, dict):
        raise RequestError(f"{what} must be an object")
    return value


class _Reading:
    """What the texts of requests on one variant read as, once checked: power names, units,
    supply centres, phases. A batch of requests names the same ones again and again, so each
    text is checked once and then looked up; any text not seen yet (or wrong) takes the
    checking road, which raises the request's error. The tables are emptied when full, as
    ``orders.py`` does with its texts (a hostile stream of distinct texts could fill them)."""

    __slots__ = ("variant", "powers", "sorted_powers", "units", "centers", "homes")

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.powers: dict[str, str] = {}  # a power's name as written -> the power
        self.sorted_powers = tuple(sorted(variant.powers))
        # per power: a unit's text -> the unit and its province
        self.units: dict[str, dict[str, tuple[Unit, str]]] = {p: {} for p in variant.powers}
        self.centers: dict[str, str] = {}  # a supply centre's text -> its province
        self.homes = variant.homes

    def power(self, name: Any) -> str:
        found = self.powers.get(name) if isinstance(name, str) else None
        if found is None:
            found = _power(name, self.variant.powers)
            _keep(self.powers, name, found)
        return found


_READINGS: Final[dict[str, _Reading]] = {}
_PHASES: Final[dict[str, Phase]] = {}


def _reading(variant: Variant) -> _Reading:
    reading = _READINGS.get(variant.name)
    if reading is None or reading.variant is not variant:
        reading = _READINGS[variant.name] = _Reading(variant)
    return reading


def _keep(table: dict[Any, Any], key: Any, value: Any) -> None:
    if len(table) >= 20_000:
        table.clear()
    table[key] = value


def _check_unit(text: str, power: str, board: Board) -> Unit:
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


def position_from_json(obj: Any, variant: Variant | None = None) -> Position:
    """``variant``: the game's; by default the one the JSON names (``"variant"``)."""
    v = variant or variant_from_request(obj)
    b = v.board
    reading = _reading(v)
    data = _mapping(obj, "the request")
    raw_phase = data.get("phase")
    if not isinstance(raw_phase, str):
        raise RequestError('missing phase (e.g. "S1901M")')
    phase = _PHASES.get(raw_phase)
    if phase is None:
        try:
            phase = Phase.parse(raw_phase)
        except ValueError as exc:
            raise RequestError(str(exc)) from exc
        _keep(_PHASES, raw_phase, phase)
    units: dict[str, Unit] = {}
    given = 0  # units listed: more than ``units`` holds when two share a province
    for power_name, texts in _mapping(data.get("units", {}), "units").items():
        power = reading.power(power_name)
        known = reading.units[power]
        for text in _string_list(texts, "units of", power):
            found = known.get(text)
            if found is None:
                unit = _check_unit(text, power, b)
                found = (unit, unit.province)
                _keep(known, text, found)
            units[found[1]] = found[0]
        given += len(texts)
    if given != len(units):
        _twice(reading, data["units"], lambda text, power: _check_unit(text, power, b).province,
               "two units in")
    if "centers" in data and data["centers"] is not None:
        centers: dict[str, str] = {}
        known_centers = reading.centers
        owned = 0
        for power_name, provs in _mapping(data["centers"], "centers").items():
            power = reading.power(power_name)
            for text in _string_list(provs, "centers of", power):
                centre = known_centers.get(text)
                if centre is None:
                    centre = _check_center(text, power, b)
                    _keep(known_centers, text, centre)
                centers[centre] = power
            owned += len(provs)
        if owned != len(centers):
            _twice(reading, data["centers"], lambda text, power: _check_center(text, power, b),
                   "supply centre", "owned twice")
    else:
        centers = {c: p for p, cs in reading.homes.items() for c in cs}
    dislodged: dict[str, Dislodged] = {}
    for power_name, entries in _mapping(data.get("dislodged", {}), "dislodged").items():
        power = reading.power(power_name)
        for text, retreats in _mapping(entries, f"dislodged units of {power}").items():
            unit = _check_unit(text, power, b)
            if unit.province in dislodged:
                raise RequestError(f"two dislodged units in {unit.province}")
            locs = []
            for r in _string_list(retreats, "retreats of", text):
                loc = r.strip().upper()
                if loc not in b.locations:
                    raise RequestError(f"unknown province {r!r} in retreats of {text}")
                locs.append(loc)
            dislodged[unit.province] = Dislodged(unit, None, tuple(sorted(locs)))
    if "homes" in data:
        homes: dict[str, tuple[str, ...]] = {}
        for power_name, provs in _mapping(data["homes"], "homes").items():
            power = reading.power(power_name)
            homes[power] = tuple(sorted(p.strip().upper() for p in _string_list(provs, "homes")))
    else:
        homes = dict(reading.homes)  # a copy: a position's homes are its own
    return Position(phase, units, centers, dislodged, homes, v.name)


def _twice(
    reading: _Reading, listed: dict[str, list[str]], province: Callable[[str, str], str],
    *words: str,
) -> None:
    """Raise the error for the first province listed twice: what the reading loop used to ask
    at every text (a look-up and an insertion), asked only when the counts show a repeat."""
    seen: set[str] = set()
    for power_name, texts in listed.items():
        power = reading.power(power_name)
        for text in texts:
            prov = province(text, power)
            if prov in seen:
                raise RequestError(" ".join((words[0], prov, *words[1:])))
            seen.add(prov)


def _check_center(text: str, power: str, board: Board) -> str:
    prov = text.strip().upper()
    if prov not in board.provinces:
        raise RequestError(f"unknown province {text!r} in centers of {power}")
    if not board.provinces[prov].supply_center:
        raise RequestError(f"{prov} is not a supply centre (centers of {power})")
    return prov


def _read_order(text: str, power: str, position: Position) -> Order:
    try:
        order = parse_canonical(text)
    except NotationError as exc:
        raise RequestError(f"bad order {text!r} for {power}: {exc}") from exc
    if isinstance(order, _NO_UNIT):
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


# An order's text -> the order and the province of its unit (None for WAIVE and builds): in
# a movement phase that is all ``_read_order`` needs (emptied when full, as above).
_ORDERS: Final[dict[str, tuple[Order, str | None]]] = {}
_RETREAT_RANK: Final = 1  # Phase.kind_rank of a retreat phase


def orders_from_json(
    obj: Any, position: Position, variant: Variant | None = None
) -> dict[str, list[Order]]:
    reading = _reading(variant or installed_variant(position.variant))
    orders: dict[str, list[Order]] = {}
    if position.phase.kind_rank == _RETREAT_RANK:
        for power_name, texts in _mapping(obj, "orders").items():
            power = reading.power(power_name)
            orders[power] = [
                _read_order(t, power, position) for t in _string_list(texts, "orders of", power)
            ]
        return orders
    units = position.units
    known = _ORDERS
    for power_name, texts in _mapping(obj, "orders").items():
        power = reading.power(power_name)
        mine: list[Order] = []
        for text in _string_list(texts, "orders of", power):
            found = known.get(text)
            if found is None:
                order = _read_order(text, power, position)  # raises if it cannot be read
                if isinstance(order, _NO_UNIT):
                    found = (order, None)
                else:
                    found = (order, order.location.split("/", 1)[0])
                _keep(known, text, found)
            elif found[1] is not None and found[1] not in units:
                _read_order(text, power, position)  # raises: no unit there
            mine.append(found[0])
        orders[power] = mine
    return orders


# by value: calling the enum (``RemovalDistance(text)``) runs Python code, once per request
_DISTANCES: Final = {d.value: d for d in RemovalDistance}
# the values made so far (immutable): a dataclass's ``__init__`` is Python code, twice a request
_OPTIONS: Final[dict[tuple[RemovalDistance, str | None, BuildRule | None], Options]] = {}
_BUILDS: Final = {b.value: b for b in BuildRule}


def options_from_json(
    obj: Any, variant: Variant | None = None, joins: Any = None, phase: Phase | None = None
) -> Options:
    """``"options"`` and ``"italy_joins"``; the latter is checked against ``variant``."""
    v = variant or installed_variant()
    distance = RemovalDistance.HOME
    builds: BuildRule | None = None
    if obj is not None:
        given = _mapping(obj, "options")
        value = given.get("removal_distance", "home")
        found = _DISTANCES.get(value) if isinstance(value, str) else None
        if found is None:
            raise RequestError('options.removal_distance must be "home" or "owned"')
        distance = found
        if "builds" in given:
            rule = given["builds"]
            builds = _BUILDS.get(rule) if isinstance(rule, str) else None
            if builds is None:
                raise RequestError(
                    f"options.builds must be one of {', '.join(b.value for b in BuildRule)}"
                )
    if joins is not None:
        if v.lot is None:
            raise RequestError(f"italy_joins: variant {v.name!r} draws no lot")
        if not isinstance(joins, str):
            raise RequestError("italy_joins must be a power name")
        joins = joins.strip().upper()
        try:
            v.seat_of(joins)
        except VariantError as exc:
            raise RequestError(f"italy_joins: {exc}") from exc
        if joins == v.lot.power:
            raise RequestError(f"italy_joins: {joins} cannot join itself")
    if phase is not None and joins is None and v.lot_drawn(phase):
        raise RequestError(
            f"variant {v.name!r}: the lot is drawn before {v.lot.drawn_before}"  # type: ignore[union-attr]
            f' ({phase} is later); give "italy_joins": one of the powers it may join'
        )
    options = _OPTIONS.get((distance, joins, builds))
    if options is None:  # (joins is a power of an installed variant: a handful of values)
        options = _OPTIONS[(distance, joins, builds)] = Options(distance, joins, builds)
    return options


def adjudicate_json(obj: Any) -> dict[str, Any]:
    """One request of the ``judge adjudicate`` contract -> its answer."""
    variant = variant_from_request(obj)
    position = position_from_json(obj, variant)
    orders = orders_from_json(obj.get("orders") or {}, position, variant)
    options = options_from_json(
        obj.get("options"), variant, obj.get("italy_joins"), position.phase
    )
    return answer_json(position, orders, options, variant)


def answer_json(
    position: Position, orders: dict[str, list[Order]], options: Options, variant: Variant
) -> dict[str, Any]:
    """The answer to a request already read (the house rules' handler reads it once)."""
    result = adjudicate(position, orders, options, variant)
    after = position_to_json(result.position, variant)
    return {
        "phase": _text(position.phase),
        "results": {
            power: [order_result_json(r, str(r.order)) for r in rs]
            for power, rs in sorted(result.results.items())
        },
        "units": after["units"],
        "dislodged": after["dislodged"],
        "centers": after["centers"],
        "next_phase": after["phase"],
    }
