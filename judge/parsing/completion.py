"""Position-aware reading: a :class:`Draft` plus what the judge knows -> a canonical order.

What the text leaves open is filled in from the position (the unit's type and coast), from the
other orders of the same mail (a unit type written once), or from the map (the only reachable
coast). What cannot be settled is refused with a :class:`ParseError` that says why. All map
questions go to the :class:`~judge.adjudicator.geography.Board`, the judge's one notion of
adjacency.
"""

from __future__ import annotations

from judge.adjudicator.orders import (
    Build,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    UnitType,
    Waive,
)
from judge.parsing.errors import Note, ParseError, ParseFailure
from judge.parsing.grammar import Draft, OrderKind
from judge.parsing.legality_reasons import check_legal
from judge.parsing.reading import A, Context, F, NoteList
from judge.parsing.supports import SupportReading

_MOVEMENT = {OrderKind.HOLD, OrderKind.MOVE, OrderKind.SUPPORT, OrderKind.CONVOY}


class _Completer(SupportReading):
    # --- phase -------------------------------------------------------------------------
    def kind(self) -> OrderKind:
        kind, phase = self.d.kind, self.ctx.phase
        if phase is None:
            if kind is OrderKind.BARE:
                raise ParseFailure(ParseError.INCOMPLETE_ORDER)
            return kind
        if phase.is_movement:
            if kind is OrderKind.BARE:
                raise ParseFailure(ParseError.INCOMPLETE_ORDER)
            if kind not in _MOVEMENT:
                raise ParseFailure(ParseError.WRONG_PHASE, phase=str(phase))
            return kind
        if phase.is_retreat:
            if kind is OrderKind.MOVE:
                self.note(Note.READ_AS_RETREAT)
                return OrderKind.RETREAT
            if kind is OrderKind.REMOVE:
                return OrderKind.DISBAND
            if kind not in (OrderKind.RETREAT, OrderKind.DISBAND):
                raise ParseFailure(ParseError.WRONG_PHASE, phase=str(phase))
            return kind
        if kind is OrderKind.BARE:
            self.note(Note.READ_AS_BUILD)
            return OrderKind.BUILD
        if kind is OrderKind.DISBAND:
            return OrderKind.REMOVE
        if kind not in (OrderKind.BUILD, OrderKind.REMOVE, OrderKind.WAIVE):
            raise ParseFailure(ParseError.WRONG_PHASE, phase=str(phase))
        return kind

    # --- the ordered unit --------------------------------------------------------------
    def own_unit(self, kind: OrderKind) -> tuple[UnitType, str]:
        place = self.d.place
        assert place is not None
        pos = self.ctx.position
        if pos is not None:
            if self.ctx.phase is not None and self.ctx.phase.is_retreat:
                dislodged = pos.dislodged.get(place.province)
                if dislodged is None:
                    raise ParseFailure(ParseError.NOT_DISLODGED, province=place.province)
                unit = dislodged.unit
            else:
                found = pos.units.get(place.province)
                if found is None:
                    raise ParseFailure(ParseError.NO_UNIT_THERE, province=place.province)
                unit = found
            owner = self.owner()
            if owner and unit.power != owner:
                raise ParseFailure(ParseError.NOT_YOUR_UNIT, unit=str(unit), owner=unit.power)
            if self.d.unit_type and self.d.unit_type is not unit.type:
                raise ParseFailure(
                    ParseError.WRONG_UNIT_TYPE, unit=str(unit), written=self.d.unit_type.value
                )
            if self.d.unit_type is None:
                self.note(Note.UNIT_TYPE_FILLED_IN, unit=str(unit))
            if unit.location not in (place.location, place.province):
                self.note(Note.UNIT_COAST_FROM_POSITION, unit=str(unit))
            return unit.type, unit.location
        unit_type = self.d.unit_type or self.ctx.known_types.get(place.province)
        if unit_type is None:
            unit_type = self.infer_type(kind)
            self.note(Note.UNIT_TYPE_FILLED_IN, unit=f"{unit_type.value} {place.location}")
        self.check_stand(unit_type, place)
        return unit_type, self.fleet_location(unit_type, place)

    def infer_type(self, kind: OrderKind) -> UnitType:
        """Army or fleet, from the map alone, when the order leaves no doubt."""
        d, board = self.d, self.board
        assert d.place is not None
        here = board.provinces[d.place.province]
        if here.is_sea:
            return F
        if here.kind == "land":
            return A
        if kind is OrderKind.CONVOY:
            return F
        reach: str | None = None
        if kind in (OrderKind.MOVE, OrderKind.RETREAT) and d.target is not None:
            reach = d.target.province
        elif kind is OrderKind.SUPPORT and d.other is not None:
            reach = d.target.province if d.target else d.other.province
        if reach is not None and reach in board.provinces:
            implied = self.type_towards(d.place, reach)
            if implied is not None:
                return implied
        raise ParseFailure(ParseError.MISSING_UNIT_TYPE, province=d.place.province)

    def complete(self) -> Order:
        kind = self.kind()
        if kind is OrderKind.WAIVE:
            return Waive()
        if kind is OrderKind.BUILD:
            return self.build()
        unit_type, location = self.own_unit(kind)
        if kind is OrderKind.HOLD:
            return Hold(unit_type, location)
        if kind in (OrderKind.DISBAND, OrderKind.REMOVE):
            return Disband(unit_type, location)
        if kind is OrderKind.MOVE:
            return self.move(unit_type, location)
        if kind is OrderKind.RETREAT:
            return self.retreat(unit_type, location)
        if kind is OrderKind.SUPPORT:
            return self.support(unit_type, location)
        return self.convoy(unit_type, location)

    def target_of_move(
        self, unit_type: UnitType, location: str, convoy_ok: bool
    ) -> tuple[str, str]:
        """(own location, target location) of a move or retreat, coasts settled."""
        board, target = self.board, self.d.target
        assert target is not None
        here = board.province_of(location)
        if target.province == here:
            raise ParseFailure(ParseError.MOVE_TO_OWN_PROVINCE, province=here)
        there = board.provinces[target.province]
        if there.kind == "impassable":
            raise ParseFailure(ParseError.IMPASSABLE, province=target.province)
        if unit_type is A:
            if there.is_sea:
                raise ParseFailure(ParseError.ARMY_TO_SEA, province=target.province)
            if target.coast:
                self.note(Note.ARMY_COAST_IGNORED, province=target.province)
            if board.army_can_move(here, target.province):
                return location, target.province
            coastal = board.provinces[here].kind == "coast" and there.kind == "coast"
            if convoy_ok and coastal:
                if not self.d.via:
                    self.note(Note.NEEDS_CONVOY, province=target.province)
                return location, target.province
            raise ParseFailure(ParseError.NOT_ADJACENT, province=here, target=target.province)
        if there.kind == "land":
            raise ParseFailure(ParseError.FLEET_TO_INLAND, province=target.province)
        pairs: list[tuple[str, str]] = []
        for source in self.sources(location):
            for reach in board.fleet_coasts_reachable(source, target.province):
                if target.coast is None or reach == target.location:
                    pairs.append((source, reach))
        if not pairs:
            other_coasts = [
                c for c in board.provinces[here].coasts if c not in self.sources(location)
            ]
            if any(board.fleet_reaches_province(c, target.province) for c in other_coasts):
                raise ParseFailure(
                    ParseError.NOT_REACHABLE_FROM_COAST, location=location, target=target.province
                )
            if target.coast and any(
                board.fleet_reaches_province(s, target.province) for s in self.sources(location)
            ):
                raise ParseFailure(ParseError.COAST_NOT_REACHABLE, target=target.location)
            raise ParseFailure(ParseError.NOT_ADJACENT, province=here, target=target.province)
        reached = sorted({reach for _, reach in pairs})
        if len(reached) > 1:
            raise ParseFailure(ParseError.MISSING_COAST, province=target.province)
        origins = sorted({source for source, _ in pairs})
        origin = origins[0] if len(origins) == 1 else location
        if target.coast is None and reached[0] != target.province:
            self.note(Note.COAST_FILLED_IN, location=reached[0])
        return origin, reached[0]

    def move(self, unit_type: UnitType, location: str) -> Move | Hold:
        target = self.d.target
        assert target is not None
        coast_unsaid = (
            self.ctx.coast_required
            and unit_type is F
            and target.coast is None
            and bool(self.board.provinces[target.province].coasts)
        )
        try:
            origin, reached = self.target_of_move(unit_type, location, convoy_ok=True)
        except ParseFailure as failure:
            if not (coast_unsaid and failure.reason is ParseError.MISSING_COAST):
                raise
        else:
            if not coast_unsaid:
                return Move(unit_type, origin, reached, via_convoy=self.d.via and unit_type is A)
        # seed 002: "se non specificata si interpretano come fermata"
        self.notes = [(n, p) for n, p in self.notes if n is not Note.COAST_FILLED_IN]
        self.note(Note.COAST_MISSING_HOLDS, province=target.province)
        return Hold(unit_type, location)

    def retreat(self, unit_type: UnitType, location: str) -> Retreat:
        origin, target = self.target_of_move(unit_type, location, convoy_ok=False)
        pos = self.ctx.position
        if pos is not None:
            dislodged = pos.dislodged.get(self.board.province_of(location))
            if dislodged is not None:
                allowed = [
                    r
                    for r in dislodged.retreats
                    if self.board.province_of(r) == self.board.province_of(target)
                ]
                if not allowed:
                    raise ParseFailure(ParseError.RETREAT_NOT_ALLOWED, target=target)
                if target not in allowed:
                    target = allowed[0]
        return Retreat(unit_type, origin, target)

    def build(self) -> Build:
        d, board, pos = self.d, self.board, self.ctx.position
        assert d.place is not None
        if d.unit_type is None:
            raise ParseFailure(ParseError.MISSING_UNIT_TYPE, province=d.place.province)
        prov = board.provinces[d.place.province]
        owner = self.owner()
        if not prov.supply_center or prov.home is None or (owner and prov.home != owner):
            raise ParseFailure(ParseError.BUILD_NOT_HOME, province=prov.code, power=owner or "")
        self.check_stand(d.unit_type, d.place)
        location = self.fleet_location(d.unit_type, d.place)
        if d.unit_type is F and prov.coasts and d.place.coast is None:
            raise ParseFailure(ParseError.MISSING_COAST, province=prov.code)
        if pos is not None:
            if owner and pos.centers.get(prov.code) != owner:
                raise ParseFailure(ParseError.BUILD_NOT_OWNED, province=prov.code)
            if prov.code in pos.units:
                raise ParseFailure(
                    ParseError.BUILD_OCCUPIED, province=prov.code, unit=str(pos.units[prov.code])
                )
        return Build(d.unit_type, location)


def complete(draft: Draft, ctx: Context) -> tuple[Order, NoteList]:
    """The canonical order ``draft`` means in ``ctx``, with notes; raises ParseFailure."""
    completer = _Completer(draft, ctx)
    order = completer.complete()
    if ctx.position is not None:
        order = check_legal(order, draft.label or ctx.power, ctx)
    return order, completer.notes
