"""Supports and convoys: whose unit, which way, and whether the supporter can reach.

Seed 002's "errori da evitare" each get their own reason here: a supporter that does not
border the target, a fleet that borders it only by land, an army supporting into a sea or a
fleet inland, a convoy by a fleet on a coast, and a bare Italian support the mail cannot settle.
"""

from __future__ import annotations

from judge.adjudicator.orders import Convoy, SupportHold, SupportMove, UnitType
from judge.parsing.errors import Note, ParseError, ParseFailure
from judge.parsing.grammar import OrderKind
from judge.parsing.reading import A, F, UnitReading


class SupportReading(UnitReading):
    def other_unit(self, reach: str) -> tuple[UnitType, str]:
        """The supported or convoyed unit: its type and province."""
        d, pos = self.d, self.ctx.position
        assert d.other is not None
        if pos is not None:
            unit = pos.units.get(d.other.province)
            if unit is None:
                error = (
                    ParseError.NO_UNIT_TO_CONVOY
                    if d.kind is OrderKind.CONVOY
                    else ParseError.NO_UNIT_TO_SUPPORT
                )
                raise ParseFailure(error, province=d.other.province)
            if d.other_type and d.other_type is not unit.type:
                raise ParseFailure(
                    ParseError.WRONG_UNIT_TYPE, unit=str(unit), written=d.other_type.value
                )
            return unit.type, unit.location
        unit_type = d.other_type or self.ctx.known_types.get(d.other.province)
        if unit_type is None:
            unit_type = self.infer_other_type(reach)
        self.check_stand(unit_type, d.other)
        return unit_type, d.other.location

    def infer_other_type(self, reach: str) -> UnitType:
        d, board = self.d, self.board
        assert d.other is not None
        here = board.provinces[d.other.province]
        if here.is_sea:
            return F
        if here.kind == "land":
            return A
        if d.target is not None:
            implied = self.type_towards(d.other, reach)
            if implied is not None:
                return implied
        raise ParseFailure(ParseError.MISSING_UNIT_TYPE, province=d.other.province)

    def support(self, unit_type: UnitType, location: str) -> SupportHold | SupportMove:
        d, board = self.d, self.board
        assert d.other is not None
        here = board.province_of(location)
        if d.other.province == here:
            raise ParseFailure(ParseError.SUPPORTS_ITSELF, province=here)
        reach = d.target.province if d.target else d.other.province
        self.check_support_reach(unit_type, location, reach)
        other_type, other_location = self.other_unit(reach)
        other_province = board.province_of(other_location)
        if d.target is None:
            if not d.hold_word and self.ctx.support_needs_hold_word:
                self.settle_bare_support(other_province)
            return SupportHold(unit_type, location, other_type, other_province)
        if d.target.province == other_province:
            raise ParseFailure(
                ParseError.SUPPORTED_MOVE_IMPOSSIBLE,
                unit=f"{other_type.value} {other_province}",
                target=reach,
            )
        there = board.provinces[reach]
        possible: bool
        if other_type is A:
            coastal = board.provinces[other_province].kind == "coast" and there.kind == "coast"
            possible = not there.is_sea and (board.army_can_move(other_province, reach) or coastal)
        else:
            possible = any(
                board.fleet_reaches_province(s, reach) for s in self.sources(other_location)
            )
        if not possible:
            raise ParseFailure(
                ParseError.SUPPORTED_MOVE_IMPOSSIBLE,
                unit=f"{other_type.value} {other_province}",
                target=reach,
            )
        if d.target.coast:
            self.note(Note.SUPPORT_COAST_IGNORED, location=d.target.location)
        return SupportMove(unit_type, location, other_type, other_province, reach)

    def settle_bare_support(self, other: str) -> None:
        """A support that says neither "holds" nor where the unit goes (seed 002's house rule)."""
        kind = self.ctx.batch_kinds.get(other)
        if kind is OrderKind.MOVE:
            raise ParseFailure(ParseError.SUPPORT_HOLD_OF_MOVING_UNIT, province=other)
        if kind in (OrderKind.HOLD, OrderKind.SUPPORT, OrderKind.CONVOY) and other not in self.ctx.moving_into:
            self.note(Note.READ_AS_SUPPORT_HOLD, province=other)
            return
        raise ParseFailure(ParseError.SUPPORT_AMBIGUOUS, province=other)

    def check_support_reach(self, unit_type: UnitType, location: str, reach: str) -> None:
        board = self.board
        here = board.province_of(location)
        there = board.provinces[reach]
        if reach == here:
            raise ParseFailure(ParseError.SUPPORT_NOT_ADJACENT, province=here, target=reach)
        if unit_type is A:
            if there.is_sea:
                raise ParseFailure(ParseError.ARMY_SUPPORTS_INTO_SEA, province=reach)
            if not board.army_can_move(here, reach):
                raise ParseFailure(ParseError.SUPPORT_NOT_ADJACENT, province=here, target=reach)
            return
        if there.kind == "land":
            raise ParseFailure(ParseError.FLEET_SUPPORTS_INLAND, province=reach)
        if any(board.fleet_reaches_province(s, reach) for s in self.sources(location)):
            return
        if any(board.fleet_reaches_province(c, reach) for c in board.provinces[here].coasts):
            raise ParseFailure(ParseError.SUPPORT_FROM_WRONG_COAST, location=location, target=reach)
        if board.army_can_move(here, reach):
            raise ParseFailure(ParseError.SUPPORT_WITHOUT_SEA_BORDER, province=here, target=reach)
        raise ParseFailure(ParseError.SUPPORT_NOT_ADJACENT, province=here, target=reach)

    def convoy(self, unit_type: UnitType, location: str) -> Convoy:
        d, board = self.d, self.board
        assert d.other is not None and d.target is not None
        here = board.province_of(location)
        if unit_type is A:
            raise ParseFailure(ParseError.CONVOY_BY_ARMY, province=here)
        if not board.provinces[here].convoys:  # at sea, or in a port (DPjudge's PORT)
            raise ParseFailure(ParseError.CONVOY_BY_COASTAL_FLEET, province=here)
        if d.other_type is F:
            raise ParseFailure(ParseError.CONVOY_OF_FLEET, province=d.other.province)
        other_type, other_location = self.other_unit(d.target.province)
        if other_type is F:
            raise ParseFailure(ParseError.CONVOY_OF_FLEET, province=d.other.province)
        start, end = board.provinces[d.other.province], board.provinces[d.target.province]
        if end.is_sea:
            raise ParseFailure(ParseError.ARMY_TO_SEA, province=end.code)
        if start.kind != "coast" or end.kind != "coast":
            raise ParseFailure(ParseError.CONVOY_NOT_COASTAL, province=start.code, target=end.code)
        if start.code == end.code:
            raise ParseFailure(ParseError.MOVE_TO_OWN_PROVINCE, province=start.code)
        return Convoy(F, location, start.code, end.code)
