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
    Refusal.UNKNOWN_LOCATION: ParseError.UNKNOWN_PROVINCE,
    Refusal.WRONG_PHASE: ParseError.WRONG_PHASE,
    Refusal.NO_UNIT: ParseError.NO_UNIT_THERE,
    Refusal.NOT_YOUR_UNIT: ParseError.NOT_YOUR_UNIT,
    Refusal.WRONG_UNIT_TYPE: ParseError.WRONG_UNIT_TYPE,
    Refusal.MOVE_TO_OWN_PROVINCE: ParseError.MOVE_TO_OWN_PROVINCE,
    Refusal.NOT_ADJACENT: ParseError.NOT_ADJACENT,
    Refusal.NO_FLEETS_TO_CONVOY: ParseError.NO_FLEETS_TO_CONVOY,
    Refusal.ARMY_TO_SEA: ParseError.ARMY_TO_SEA,
    Refusal.FLEET_TO_LAND: ParseError.FLEET_TO_INLAND,
    Refusal.MISSING_COAST: ParseError.MISSING_COAST,
    Refusal.WRONG_COAST: ParseError.COAST_NOT_REACHABLE,
    Refusal.SUPPORT_SELF: ParseError.SUPPORTS_ITSELF,
    Refusal.SUPPORT_OWN_PROVINCE: ParseError.SUPPORT_NOT_ADJACENT,
    Refusal.NO_SUPPORTED_UNIT: ParseError.NO_UNIT_TO_SUPPORT,
    Refusal.WRONG_SUPPORTED_TYPE: ParseError.WRONG_UNIT_TYPE,
    Refusal.SUPPORT_UNREACHABLE: ParseError.SUPPORT_NOT_ADJACENT,
    Refusal.SUPPORTED_MOVE_IMPOSSIBLE: ParseError.SUPPORTED_MOVE_IMPOSSIBLE,
    Refusal.CONVOY_BY_ARMY: ParseError.CONVOY_BY_ARMY,
    Refusal.CONVOY_NOT_AT_SEA: ParseError.CONVOY_BY_COASTAL_FLEET,
    Refusal.NO_CONVOYED_ARMY: ParseError.NO_UNIT_TO_CONVOY,
    Refusal.CONVOY_TARGET_NOT_COASTAL: ParseError.CONVOY_NOT_COASTAL,
    Refusal.CONVOY_NOT_ON_ROUTE: ParseError.CONVOY_NOT_ON_ROUTE,
    Refusal.NOT_DISLODGED: ParseError.NOT_DISLODGED,
    Refusal.RETREAT_NOT_ALLOWED: ParseError.RETREAT_NOT_ALLOWED,
    Refusal.NO_BUILDS_AVAILABLE: ParseError.NO_BUILDS_AVAILABLE,
    Refusal.NO_REMOVALS_NEEDED: ParseError.NO_REMOVALS_NEEDED,
    Refusal.NOT_A_HOME_CENTER: ParseError.BUILD_NOT_HOME,
    Refusal.CENTER_NOT_OWNED: ParseError.BUILD_NOT_OWNED,
    Refusal.CENTER_OCCUPIED: ParseError.BUILD_OCCUPIED,
    Refusal.FLEET_INLAND: ParseError.FLEET_INLAND,
    Refusal.TOO_MANY_BUILDS: ParseError.TOO_MANY_BUILDS,
    Refusal.ALREADY_BUILT_THERE: ParseError.TOO_MANY_BUILDS,
    Refusal.TOO_MANY_REMOVALS: ParseError.TOO_MANY_REMOVALS,
    Refusal.DUPLICATE_ORDER: ParseError.UNRECOGNISED_ORDER,
}


def reason(refusal: Refusal) -> ParseError:
    return REASONS.get(refusal, ParseError.NOT_LEGAL)


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
