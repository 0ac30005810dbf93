"""What every part of the order reader shares: the context it reads in, and map helpers.

``Context`` carries the position (optional), the phase, the writer's power, and what the other
orders of the same batch say. ``UnitReading`` holds one draft being completed and the helpers
that ask the :class:`~judge.adjudicator.geography.Board`, the judge's one notion of adjacency.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judge.adjudicator.geography import Board
from judge.adjudicator.orders import UnitType
from judge.adjudicator.phase import Phase
from judge.adjudicator.position import Position
from judge.parsing.errors import Note, ParseError, ParseFailure
from judge.parsing.grammar import Draft, OrderKind, Place

A, F = UnitType.ARMY, UnitType.FLEET


@dataclass
class Context:
    board: Board
    position: Position | None = None
    phase: Phase | None = None
    power: str | None = None
    support_needs_hold_word: bool = False
    # seed 002: a fleet move into a two-coast province that does not name the coast holds
    coast_required: bool = False
    # what the other orders of the same batch say: province -> unit type / order kind
    known_types: dict[str, UnitType] = field(default_factory=dict)
    batch_kinds: dict[str, OrderKind] = field(default_factory=dict)
    moving_into: set[str] = field(default_factory=set)


NoteList = list[tuple[Note, dict[str, Any]]]


class UnitReading:
    """One draft being completed, with the map helpers the order kinds share."""

    def __init__(self, draft: Draft, ctx: Context) -> None:
        self.d = draft
        self.ctx = ctx
        self.board = ctx.board
        self.notes: NoteList = []

    def note(self, note: Note, **params: Any) -> None:
        self.notes.append((note, params))

    def owner(self) -> str | None:
        return self.d.label or self.ctx.power

    def check_stand(self, unit_type: UnitType, place: Place) -> None:
        prov = self.board.provinces[place.province]
        if prov.kind == "impassable":
            raise ParseFailure(ParseError.IMPASSABLE, province=place.province)
        if unit_type is A and prov.is_sea:
            raise ParseFailure(ParseError.ARMY_AT_SEA, province=place.province)
        if unit_type is F and prov.kind == "land":
            raise ParseFailure(ParseError.FLEET_INLAND, province=place.province)

    def type_towards(self, place: Place, reach: str) -> UnitType | None:
        """The unit type at ``place`` implied by the province it acts on, if only one fits."""
        there = self.board.provinces[reach]
        if there.is_sea:
            return F
        if there.kind == "land":
            return A
        army = self.board.army_can_move(place.province, reach)
        fleet = any(self.board.fleet_reaches_province(s, reach) for s in self.sources(place))
        if army != fleet:
            return A if army else F
        return None

    def fleet_location(self, unit_type: UnitType, place: Place) -> str:
        if unit_type is A:
            if place.coast:
                self.note(Note.ARMY_COAST_IGNORED, province=place.province)
            return place.province
        return place.location

    def sources(self, place: Place | str) -> list[str]:
        """Where a fleet may stand: its coast if known, else each coast of its province."""
        location = place.location if isinstance(place, Place) else place
        province = self.board.province_of(location)
        coasts = self.board.provinces[province].coasts
        if location == province and coasts:
            return list(coasts)
        return [location]

    # --- orders ------------------------------------------------------------------------
