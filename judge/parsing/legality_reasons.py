"""The adjudicator's legality refusals, as the parser's reasons.

When a position is known, every order the reader completes is put to
``judge.adjudicator.legality.normalize``: the judge has one legality check, and the parser
only adds more precise reasons in front of it (which support error, which coast...).
"""

from __future__ import annotations

from judge.adjudicator import legality
from judge.adjudicator.legality import Refusal
from judge.adjudicator.orders import Order
from judge.parsing.errors import ParseError, ParseFailure
from judge.parsing.reading import Context

REASONS: dict[Refusal, ParseError] = {
    Refusal.UNKNOWN_LOCATION: ParseError.UnknownProvince,
    Refusal.WRONG_PHASE: ParseError.WrongPhase,
    Refusal.NO_UNIT: ParseError.NoUnitThere,
    Refusal.NOT_YOUR_UNIT: ParseError.NotYourUnit,
    Refusal.WRONG_UNIT_TYPE: ParseError.WrongUnitType,
    Refusal.MOVE_TO_OWN_PROVINCE: ParseError.MoveToOwnProvince,
    Refusal.NOT_ADJACENT: ParseError.NotAdjacent,
    Refusal.NO_FLEETS_TO_CONVOY: ParseError.NoFleetsToConvoy,
    Refusal.ARMY_TO_SEA: ParseError.ArmyToSea,
    Refusal.FLEET_TO_LAND: ParseError.FleetToInland,
    Refusal.MISSING_COAST: ParseError.MissingCoast,
    Refusal.WRONG_COAST: ParseError.CoastNotReachable,
    Refusal.SUPPORT_SELF: ParseError.SupportsItself,
    Refusal.SUPPORT_OWN_PROVINCE: ParseError.SupportNotAdjacent,
    Refusal.NO_SUPPORTED_UNIT: ParseError.NoUnitToSupport,
    Refusal.WRONG_SUPPORTED_TYPE: ParseError.WrongUnitType,
    Refusal.SUPPORT_UNREACHABLE: ParseError.SupportNotAdjacent,
    Refusal.SUPPORTED_MOVE_IMPOSSIBLE: ParseError.SupportedMoveImpossible,
    Refusal.CONVOY_BY_ARMY: ParseError.ConvoyByArmy,
    Refusal.CONVOY_NOT_AT_SEA: ParseError.ConvoyByCoastalFleet,
    Refusal.NO_CONVOYED_ARMY: ParseError.NoUnitToConvoy,
    Refusal.CONVOY_TARGET_NOT_COASTAL: ParseError.ConvoyNotCoastal,
    Refusal.CONVOY_NOT_ON_ROUTE: ParseError.ConvoyNotOnRoute,
    Refusal.NOT_DISLODGED: ParseError.NotDislodged,
    Refusal.RETREAT_NOT_ALLOWED: ParseError.RetreatNotAllowed,
    Refusal.NO_BUILDS_AVAILABLE: ParseError.NoBuildsAvailable,
    Refusal.NO_REMOVALS_NEEDED: ParseError.NoRemovalsNeeded,
    Refusal.NOT_A_HOME_CENTER: ParseError.BuildNotHome,
    Refusal.CENTER_NOT_OWNED: ParseError.BuildNotOwned,
    Refusal.CENTER_OCCUPIED: ParseError.BuildOccupied,
    Refusal.FLEET_INLAND: ParseError.FleetInland,
    Refusal.TOO_MANY_BUILDS: ParseError.TooManyBuilds,
    Refusal.ALREADY_BUILT_THERE: ParseError.TooManyBuilds,
    Refusal.TOO_MANY_REMOVALS: ParseError.TooManyRemovals,
    Refusal.DUPLICATE_ORDER: ParseError.UnrecognisedOrder,
}


def reason(refusal: Refusal) -> ParseError:
    return REASONS.get(refusal, ParseError.NotLegal)


def check_legal(order: Order, owner: str | None, ctx: Context) -> Order:
    """The adjudicator's own legality check, the last word once the position is known."""
    pos = ctx.position
    assert pos is not None
    location = getattr(order, "location", None)
    province = ctx.board.province_of(location) if location else ""
    if owner is None:
        unit = pos.units.get(province)
        if ctx.phase is not None and ctx.phase.is_retreat and province in pos.dislodged:
            unit = pos.dislodged[province].unit
        if unit is None:
            return order  # a build or waive with no known writer: nothing more to check
        owner = unit.power
    if ctx.phase is not None and ctx.phase != pos.phase:
        return order  # the caller asked about another phase than the position's
    result = legality.normalize(pos, owner, order, ctx.board)
    if isinstance(result, Refusal):
        target = getattr(order, "target", None)
        raise ParseFailure(
            reason(result),
            province=province,
            target=target or "",
            army=getattr(order, "army", ""),
            power=owner,
            refusal=result.value,
        )
    return result
