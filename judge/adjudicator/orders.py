"""Order types and the canonical notation fixed by the design.

Canonical (upper case): ``A PAR H``, ``A PAR - BUR``, ``A LON - BEL VIA``,
``A MAR S A PAR - BUR``, ``F BRE S A PAR``, ``F NTH C A LON - NWY``, ``A BUR R GAS``,
``A BUR D``, ``F STP/SC B``, ``A PAR D`` (adjustment disband), ``WAIVE``.
Orders are small frozen value objects so they can be compared, hashed and voted on. Each
order class is final: the adjudicator tells them apart by ``type(order) is Kind``, which mypy
narrows exactly only for final classes. Each value class says how it is pickled and copied
(``__reduce__``: its class and fields): the dataclass default sets the fields of a frozen
instance one by one, which the optional compiled build (``scripts/build_compiled.sh``) refuses.
"""

from __future__ import annotations

import builtins  # ``type`` is a field of Unit
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, final


class UnitType(StrEnum):
    ARMY = "A"
    FLEET = "F"

    # Hashed as its value, in C. ``Enum.__hash__`` is Python code (``hash(self._name_)``), run
    # at every look-up of a key that holds one (the movement phase's plans, the shared units):
    # a tenth of a batch's time. A StrEnum member equals its value, so hashing as the value
    # is also what the hash contract asks. The adjudicator's other StrEnums do the same.
    __hash__ = str.__hash__


@dataclass(frozen=True, slots=True)
class Unit:
    power: str
    type: UnitType
    location: str  # canonical location, a coast for fleets on two-coast provinces

    @property
    def province(self) -> str:
        return self.location.split("/", 1)[0]

    def __reduce__(self) -> tuple[builtins.type[Unit], tuple[str, UnitType, str]]:
        return (Unit, (self.power, self.type, self.location))

    def __str__(self) -> str:
        return f"{self.type._value_} {self.location}"


# Units are immutable values; making a frozen dataclass costs about a microsecond, and the
# movement phase recognises a unit it planned for by identity first, so the units a game makes
# are kept and shared (the map and the seven powers bound how many there can be).
_UNITS: Final[dict[tuple[str, UnitType, str], Unit]] = {}


def unit_value(power: str, kind: UnitType, loc: str) -> Unit:
    """The shared ``Unit(power, kind, loc)``."""
    key = (power, kind, loc)
    unit = _UNITS.get(key)
    if unit is None:
        unit = _UNITS[key] = Unit(power, kind, loc)
    return unit


@final
@dataclass(frozen=True, slots=True)
class Hold:
    unit_type: UnitType
    location: str

    def __reduce__(self) -> tuple[type[Hold], tuple[UnitType, str]]:
        return (Hold, (self.unit_type, self.location))

    def __str__(self) -> str:
        return f"{self.unit_type._value_} {self.location} H"


@final
@dataclass(frozen=True, slots=True)
class Move:
    unit_type: UnitType
    location: str
    target: str
    via_convoy: bool = False

    def __reduce__(self) -> tuple[type[Move], tuple[UnitType, str, str, bool]]:
        return (Move, (self.unit_type, self.location, self.target, self.via_convoy))

    def __str__(self) -> str:
        via = " VIA" if self.via_convoy else ""
        return f"{self.unit_type._value_} {self.location} - {self.target}{via}"


@final
@dataclass(frozen=True, slots=True)
class SupportHold:
    unit_type: UnitType
    location: str
    supported_type: UnitType
    supported: str

    def __reduce__(self) -> tuple[type[SupportHold], tuple[UnitType, str, UnitType, str]]:
        return (SupportHold, (self.unit_type, self.location, self.supported_type, self.supported))

    def __str__(self) -> str:
        return (
            f"{self.unit_type._value_} {self.location} S {self.supported_type._value_} {self.supported}"
        )


@final
@dataclass(frozen=True, slots=True)
class SupportMove:
    unit_type: UnitType
    location: str
    supported_type: UnitType
    supported: str
    target: str

    def __reduce__(self) -> tuple[type[SupportMove], tuple[UnitType, str, UnitType, str, str]]:
        return (SupportMove, (self.unit_type, self.location, self.supported_type, self.supported, self.target))

    def __str__(self) -> str:
        return (
            f"{self.unit_type._value_} {self.location} S "
            f"{self.supported_type._value_} {self.supported} - {self.target}"
        )


@final
@dataclass(frozen=True, slots=True)
class Convoy:
    unit_type: UnitType
    location: str
    army: str
    target: str

    def __reduce__(self) -> tuple[type[Convoy], tuple[UnitType, str, str, str]]:
        return (Convoy, (self.unit_type, self.location, self.army, self.target))

    def __str__(self) -> str:
        return f"{self.unit_type._value_} {self.location} C A {self.army} - {self.target}"


@final
@dataclass(frozen=True, slots=True)
class Retreat:
    unit_type: UnitType
    location: str
    target: str

    def __reduce__(self) -> tuple[type[Retreat], tuple[UnitType, str, str]]:
        return (Retreat, (self.unit_type, self.location, self.target))

    def __str__(self) -> str:
        return f"{self.unit_type._value_} {self.location} R {self.target}"


@final
@dataclass(frozen=True, slots=True)
class Disband:
    """Retreat-phase disband or adjustment-phase removal: the phase tells which."""

    unit_type: UnitType
    location: str

    def __reduce__(self) -> tuple[type[Disband], tuple[UnitType, str]]:
        return (Disband, (self.unit_type, self.location))

    def __str__(self) -> str:
        return f"{self.unit_type._value_} {self.location} D"


@final
@dataclass(frozen=True, slots=True)
class Build:
    unit_type: UnitType
    location: str

    def __reduce__(self) -> tuple[type[Build], tuple[UnitType, str]]:
        return (Build, (self.unit_type, self.location))

    def __str__(self) -> str:
        return f"{self.unit_type._value_} {self.location} B"


@final
@dataclass(frozen=True, slots=True)
class Waive:
    def __reduce__(self) -> tuple[type[Waive], tuple[()]]:
        return (Waive, ())

    def __str__(self) -> str:
        return "WAIVE"


Order = Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build | Waive
MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)
UNIT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy, Retreat, Disband, Build)

_LOC = r"([A-Z]{3}(?:/(?:NC|SC|EC))?)"
_UT = r"([AF])"
_PATTERNS: list[tuple[re.Pattern[str], type]] = [
    (re.compile(rf"^{_UT} {_LOC} H$"), Hold),
    (re.compile(rf"^{_UT} {_LOC} - {_LOC}( VIA)?$"), Move),
    (re.compile(rf"^{_UT} {_LOC} S {_UT} {_LOC} - {_LOC}$"), SupportMove),
    (re.compile(rf"^{_UT} {_LOC} S {_UT} {_LOC}( H)?$"), SupportHold),
    (re.compile(rf"^{_UT} {_LOC} C A {_LOC} - {_LOC}$"), Convoy),
    (re.compile(rf"^{_UT} {_LOC} R {_LOC}$"), Retreat),
    (re.compile(rf"^{_UT} {_LOC} D$"), Disband),
    (re.compile(rf"^{_UT} {_LOC} B$"), Build),
]


# The patterns an order can match, by its third word (the verb: each pattern has one), so that
# a text is tried against its own kind only; and the unit types by letter (an enum's own lookup
# by value runs Python code).
_BY_VERB: Final[dict[str, list[tuple[re.Pattern[str], type]]]] = {}
for _pattern, _kind in _PATTERNS:
    _BY_VERB.setdefault(_pattern.pattern.split(" ")[2].rstrip("$"), []).append((_pattern, _kind))
_UNIT_TYPES: Final = {t.value: t for t in UnitType}


class NotationError(ValueError):
    """The text is not in canonical notation."""


# Orders are immutable values and the same texts come back phase after phase (a batch of
# ``judge adjudicate`` requests, a game's holds and supports), so what a text reads as is kept;
# the tables are emptied when full, as a hostile stream of distinct texts could fill them.
_ORDER_TEXTS: Final[dict[str, Order]] = {}
_UNIT_TEXTS: Final[dict[tuple[str, str], Unit]] = {}
_TEXTS_KEPT: Final = 20_000


def parse_canonical(text: str) -> Order:
    """Read one order in canonical notation (whitespace and case are forgiven, nothing else)."""
    order = _ORDER_TEXTS.get(text)
    if order is None:
        order = _parse_canonical(text)
        if len(_ORDER_TEXTS) >= _TEXTS_KEPT:
            _ORDER_TEXTS.clear()
        _ORDER_TEXTS[text] = order
    return order


def _parse_canonical(text: str) -> Order:
    norm = " ".join(text.upper().split())
    if norm == "WAIVE":
        return Waive()
    words = norm.split(" ", 3)
    for pattern, kind in _BY_VERB.get(words[2], ()) if len(words) > 2 else ():
        m = pattern.match(norm)
        if not m:
            continue
        g = m.groups()
        ut = _UNIT_TYPES[g[0]]
        if kind is Hold:
            return Hold(ut, g[1])
        if kind is Move:
            return Move(ut, g[1], g[2], via_convoy=bool(g[3]))
        if kind is SupportMove:
            return SupportMove(ut, g[1], _UNIT_TYPES[g[2]], g[3], g[4])
        if kind is SupportHold:
            return SupportHold(ut, g[1], _UNIT_TYPES[g[2]], g[3])
        if kind is Convoy:
            return Convoy(ut, g[1], g[2], g[3])
        if kind is Retreat:
            return Retreat(ut, g[1], g[2])
        if kind is Disband:
            return Disband(ut, g[1])
        return Build(ut, g[1])
    raise NotationError(f"not a canonical order: {text!r}")


_UNIT_PATTERN = re.compile(rf"^{_UT} {_LOC}$")


def parse_unit(text: str, power: str) -> Unit:
    """Read ``A PAR`` / ``F STP/SC`` for ``power`` (the shared value of ``unit_value``)."""
    key = (text, power)
    unit = _UNIT_TEXTS.get(key)
    if unit is None:
        norm = " ".join(text.upper().split())
        m = _UNIT_PATTERN.match(norm)
        if not m:
            raise NotationError(f"not a unit: {text!r} (expected e.g. 'A PAR' or 'F STP/SC')")
        unit = unit_value(power, _UNIT_TYPES[m.group(1)], m.group(2))
        if len(_UNIT_TEXTS) >= _TEXTS_KEPT:
            _UNIT_TEXTS.clear()
        _UNIT_TEXTS[key] = unit
    return unit
