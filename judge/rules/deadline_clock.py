"""When a deadline falls: hours after processing, a time of day, days off (issue 30).

njudge lets a club say "at least 72 hours after the last processing, at 21:00, never on a
Sunday" (its NEXT, CLOCK and DAYS settings); this is that rule, on the game's wall clock. The
service hands in the game's options, the time zone and ``now``; nothing here reads a clock.

* ``DEADLINES`` stays the minimum: without a clock the deadline is that many hours later on the
  local wall clock (72 hours after Saturday 20:00 is Tuesday 20:00 even across a DST change,
  as before issue 30). With a clock it is the first local clock time at least that many real
  hours after processing.
* A clock time a DST change skips (02:30 on the night clocks go forward) falls as many minutes
  after the change as it was after the hour (03:30); a clock time that happens twice (the night
  clocks go back) is the first of the two. Either way the deadline is one real instant.
* Days off: a deadline that would fall on one moves to the same local time of the next day that
  is not off (a weekday name or a date). The option refuses all seven weekdays, so a day that is
  not off always exists.
* Absences (``Absence``): a deadline that falls inside one moves to the same local time of the
  first day after it ends that is not off (again past any other absence it lands in).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from enum import StrEnum
from zoneinfo import ZoneInfo

from babel.dates import get_day_names as _day_names

# date.weekday() order; the stored identifiers of days off are CLDR's English abbreviations
# (Babel's data, as every day name the judge reads or writes: never a table of our own)
WEEKDAYS: tuple[str, ...] = tuple(
    str(_day_names("abbreviated", locale="en")[i]).lower() for i in range(7)
)
# a deadline moves past at most this many days off and absences: the option and ABSENCE keep
# every list far shorter, this only bounds the loop against a hand-edited option dict
MAX_SKIPPED_DAYS = 400


@dataclass(frozen=True)
class Absence:
    """A player's announced absence: no deadline falls from ``start`` to ``end`` (dates in the
    game's zone, both included)."""

    start: date
    end: date


    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1


class AbsenceRefusal(StrEnum):
    """Why an announced absence is not taken (the game's ABSENCE LIMIT, or the dates)."""

    NOT_ALLOWED = "not_allowed"  # the game allows none
    ENDS_BEFORE_START = "ends_before_start"
    IN_THE_PAST = "in_the_past"
    TOO_LONG = "too_long"  # longer than one absence may last
    OVER_GAME_LIMIT = "over_game_limit"  # more days away than the game allows a player


def absence_refused(new: Absence, mine: Sequence[Absence], today: date, each: int,
                    game: int) -> tuple[AbsenceRefusal, int] | None:
    """Whether ``new`` is refused, with the days still allowed (for the refusal's text).

    ``mine``: the player's absences already announced in this game; days they share with
    ``new`` are counted once, so announcing the same absence again costs nothing."""
    if each <= 0:
        return AbsenceRefusal.NOT_ALLOWED, 0
    if new.end < new.start:
        return AbsenceRefusal.ENDS_BEFORE_START, 0
    if new.start < today:
        return AbsenceRefusal.IN_THE_PAST, 0
    if new.days > each:
        return AbsenceRefusal.TOO_LONG, each
    taken = {a.start + timedelta(days=i) for a in mine for i in range(a.days)}
    wanted = {new.start + timedelta(days=i) for i in range(new.days)}
    if len(taken | wanted) > game:
        return AbsenceRefusal.OVER_GAME_LIMIT, max(game - len(taken), 0)
    return None


@dataclass(frozen=True)
class DeadlineRule:
    """What decides a game's deadlines (``ChosenOptions.deadline_rule`` makes it from the
    game's options)."""

    zone: ZoneInfo
    hours: Mapping[str, float]
    clock: Mapping[str, time] = field(default_factory=dict)  # phase kind -> time of day
    weekdays_off: frozenset[int] = frozenset()  # date.weekday() numbers
    dates_off: frozenset[date] = frozenset()
    absences: tuple[Absence, ...] = ()

    @classmethod
    def of(cls, timezone: str, hours: Mapping[str, float], clock: Mapping[str, str],
           days_off: Iterable[str], absences: Iterable[Absence] = ()) -> DeadlineRule:
        """From the options' stored shapes: a zone name, "HH:MM" times, day names and ISO
        dates."""
        off = list(days_off)
        return cls(zone=ZoneInfo(timezone), hours=dict(hours),
                   clock={k: parse_clock(v) for k, v in clock.items()},
                   weekdays_off=frozenset(WEEKDAYS.index(d) for d in off if d in WEEKDAYS),
                   dates_off=frozenset(date.fromisoformat(d) for d in off if d not in WEEKDAYS),
                   absences=tuple(absences))

    def is_off(self, day: date) -> bool:
        return day.weekday() in self.weekdays_off or day in self.dates_off

    def absent(self, day: date) -> Absence | None:
        return next((a for a in self.absences if a.start <= day <= a.end), None)


def parse_clock(text: str) -> time:
    """``"21:00"`` -> 21:00 (the stored shape of a clock time)."""
    hour, minute = text.split(":")
    return time(int(hour), int(minute))


def at_local(day: date, when: time, zone: ZoneInfo) -> datetime:
    """``day`` at ``when`` on the zone's wall clock, as a UTC instant.

    A skipped wall time (fold 0, read with the offset before the change) lands as far after
    the change as it was after the hour; a repeated one takes fold 0, the first of the two.
    """
    local = datetime.combine(day, when, tzinfo=zone)
    return local.astimezone(UTC)


def wall_clock_after(now: datetime, hours: float, zone: ZoneInfo) -> datetime:
    """``now`` plus ``hours`` on the local wall clock, returned in UTC, to the minute.

    Python adds a timedelta to an aware datetime in wall time; converting through UTC
    afterwards settles times that fall in a DST gap or fold.
    """
    local = now.astimezone(zone) + timedelta(hours=hours)
    local = local.replace(second=0, microsecond=0)
    return local.astimezone(UTC)


def deadline_after(now: datetime, kind: str, rule: DeadlineRule) -> datetime:
    """The deadline of a phase of ``kind`` (M, R or A) that starts at ``now``."""
    hours = float(rule.hours[kind])
    clock = rule.clock.get(kind)
    if clock is None:
        return settle(wall_clock_after(now, hours, rule.zone), rule)
    earliest = now.astimezone(UTC) + timedelta(hours=hours)
    day = earliest.astimezone(rule.zone).date() - timedelta(days=1)  # a fold may sit before
    candidate = at_local(day, clock, rule.zone)
    while candidate < earliest:
        day += timedelta(days=1)
        candidate = at_local(day, clock, rule.zone)
    return settle(candidate, rule)


def settle(due: datetime, rule: DeadlineRule) -> datetime:
    """``due`` moved off the days off and out of the absences, keeping its local time."""
    local = due.astimezone(rule.zone)
    day, when = local.date(), local.time().replace(tzinfo=None)
    for _ in range(MAX_SKIPPED_DAYS):
        away = rule.absent(day)
        if away is not None:
            day = away.end + timedelta(days=1)
        elif rule.is_off(day):
            day += timedelta(days=1)
        else:
            break
    if day == local.date():
        return due
    return at_local(day, when, rule.zone)
