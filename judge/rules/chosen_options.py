"""A game's options as one typed value, read once from what the game stores.

The game row keeps its options as a JSON dict (``game.options``), next to the judge's own
bookkeeping for the game (the turn's state, the lot, observers, absences, the GM's clock...).
``ChosenOptions.read`` turns the options part of that dict into attributes; every option a game
has not set (a game created before the option existed, an option CREATE does not store) takes
its default from the option registry (``judge.rules.option_registry``), the one place
defaults are written. Code that needs an option reads an attribute here, never the dict with a
default of its own.

Pure data: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from judge.adjudicator.adjustments import BuildRule, RemovalDistance
from judge.rules.deadline_clock import Absence, DeadlineRule
from judge.rules.option_registry import option
from judge.rules.options import RuleSet


def _default(key: str) -> Any:
    return option(key).default


def _value(stored: Mapping[str, Any], key: str) -> Any:
    """The stored value, or the registry's default when the game has none (or a null)."""
    value = stored.get(key)
    return _default(key) if value is None else value


def _frozen(value: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(value or {}))


@dataclass(frozen=True, slots=True)
class ChosenOptions:
    press: str  # white | grey | none
    blind: bool
    deadlines_hours: Mapping[str, float]  # phase kind (M, R, A) -> hours
    clock: Mapping[str, str]  # phase kind -> "HH:MM" (empty: no clock)
    days_off: tuple[str, ...]  # weekday names and ISO dates
    reminders: tuple[int, ...]  # hours before each deadline, largest first
    extension_limit: Mapping[str, int]  # "phase" / "game" -> hours (empty: no cap)
    pause_limit: Mapping[str, int]
    absence_limit: Mapping[str, int]  # "each" / "game" -> days
    min_reliability: int | None  # None: anyone may join
    timezone: str
    late_bonus_days: int
    late_max_per_turn: int
    end: Mapping[str, Any]  # {"centres": n} | {"on": "YYYY-MM-DD"} | {"after": "F1910M"}
    victory: int | None  # the variant's solo count, stored with VARIANT (None: not chosen)
    assignment: str  # lot | preferences
    rules: RuleSet
    gm_reads_press: bool
    scoring: str  # hundred | draw_size | sum_of_squares
    replacement_wait_hours: float
    replacement_grace_hours: float
    sommossa_resume_hours: float
    removal_distance: RemovalDistance
    builds: BuildRule | None  # None: the variant's rule
    bots: Mapping[str, Any] | None  # a solo game's {"power", "human", "won"}; None: none
    computer_seats: bool

    @classmethod
    def read(cls, stored: Mapping[str, Any]) -> ChosenOptions:
        late = _default("late_days")
        bots = stored.get("bots")
        builds = stored.get("builds")
        return cls(
            press=str(_value(stored, "press")),
            blind=bool(_value(stored, "blind")),
            deadlines_hours=_frozen({**_default("deadlines_hours"),
                                     **(stored.get("deadlines_hours") or {})}),
            clock=_frozen(_value(stored, "clock")),
            days_off=tuple(str(d) for d in _value(stored, "days_off")),
            reminders=tuple(int(h) for h in _value(stored, "reminders")),
            extension_limit=_frozen(_value(stored, "extension_limit")),
            pause_limit=_frozen(_value(stored, "pause_limit")),
            # an empty limit was never a choice (ABSENCE LIMIT no stores zeros): the default
            absence_limit=_frozen(stored.get("absence_limit") or _default("absence_limit")),
            min_reliability=(None if stored.get("min_reliability") is None
                             else int(stored["min_reliability"])),
            # an empty zone is no zone: the default's
            timezone=str(stored.get("timezone") or _default("timezone")),
            late_bonus_days=int(stored.get("late_bonus_days", late["late_bonus_days"])),
            late_max_per_turn=int(stored.get("late_max_per_turn", late["late_max_per_turn"])),
            end=_frozen(stored.get("end") or {}),
            victory=None if stored.get("victory") is None else int(stored["victory"]),
            assignment=str(_value(stored, "assignment")),
            rules=RuleSet(_value(stored, "rules")),
            gm_reads_press=bool(_value(stored, "gm_reads_press")),
            scoring=str(_value(stored, "scoring")),
            replacement_wait_hours=float(_value(stored, "replacement_wait_hours")),
            replacement_grace_hours=float(_value(stored, "replacement_grace_hours")),
            sommossa_resume_hours=float(_value(stored, "sommossa_resume_hours")),
            removal_distance=RemovalDistance(_value(stored, "removal_distance")),
            builds=BuildRule(builds) if builds else None,
            bots=_frozen(bots) if isinstance(bots, dict) else None,
            computer_seats=bool(_value(stored, "computer_seats")),
        )

    @property
    def solo_centres(self) -> int:
        """The centres a solo takes: ENDING's count, else the variant's, else the default."""
        chosen = self.end.get("centres", self.victory)
        return int(chosen if chosen is not None else _default("end")["centres"])

    def deadline_rule(self, absences: Iterable[Absence] = ()) -> DeadlineRule:
        """The game's deadline rule: its hours, clock times and days off, in its zone
        (``absences``: the players' announced absences, which the game keeps apart)."""
        return DeadlineRule.of(self.timezone, self.deadlines_hours, self.clock, self.days_off,
                               absences)
