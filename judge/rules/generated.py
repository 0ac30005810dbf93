"""Orders the judge makes up for a power, each with the rule that produced it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from judge.adjudicator.orders import Order


class GeneratedWhy(StrEnum):
    """Why the judge wrote an order the player did not send (shown in bulletins)."""

    ONP_MUTUAL_SUPPORT = "onp_mutual_support"  # first ONP, seed 002's a-e algorithm
    ONP_NOTHING_TO_SUPPORT = "onp_nothing_to_support"  # first ONP, unit holds
    ABANDONED_MAJORITY = "abandoned_majority"  # second ONP, most voted order of the others
    ABANDONED_NO_MAJORITY_HOLD = "abandoned_no_majority_hold"  # second ONP, tie or no votes
    SOMMOSSA_MAJORITY = "sommossa_majority"
    SOMMOSSA_NO_MAJORITY_HOLD = "sommossa_no_majority_hold"
    SOMMOSSA_DISLODGED_REMOVED = "sommossa_dislodged_removed"
    TACIT_RETREAT = "tacit_retreat"  # seed 002 "ritirata tacita"
    TACIT_RETREAT_NOWHERE = "tacit_retreat_nowhere"  # no legal retreat: disbanded
    AUTOMATIC_DISBAND = "automatic_disband"  # seed 002 "scioglimento automatico"
    AUTOMATIC_BUILD = "automatic_build"  # seed 002 "costruzioni automatiche"
    CIVIL_DISORDER_HOLD = "civil_disorder_hold"  # 2008 rulebook
    CIVIL_DISORDER_DISBAND = "civil_disorder_disband"  # 2008 rulebook, dislodged unit
    CIVIL_DISORDER_REMOVAL = "civil_disorder_removal"  # 2008 rulebook / seed 000, removal


@dataclass(frozen=True, slots=True)
class GeneratedOrder:
    order: Order
    why: GeneratedWhy

    def __str__(self) -> str:
        return str(self.order)
