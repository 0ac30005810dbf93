"""A game position: the phase, the units, centre ownership, and units waiting to retreat."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, final

from judge.adjudicator.field_value import FieldValue
from judge.adjudicator.orders import Unit, parse_unit
from judge.adjudicator.phase import Phase

if TYPE_CHECKING:
    from judge.adjudicator.geography import Board


@final
class Dislodged(FieldValue):
    """A unit dislodged in the movement phase just played, with where it may retreat: a value
    (``field_value.py``)."""

    __slots__ = ("unit", "attacker_from", "retreats")
    _NAMES = ("unit", "attacker_from", "retreats")

    unit: Final[Unit]
    attacker_from: Final[str | None]  # province the dislodging attack came from (None if convoyed)
    retreats: Final[tuple[str, ...]]  # legal retreat locations (coasts for fleets where needed)

    def __init__(self, unit: Unit, attacker_from: str | None, retreats: tuple[str, ...]) -> None:
        self.unit = unit
        self.attacker_from = attacker_from
        self.retreats = retreats

    def _fields(self) -> tuple[Unit, str | None, tuple[str, ...]]:
        return (self.unit, self.attacker_from, self.retreats)


@dataclass
class Position:
    """Where a game stands, on its variant's map.

    Every field is given: a position names the variant it belongs to and carries that variant's
    home centres (adjustments and civil disorder read them), so nothing falls back to a map the
    caller did not choose. ``Variant.initial_position()`` and ``Variant.position()`` build one.
    """

    phase: Phase
    units: dict[str, Unit]  # keyed by province code (a fleet on STP/SC is under "STP")
    centers: dict[str, str]  # supply-centre province -> owning power
    dislodged: dict[str, Dislodged]  # keyed by province
    homes: dict[str, tuple[str, ...]]  # power -> its home centres, for every power of the map
    # the name of the game's variant (``catalog.variant(name)``): a position knows its map, so
    # whoever holds one (the service, the bots, the maps) adjudicates and draws it on that map
    variant: str

    @classmethod
    def from_lists(
        cls,
        phase: str | Phase,
        units: Mapping[str, Iterable[str]],
        centers: Mapping[str, Iterable[str]],
        homes: Mapping[str, tuple[str, ...]],
        variant: str,
    ) -> Position:
        """Build from the JSON shape: ``{"ENGLAND": ["F LON", ...]}`` (``Variant.position()``
        fills ``homes`` and ``variant`` in, and the centres when none are given)."""
        placed: dict[str, Unit] = {}
        for power, texts in units.items():
            for text in texts:
                unit = parse_unit(text, power)
                placed[unit.province] = unit
        owned = {c: p for p, cs in centers.items() for c in cs}
        ph = phase if isinstance(phase, Phase) else Phase.parse(phase)
        return cls(ph, placed, owned, {}, dict(homes), variant)

    def units_of(self, power: str) -> list[Unit]:
        return sorted(
            (u for u in self.units.values() if u.power == power), key=lambda u: u.location
        )

    def centers_of(self, power: str) -> list[str]:
        return sorted(c for c, p in self.centers.items() if p == power)

    def unit_at(self, location: str) -> Unit | None:
        return self.units.get(location.split("/", 1)[0])

    def powers(self) -> tuple[str, ...]:
        """The powers of the position's map: every one has its home centres listed."""
        return tuple(sorted(self.homes))

    def adjustment_counts(self, board: Board | None = None) -> dict[str, int]:
        """Builds (positive) or removals (negative) owed by each power in an adjustment phase;
        with the ``board``, its partisan sites counted (``Board.partisan_sites``: 1900's)."""
        return {p: self.owed(p, board) for p in self.powers()}

    def owed(self, power: str, board: Board | None = None) -> int:
        """Builds (positive) or removals (negative) ``power`` is owed: its centres, plus the
        partisan sites that count on ``board`` (``Board.partisan_sites``), minus its units."""
        n = len(self.centers_of(power)) - len(self.units_of(power))
        if board is not None and board.partisans:
            n += len(board.partisan_sites(power, self.centers, self.homes))
        return n
