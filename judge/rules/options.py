"""Per-game choices among the house rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

from judge.adjudicator.adjustments import BuildRule, RemovalDistance
from judge.adjudicator.phase import Phase


class RuleSet(StrEnum):
    """Which rules fill in missing orders."""

    ITALIAN = "italian"  # seed 002: ONP two strikes, tacit retreat, automatic disband/build
    RULEBOOK = "rulebook"  # 2008 rulebook civil disorder
    # seed 000 (the French rules' "désordre civil"): the rulebook's, except that at equal
    # distance removals take units off a centre before fleets before armies
    FRENCH = "french"

    @property
    def civil_disorder(self) -> bool:
        """Missing orders mean civil disorder: holds, dislodged units disbanded, no builds."""
        return self is not RuleSet.ITALIAN


@dataclass(frozen=True, slots=True)
class EndConditions:
    """When the game stops. Every condition set here applies; None switches one off."""

    solo_centers: int | None = 18
    # the temporal game: ends once this season's phases are over (seed 000's default: F1907M)
    end_after: Phase | None = None
    end_on: datetime | None = None  # the temporal game on a date
    # a solo game against computer powers (issue 14, option BOTS): the one human's power. His
    # solo does not end the game (he may play on); it stops when no other power holds a
    # centre, when he is out, or when a computer power reaches the solo count
    solo_player: str | None = None


@dataclass(frozen=True, slots=True)
class GameOptions:
    rules: RuleSet = RuleSet.ITALIAN
    late_bonus_days: int = 10
    late_max_per_turn: int = 3
    # seed 002: the game is suspended one week while a replacement is sought
    replacement_wait: timedelta = timedelta(weeks=1)
    # a replacement gets one more week of diplomacy before play resumes
    replacement_grace: timedelta = timedelta(weeks=1)
    # time the others get to vote once a power is declared in Sommossa after a failed search
    resume_after_sommossa: timedelta = timedelta(days=2)
    end: EndConditions = field(default_factory=EndConditions)
    # civil-disorder and automatic removals: distance to home or owned centres (the game
    # option ``removal_distance``; the adjudicator's Options get the same value)
    removal_distance: RemovalDistance = RemovalDistance.HOME
    # where powers build (the game option ``builds``); None: the variant's rule
    builds: BuildRule | None = None
