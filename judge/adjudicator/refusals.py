"""Why an order cannot be given: one member per reason, so a reply can say it in any language.

``legality.check`` answers with these (and re-exports the enum).
"""

from __future__ import annotations

from enum import StrEnum


class Refusal(StrEnum):
    """Why an order was refused; the order's unit holds (movement) or is disbanded (retreat)."""

    UNKNOWN_LOCATION = "unknown_location"
    WRONG_PHASE = "wrong_phase"  # e.g. a build in a movement phase
    NO_UNIT = "no_unit"  # nothing stands (or waits to retreat) there
    NOT_YOUR_UNIT = "not_your_unit"
    WRONG_UNIT_TYPE = "wrong_unit_type"  # "F PAR" for the army in Paris
    MOVE_TO_OWN_PROVINCE = "move_to_own_province"
    NOT_ADJACENT = "not_adjacent"
    NO_FLEETS_TO_CONVOY = "no_fleets_to_convoy"  # no fleets at sea could form a route (6.D.32)
    ARMY_TO_SEA = "army_to_sea"
    FLEET_TO_LAND = "fleet_to_land"  # an inland province
    MISSING_COAST = "missing_coast"  # two coasts reachable (or buildable) and none named
    WRONG_COAST = "wrong_coast"  # the named coast cannot be reached
    SUPPORT_SELF = "support_self"
    SUPPORT_OWN_PROVINCE = "support_own_province"  # support for an attack on the supporter
    NO_SUPPORTED_UNIT = "no_supported_unit"
    WRONG_SUPPORTED_TYPE = "wrong_supported_type"
    SUPPORT_UNREACHABLE = "support_unreachable"  # the supporter could not move there itself
    SUPPORTED_MOVE_IMPOSSIBLE = "supported_move_impossible"
    CONVOY_BY_ARMY = "convoy_by_army"
    CONVOY_NOT_AT_SEA = "convoy_not_at_sea"  # fleets on coasts cannot convoy
    NO_CONVOYED_ARMY = "no_convoyed_army"
    CONVOY_TARGET_NOT_COASTAL = "convoy_target_not_coastal"
    CONVOY_NOT_ON_ROUTE = "convoy_not_on_route"  # no minimal route needs this fleet
    NOT_DISLODGED = "not_dislodged"  # a retreat order for a unit that need not retreat
    # occupied, left empty by a standoff, the attacker's origin, or not adjacent
    RETREAT_NOT_ALLOWED = "retreat_not_allowed"
    NO_BUILDS_AVAILABLE = "no_builds_available"
    NO_REMOVALS_NEEDED = "no_removals_needed"
    NOT_A_HOME_CENTER = "not_a_home_center"
    CENTER_NOT_OWNED = "center_not_owned"
    CENTER_OCCUPIED = "center_occupied"
    FLEET_INLAND = "fleet_inland"  # building a fleet where it cannot stand
    TOO_MANY_BUILDS = "too_many_builds"
    ALREADY_BUILT_THERE = "already_built_there"
    TOO_MANY_REMOVALS = "too_many_removals"
    DUPLICATE_ORDER = "duplicate_order"  # the unit already has an order
    NEUTRAL_POWER = "neutral_power"  # orders for a power the variant makes neutral (it holds)

    __hash__ = str.__hash__  # in C, as UnitType (orders.py)
