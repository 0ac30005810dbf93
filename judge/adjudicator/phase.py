"""Phase names: ``S1901M``, ``S1901R``, ``F1901M``, ``F1901R``, ``W1901A``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class Season(StrEnum):
    SPRING = "S"
    FALL = "F"
    WINTER = "W"

    __hash__ = str.__hash__  # in C, as UnitType (orders.py)


class PhaseType(StrEnum):
    MOVEMENT = "M"
    RETREAT = "R"
    ADJUSTMENT = "A"

    __hash__ = str.__hash__  # in C, as UnitType (orders.py)


_PHASE = re.compile(r"^([SFW])(\d{4})([MRA])$")
_VALID = {("S", "M"), ("S", "R"), ("F", "M"), ("F", "R"), ("W", "A")}


@dataclass(frozen=True, slots=True, order=True)
class Phase:
    year: int
    season_rank: int
    kind_rank: int

    def __reduce__(self) -> tuple[type[Phase], tuple[int, int, int]]:
        # its class and fields (see orders.py: the compiled build refuses the default)
        return (Phase, (self.year, self.season_rank, self.kind_rank))

    @property
    def season(self) -> Season:
        return (Season.SPRING, Season.FALL, Season.WINTER)[self.season_rank]

    @property
    def kind(self) -> PhaseType:
        return (PhaseType.MOVEMENT, PhaseType.RETREAT, PhaseType.ADJUSTMENT)[self.kind_rank]

    @classmethod
    def make(cls, season: Season | str, year: int, kind: PhaseType | str) -> Phase:
        s, k = Season(season), PhaseType(kind)
        if (s.value, k.value) not in _VALID:
            raise ValueError(f"no such phase: {s.value}{year}{k.value}")
        return cls(year, "SFW".index(s.value), "MRA".index(k.value))

    @classmethod
    def parse(cls, text: str) -> Phase:
        m = _PHASE.match(text.strip().upper())
        if not m:
            raise ValueError(f"bad phase {text!r}: expected e.g. S1901M, F1901R, W1901A")
        return cls.make(m.group(1), int(m.group(2)), m.group(3))

    def __str__(self) -> str:
        return f"{self.season.value}{self.year:04d}{self.kind.value}"

    @property
    def is_movement(self) -> bool:
        return self.kind is PhaseType.MOVEMENT

    @property
    def is_retreat(self) -> bool:
        return self.kind is PhaseType.RETREAT

    @property
    def is_adjustment(self) -> bool:
        return self.kind is PhaseType.ADJUSTMENT

    def following(self) -> Phase:
        """The phase after this one, before skipping empty retreat/adjustment phases."""
        if self.season is Season.SPRING:
            return (
                Phase.make("S", self.year, "R")
                if self.is_movement
                else Phase.make("F", self.year, "M")
            )
        if self.season is Season.FALL:
            return (
                Phase.make("F", self.year, "R")
                if self.is_movement
                else Phase.make("W", self.year, "A")
            )
        return Phase.make("S", self.year + 1, "M")
