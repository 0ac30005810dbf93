"""A game position: the phase, the units, centre ownership, and units waiting to retreat."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from judge.adjudicator.geography import standard_board
from judge.adjudicator.orders import Unit, parse_unit, unit_value
from judge.adjudicator.phase import Phase


@dataclass(frozen=True, slots=True)
class Dislodged:
    """A unit dislodged in the movement phase just played, with where it may retreat."""

    unit: Unit
    attacker_from: str | None  # province the dislodging attack came from (None if convoyed)
    retreats: tuple[str, ...]  # legal retreat locations (coasts for fleets where needed)


@dataclass
class Position:
    phase: Phase
    units: dict[str, Unit]  # keyed by province code (a fleet on STP/SC is under "STP")
    centers: dict[str, str]  # supply-centre province -> owning power
    dislodged: dict[str, Dislodged] = field(default_factory=dict)  # keyed by province
    homes: dict[str, tuple[str, ...]] = field(
        default_factory=lambda: standard_board().all_home_centers
    )
    # the name of the game's variant (``catalog.variant(name)``): a position knows its map, so
    # whoever holds one (the service, the bots, the maps) adjudicates and draws it on that map
    variant: str = "standard"

    @classmethod
    def initial(cls) -> Position:
        board = standard_board()
        units: dict[str, Unit] = {}
        for power, texts in board.starting_units.items():
            for text in texts:
                parsed = parse_unit(text, power)
                unit = unit_value(power, parsed.type, parsed.location)
                units[unit.province] = unit
        centers = {c: p for p, cs in board.all_home_centers.items() for c in cs}
        return cls(Phase.parse("S1901M"), units, centers)

    @classmethod
    def from_lists(
        cls,
        phase: str | Phase,
        units: dict[str, Iterable[str]],
        centers: dict[str, Iterable[str]] | None = None,
    ) -> Position:
        """Build from the JSON shape: ``{"ENGLAND": ["F LON", ...]}``."""
        placed: dict[str, Unit] = {}
        for power, texts in units.items():
            for text in texts:
                unit = parse_unit(text, power)
                placed[unit.province] = unit
        if centers is None:
            owned = {c: p for p, cs in standard_board().all_home_centers.items() for c in cs}
        else:
            owned = {c: p for p, cs in centers.items() for c in cs}
        ph = phase if isinstance(phase, Phase) else Phase.parse(phase)
        return cls(ph, placed, owned)

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

    def adjustment_counts(self) -> dict[str, int]:
        """Builds (positive) or removals (negative) owed by each power in an adjustment phase."""
        return {p: len(self.centers_of(p)) - len(self.units_of(p)) for p in self.powers()}
