"""Order types and the canonical notation fixed by the design.

Canonical (upper case): ``A PAR H``, ``A PAR - BUR``, ``A LON - BEL VIA``,
``A MAR S A PAR - BUR``, ``F BRE S A PAR``, ``F NTH C A LON - NWY``, ``A BUR R GAS``,
``A BUR D``, ``F STP/SC B``, ``A PAR D`` (adjustment disband), ``WAIVE``.
Orders are small immutable value objects so they can be compared, hashed and voted on. Each
order class is final: the adjudicator tells them apart by ``type(order) is Kind``, which mypy
narrows exactly only for final classes. Each value class says how it is pickled and copied
(``__reduce__``: its class and fields, so that what one keeps once made, its text and hash, is
not carried along; the optional compiled build, ``scripts/build_compiled.sh``, makes them
native classes, which pickle no other way).
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Final, final

from judge.adjudicator.field_value import FieldValue


class UnitType(StrEnum):
    ARMY = "A"
    FLEET = "F"

    # Hashed as its value, in C. ``Enum.__hash__`` is Python code (``hash(self._name_)``), run
    # at every look-up of a key that holds one (the movement phase's plans, the shared units):
    # a tenth of a batch's time. A StrEnum member equals its value, so hashing as the value
    # is also what the hash contract asks. The adjudicator's other StrEnums do the same.
    __hash__ = str.__hash__


@final
class Unit(FieldValue):
    """A unit of a power at a location: a value (``field_value.py``) that keeps its text
    (``A PAR``: what answers and results write for it) once made."""

    __slots__ = ("power", "type", "location", "_text", "_moves")
    _NAMES = ("power", "type", "location")

    power: Final[str]
    type: Final[UnitType]
    location: Final[str]  # canonical location, a coast for fleets on two-coast provinces
    _text: str | None
    _moves: dict[str, Unit] | None  # see ``moved_to``

    def __init__(self, power: str, type: UnitType, location: str) -> None:  # noqa: A002
        self.power = power
        self.type = type
        self.location = location
        self._text = None
        self._moves = None

    def moved_to(self, location: str) -> Unit:
        """The shared unit (``unit_value``) of this power and type at ``location``, kept by
        this unit: the movement phase asks it for every unit that moves."""
        moves = self._moves
        if moves is None:
            moves = self._moves = {}
        unit = moves.get(location)
        if unit is None:
            unit = moves[location] = unit_value(self.power, self.type, location)
        return unit

    @property
    def province(self) -> str:
        return self.location.split("/", 1)[0]

    def _fields(self) -> tuple[str, UnitType, str]:
        return (self.power, self.type, self.location)

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self._text = f"{self.type._value_} {self.location}"
        return text


# Units are immutable values, and the movement phase recognises a unit it planned for by
# identity first (and a shared unit keeps its text), so the units a game makes are kept and
# shared (the map and the seven powers bound how many there can be).
_UNITS: Final[dict[tuple[str, UnitType, str], Unit]] = {}


def unit_value(power: str, kind: UnitType, loc: str) -> Unit:
    """The shared ``Unit(power, kind, loc)``."""
    key = (power, kind, loc)
    unit = _UNITS.get(key)
    if unit is None:
        unit = _UNITS[key] = Unit(power, kind, loc)
    return unit


class _OrderValue(FieldValue):
    """What every order class shares: a value (``field_value.py``) that keeps its canonical
    text and its hash once made: answers write every order's text, the movement phase looks its
    plans up by the order, and an order (shared, see ``parse_canonical``) comes back phase after
    phase."""

    __slots__ = ("_text", "_hash")

    _text: str | None
    _hash: int  # -1 until made (``hash`` never gives -1)

    def _render(self) -> str:
        return ""

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self._text = self._render()
        return text

    def __hash__(self) -> int:
        h = self._hash
        if h == -1:
            h = self._hash = hash(self._fields())
        return h


class _UnitOrder(_OrderValue):
    """An order about one unit and nothing else: a hold, a disband, a build."""

    __slots__ = ("unit_type", "location")
    _NAMES = ("unit_type", "location")

    unit_type: Final[UnitType]
    location: Final[str]

    def __init__(self, unit_type: UnitType, location: str) -> None:
        self.unit_type = unit_type
        self.location = location
        self._text = None
        self._hash = -1

    def _fields(self) -> tuple[UnitType, str]:
        return (self.unit_type, self.location)


@final
class Hold(_UnitOrder):
    __slots__ = ()

    def _render(self) -> str:
        return f"{self.unit_type._value_} {self.location} H"


@final
class Move(_OrderValue):
    __slots__ = ("unit_type", "location", "target", "via_convoy")
    _NAMES = ("unit_type", "location", "target", "via_convoy")

    unit_type: Final[UnitType]
    location: Final[str]
    target: Final[str]
    via_convoy: Final[bool]

    def __init__(
        self, unit_type: UnitType, location: str, target: str, via_convoy: bool = False
    ) -> None:
        self.unit_type = unit_type
        self.location = location
        self.target = target
        self.via_convoy = via_convoy
        self._text = None
        self._hash = -1

    def _fields(self) -> tuple[UnitType, str, str, bool]:
        return (self.unit_type, self.location, self.target, self.via_convoy)

    def _render(self) -> str:
        via = " VIA" if self.via_convoy else ""
        return f"{self.unit_type._value_} {self.location} - {self.target}{via}"


@final
class SupportHold(_OrderValue):
    __slots__ = ("unit_type", "location", "supported_type", "supported")
    _NAMES = ("unit_type", "location", "supported_type", "supported")

    unit_type: Final[UnitType]
    location: Final[str]
    supported_type: Final[UnitType]
    supported: Final[str]

    def __init__(
        self, unit_type: UnitType, location: str, supported_type: UnitType, supported: str
    ) -> None:
        self.unit_type = unit_type
        self.location = location
        self.supported_type = supported_type
        self.supported = supported
        self._text = None
        self._hash = -1

    def _fields(self) -> tuple[UnitType, str, UnitType, str]:
        return (self.unit_type, self.location, self.supported_type, self.supported)

    def _render(self) -> str:
        return (
            f"{self.unit_type._value_} {self.location} S {self.supported_type._value_} {self.supported}"
        )


@final
class SupportMove(_OrderValue):
    __slots__ = ("unit_type", "location", "supported_type", "supported", "target")
    _NAMES = ("unit_type", "location", "supported_type", "supported", "target")

    unit_type: Final[UnitType]
    location: Final[str]
    supported_type: Final[UnitType]
    supported: Final[str]
    target: Final[str]

    def __init__(
        self,
        unit_type: UnitType,
        location: str,
        supported_type: UnitType,
        supported: str,
        target: str,
    ) -> None:
        self.unit_type = unit_type
        self.location = location
        self.supported_type = supported_type
        self.supported = supported
        self.target = target
        self._text = None
        self._hash = -1

    def _fields(self) -> tuple[UnitType, str, UnitType, str, str]:
        return (self.unit_type, self.location, self.supported_type, self.supported, self.target)

    def _render(self) -> str:
        return (
            f"{self.unit_type._value_} {self.location} S "
            f"{self.supported_type._value_} {self.supported} - {self.target}"
        )


@final
class Convoy(_OrderValue):
    __slots__ = ("unit_type", "location", "army", "target")
    _NAMES = ("unit_type", "location", "army", "target")

    unit_type: Final[UnitType]
    location: Final[str]
    army: Final[str]
    target: Final[str]

    def __init__(self, unit_type: UnitType, location: str, army: str, target: str) -> None:
        self.unit_type = unit_type
        self.location = location
        self.army = army
        self.target = target
        self._text = None
        self._hash = -1

    def _fields(self) -> tuple[UnitType, str, str, str]:
        return (self.unit_type, self.location, self.army, self.target)

    def _render(self) -> str:
        return f"{self.unit_type._value_} {self.location} C A {self.army} - {self.target}"


@final
class Retreat(_OrderValue):
    __slots__ = ("unit_type", "location", "target")
    _NAMES = ("unit_type", "location", "target")

    unit_type: Final[UnitType]
    location: Final[str]
    target: Final[str]

    def __init__(self, unit_type: UnitType, location: str, target: str) -> None:
        self.unit_type = unit_type
        self.location = location
        self.target = target
        self._text = None
        self._hash = -1

    def _fields(self) -> tuple[UnitType, str, str]:
        return (self.unit_type, self.location, self.target)

    def _render(self) -> str:
        return f"{self.unit_type._value_} {self.location} R {self.target}"


@final
class Disband(_UnitOrder):
    """Retreat-phase disband or adjustment-phase removal: the phase tells which."""

    __slots__ = ()

    def _render(self) -> str:
        return f"{self.unit_type._value_} {self.location} D"


@final
class Build(_UnitOrder):
    __slots__ = ()

    def _render(self) -> str:
        return f"{self.unit_type._value_} {self.location} B"


@final
class Waive(_OrderValue):
    __slots__ = ()

    def __init__(self) -> None:
        self._text = None
        self._hash = -1

    def _render(self) -> str:
        return "WAIVE"


Order = Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build | Waive
MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)
UNIT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy, Retreat, Disband, Build)

_LOC = r"([A-Z]{3}(?:/(?:NC|SC|EC))?)"
_UT = r"([AF])"
# The canonical notation as patterns: what ``_parse_canonical`` reads word by word (the test
# suite checks the two agree); ``parse_unit`` matches its own.
PATTERNS: Final[tuple[tuple[re.Pattern[str], type], ...]] = (
    (re.compile(rf"^{_UT} {_LOC} H$"), Hold),
    (re.compile(rf"^{_UT} {_LOC} - {_LOC}( VIA)?$"), Move),
    (re.compile(rf"^{_UT} {_LOC} S {_UT} {_LOC} - {_LOC}$"), SupportMove),
    (re.compile(rf"^{_UT} {_LOC} S {_UT} {_LOC}( H)?$"), SupportHold),
    (re.compile(rf"^{_UT} {_LOC} C A {_LOC} - {_LOC}$"), Convoy),
    (re.compile(rf"^{_UT} {_LOC} R {_LOC}$"), Retreat),
    (re.compile(rf"^{_UT} {_LOC} D$"), Disband),
    (re.compile(rf"^{_UT} {_LOC} B$"), Build),
)

# The unit types by letter (an enum's own lookup by value runs Python code).
_UNIT_TYPES: Final = {t.value: t for t in UnitType}
_COASTS: Final = frozenset({"/NC", "/SC", "/EC"})


def _is_location(word: str) -> bool:
    """``[A-Z]{3}``, optionally followed by a coast (``/NC``, ``/SC``, ``/EC``)."""
    known = _LOCATION_WORDS.get(word)
    if known is None:
        known = _location_letters(word)
        if len(_LOCATION_WORDS) >= _WORDS_KEPT:
            _LOCATION_WORDS.clear()
        _LOCATION_WORDS[word] = known
    return known


# the words checked so far: a look-up costs less than the letters' test, which the compiled
# build makes through Python's string API (the same few hundred words come back)
_LOCATION_WORDS: Final[dict[str, bool]] = {}
_WORDS_KEPT: Final = 20_000


def _location_letters(word: str) -> bool:
    n = len(word)
    if n == 6:
        if word[3:] not in _COASTS:
            return False
    elif n != 3:
        return False
    return "A" <= word[0] <= "Z" and "A" <= word[1] <= "Z" and "A" <= word[2] <= "Z"


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
    # Word by word, as ``PATTERNS`` say: a regular expression per kind costs more than the
    # order it reads (a batch reads thousands of orders it has not seen before).
    words = text.upper().split()
    n = len(words)
    if n < 3:
        if n == 1 and words[0] == "WAIVE":
            return Waive()
        raise NotationError(f"not a canonical order: {text!r}")
    ut = _UNIT_TYPES.get(words[0])
    loc = words[1]
    verb = words[2]
    if ut is not None and _is_location(loc):
        if n == 3:
            if verb == "H":
                return Hold(ut, loc)
            if verb == "D":
                return Disband(ut, loc)
            if verb == "B":
                return Build(ut, loc)
        elif verb == "-":
            if _is_location(words[3]) and (n == 4 or (n == 5 and words[4] == "VIA")):
                return Move(ut, loc, words[3], via_convoy=n == 5)
        elif verb == "S":
            other = _UNIT_TYPES.get(words[3])
            supported = words[4] if n > 4 else ""
            if other is not None and _is_location(supported):
                if n == 5 or (n == 6 and words[5] == "H"):
                    return SupportHold(ut, loc, other, supported)
                if n == 7 and words[5] == "-" and _is_location(words[6]):
                    return SupportMove(ut, loc, other, supported, words[6])
        elif verb == "C":
            if (
                n == 7 and words[3] == "A" and words[5] == "-"
                and _is_location(words[4]) and _is_location(words[6])
            ):
                return Convoy(ut, loc, words[4], words[6])
        elif verb == "R" and n == 4 and _is_location(words[3]):
            return Retreat(ut, loc, words[3])
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
