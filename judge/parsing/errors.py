"""Why an order line was refused, and what the reader filled in or noticed on the way.

Every refusal is a member of :class:`ParseError` so that a reply can explain it in the player's
language (the English texts live in ``message_texts``, translated by the catalogs). :class:`Note` members are remarks that
do not refuse the order (a coast filled in, an earlier order replaced...).

Every reason code of the judge has one style: UPPER_SNAKE members with snake_case values, as the
adjudicator's ``Refusal`` and ``Outcome`` and the service's ``CommandRefusal`` (the values are
what ``judge parse`` prints after ``ERROR:`` and what ``judge adjudicate`` answers).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ParseError(StrEnum):
    # reading the words
    EMPTY = "empty"
    UNKNOWN_PROVINCE = "unknown_province"
    AMBIGUOUS_PROVINCE = "ambiguous_province"
    UNRECOGNISED_ORDER = "unrecognised_order"
    INCOMPLETE_ORDER = "incomplete_order"
    TRAILING_TEXT = "trailing_text"
    NO_SUCH_COAST = "no_such_coast"
    MISSING_UNIT_TYPE = "missing_unit_type"
    # the position
    NO_UNIT_THERE = "no_unit_there"
    NOT_YOUR_UNIT = "not_your_unit"
    WRONG_UNIT_TYPE = "wrong_unit_type"
    NOT_DISLODGED = "not_dislodged"
    WRONG_PHASE = "wrong_phase"
    # the map
    ARMY_AT_SEA = "army_at_sea"
    FLEET_INLAND = "fleet_inland"
    NOT_ADJACENT = "not_adjacent"
    ARMY_TO_SEA = "army_to_sea"
    FLEET_TO_INLAND = "fleet_to_inland"
    MISSING_COAST = "missing_coast"
    COAST_NOT_REACHABLE = "coast_not_reachable"
    NOT_REACHABLE_FROM_COAST = "not_reachable_from_coast"
    MOVE_TO_OWN_PROVINCE = "move_to_own_province"
    IMPASSABLE = "impassable"
    # supports
    SUPPORT_NOT_ADJACENT = "support_not_adjacent"
    SUPPORT_WITHOUT_SEA_BORDER = "support_without_sea_border"
    SUPPORT_FROM_WRONG_COAST = "support_from_wrong_coast"
    ARMY_SUPPORTS_INTO_SEA = "army_supports_into_sea"
    FLEET_SUPPORTS_INLAND = "fleet_supports_inland"
    SUPPORTS_ITSELF = "supports_itself"
    SUPPORTED_MOVE_IMPOSSIBLE = "supported_move_impossible"
    NO_UNIT_TO_SUPPORT = "no_unit_to_support"
    SUPPORT_AMBIGUOUS = "support_ambiguous"
    SUPPORT_HOLD_OF_MOVING_UNIT = "support_hold_of_moving_unit"
    # convoys
    CONVOY_BY_ARMY = "convoy_by_army"
    CONVOY_BY_COASTAL_FLEET = "convoy_by_coastal_fleet"
    CONVOY_OF_FLEET = "convoy_of_fleet"
    CONVOY_NOT_COASTAL = "convoy_not_coastal"
    SUPPORT_CANNOT_BE_CONVOYED = "support_cannot_be_convoyed"
    NO_UNIT_TO_CONVOY = "no_unit_to_convoy"
    # retreats and adjustments
    RETREAT_NOT_ALLOWED = "retreat_not_allowed"
    BUILD_NOT_HOME = "build_not_home"
    BUILD_NOT_OWNED = "build_not_owned"
    BUILD_OCCUPIED = "build_occupied"
    NO_BUILDS_AVAILABLE = "no_builds_available"
    NO_REMOVALS_NEEDED = "no_removals_needed"
    TOO_MANY_BUILDS = "too_many_builds"
    TOO_MANY_REMOVALS = "too_many_removals"
    # refused by the adjudicator's legality check
    NO_FLEETS_TO_CONVOY = "no_fleets_to_convoy"
    CONVOY_NOT_ON_ROUTE = "convoy_not_on_route"
    NOT_LEGAL = "not_legal"


class Note(StrEnum):
    REPLACES_EARLIER = "replaces_earlier"
    REPLACED_BY_LATER = "replaced_by_later"
    COAST_FILLED_IN = "coast_filled_in"
    UNIT_TYPE_FILLED_IN = "unit_type_filled_in"
    UNIT_COAST_FROM_POSITION = "unit_coast_from_position"
    READ_AS_RETREAT = "read_as_retreat"
    READ_AS_SUPPORT_HOLD = "read_as_support_hold"
    READ_AS_BUILD = "read_as_build"
    COMMENT_IGNORED = "comment_ignored"
    SUPPORT_COAST_IGNORED = "support_coast_ignored"
    ARMY_COAST_IGNORED = "army_coast_ignored"
    NEEDS_CONVOY = "needs_convoy"
    SUPPORT_DOES_NOT_MATCH = "support_does_not_match"
    READ_IN_GAME_NOTATION = "read_in_game_notation"
    COAST_MISSING_HOLDS = "coast_missing_holds"


class ParseFailure(Exception):
    """Raised inside the reader; carries the reason and the values its message needs."""

    def __init__(self, reason: ParseError, **params: Any) -> None:
        super().__init__(reason.value)
        self.reason = reason
        self.params = params
