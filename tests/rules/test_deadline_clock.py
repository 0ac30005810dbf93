"""Issue 30 points 1 and 2: deadlines at a time of day (njudge's CLOCK) and never on a day off
(njudge's DAYS), on the game's wall clock, across daylight-saving changes. Pure: ``now`` is an
argument."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from judge.rules.chosen_options import ChosenOptions
from judge.rules.deadline_clock import (
    Absence,
    AbsenceRefusal,
    DeadlineRule,
    absence_refused,
    at_local,
    deadline_after,
    settle,
)

ROME = ZoneInfo("Europe/Rome")
NEW_YORK = ZoneInfo("America/New_York")


def rule(zone: ZoneInfo = ROME, **options: object) -> DeadlineRule:
    return ChosenOptions.read({"timezone": zone.key, **options}).deadline_rule()


def local(due: datetime, zone: ZoneInfo = ROME) -> datetime:
    return due.astimezone(zone)


def test_without_a_clock_the_deadline_is_the_hours_on_the_wall_clock() -> None:
    now = datetime(2026, 6, 1, 10, 17, tzinfo=ROME)  # a Monday
    due = deadline_after(now, "M", rule())
    assert local(due).replace(tzinfo=None) == datetime(2026, 6, 4, 10, 17)


def test_the_clock_time_is_the_first_at_least_the_minimum_after_processing() -> None:
    clock = rule(clock={"M": "21:00", "R": "12:00", "A": "12:00"},
                 deadlines_hours={"M": 48, "R": 24, "A": 24})
    # processed Monday 10:17: 48 h later is Wednesday 10:17, the first 21:00 after it
    now = datetime(2026, 6, 1, 10, 17, tzinfo=ROME)
    assert local(deadline_after(now, "M", clock)).replace(tzinfo=None) == datetime(
        2026, 6, 3, 21, 0)
    # a retreat (24 h, at noon): Tuesday 10:17 is before noon, so Tuesday noon
    assert local(deadline_after(now, "R", clock)).replace(tzinfo=None) == datetime(
        2026, 6, 2, 12, 0)
    # processed at 21:30: 48 h later is 21:30, past 21:00, so the next evening
    late = datetime(2026, 6, 1, 21, 30, tzinfo=ROME)
    assert local(deadline_after(late, "M", clock)).replace(tzinfo=None) == datetime(
        2026, 6, 4, 21, 0)
    # exactly at the minimum is "at least that long"
    exact = datetime(2026, 6, 1, 21, 0, tzinfo=ROME)
    assert local(deadline_after(exact, "M", clock)).replace(tzinfo=None) == datetime(
        2026, 6, 3, 21, 0)


def test_a_kind_without_a_clock_keeps_the_plain_hours() -> None:
    clock = rule(clock={"M": "21:00"})
    now = datetime(2026, 6, 1, 10, 17, tzinfo=ROME)
    assert local(deadline_after(now, "A", clock)).replace(tzinfo=None) == datetime(
        2026, 6, 2, 10, 17)


def test_the_clock_holds_across_the_european_spring_change() -> None:
    # clocks go forward in Rome on Sunday 29 March 2026, 02:00 -> 03:00
    now = datetime(2026, 3, 27, 22, 0, tzinfo=ROME)  # Friday 22:00 CET
    due = deadline_after(now, "M", rule(clock={"M": "21:00"}, deadlines_hours={"M": 48}))
    # 48 real hours later is Sunday 23:00 CEST: the first 21:00 after it is Monday's
    assert local(due).replace(tzinfo=None) == datetime(2026, 3, 30, 21, 0)
    assert local(due).utcoffset() == timedelta(hours=2)


def test_the_clock_holds_across_the_european_autumn_change() -> None:
    # clocks go back in Rome on Sunday 25 October 2026, 03:00 -> 02:00
    now = datetime(2026, 10, 23, 21, 0, tzinfo=ROME)  # Friday 21:00 CEST
    due = deadline_after(now, "M", rule(clock={"M": "21:00"}, deadlines_hours={"M": 48}))
    # Sunday 21:00 CET is 49 real hours later: the first 21:00 at least 48 hours after
    assert local(due).replace(tzinfo=None) == datetime(2026, 10, 25, 21, 0)
    assert due - now == timedelta(hours=49)
    assert local(due).utcoffset() == timedelta(hours=1)


def test_the_clock_holds_across_a_us_change() -> None:
    # clocks go forward in New York on Sunday 8 March 2026, 02:00 -> 03:00
    now = datetime(2026, 3, 6, 20, 0, tzinfo=NEW_YORK)  # Friday 20:00 EST
    due = deadline_after(now, "M", rule(NEW_YORK, clock={"M": "20:00"},
                                        deadlines_hours={"M": 48}))
    # Sunday 20:00 EDT is only 47 real hours later: too soon, so Monday 20:00 EDT
    assert local(due, NEW_YORK).replace(tzinfo=None) == datetime(2026, 3, 9, 20, 0)
    assert local(due, NEW_YORK).utcoffset() == timedelta(hours=-4)


def test_a_clock_time_the_spring_change_skips_falls_just_after_it() -> None:
    # 02:30 does not exist in Rome on 29 March 2026: it falls at 03:30 CEST, one real instant
    due = at_local(date(2026, 3, 29), time(2, 30), ROME)
    assert due.tzinfo is UTC
    assert local(due).replace(tzinfo=None) == datetime(2026, 3, 29, 3, 30)
    now = datetime(2026, 3, 28, 1, 0, tzinfo=ROME)
    assert deadline_after(now, "M", rule(clock={"M": "02:30"}, deadlines_hours={"M": 24})) == due


def test_a_clock_time_the_autumn_change_repeats_is_the_first_of_the_two() -> None:
    # 02:30 happens twice in Rome on 25 October 2026: the deadline is the first (CEST)
    due = at_local(date(2026, 10, 25), time(2, 30), ROME)
    assert due == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)
    now = datetime(2026, 10, 24, 1, 0, tzinfo=ROME)
    assert deadline_after(now, "M", rule(clock={"M": "02:30"}, deadlines_hours={"M": 24})) == due


def test_a_deadline_on_a_day_off_moves_to_the_same_time_of_the_next_day_not_off() -> None:
    weekend = rule(clock={"M": "21:00"}, deadlines_hours={"M": 48}, days_off=["sat", "sun"])
    thursday = datetime(2026, 6, 4, 22, 0, tzinfo=ROME)
    # 48 h: Saturday 22:00, first 21:00 Sunday; both off, so Monday 21:00
    assert local(deadline_after(thursday, "M", weekend)).replace(tzinfo=None) == datetime(
        2026, 6, 8, 21, 0)
    # without a clock, the time of day is kept
    plain = rule(days_off=["sat", "sun"])
    assert local(deadline_after(thursday, "M", plain)).replace(tzinfo=None) == datetime(
        2026, 6, 8, 22, 0)


def test_dates_off_and_weekdays_off_together() -> None:
    holidays = rule(clock={"M": "21:00"}, deadlines_hours={"M": 24},
                    days_off=["sun", "2026-12-24", "2026-12-25", "2026-12-26"])
    now = datetime(2026, 12, 23, 8, 0, tzinfo=ROME)  # Wednesday
    # Thursday 24 to Saturday 26 are holidays, Sunday 27 is off: Monday 28 at 21:00
    assert local(deadline_after(now, "M", holidays)).replace(tzinfo=None) == datetime(
        2026, 12, 28, 21, 0)


def test_a_day_off_across_the_spring_change_keeps_the_local_time() -> None:
    # due Sunday 29 March 21:00 CEST, Sundays off: Monday 21:00 CEST
    sunday = at_local(date(2026, 3, 29), time(21, 0), ROME)
    moved = settle(sunday, rule(days_off=["sun"]))
    assert local(moved).replace(tzinfo=None) == datetime(2026, 3, 30, 21, 0)
    assert moved - sunday == timedelta(hours=24)


def test_a_deadline_in_an_absence_moves_past_it_and_past_days_off() -> None:
    away = ChosenOptions.read({"timezone": "Europe/Rome", "days_off": ["sat"]}).deadline_rule(
        [Absence(date(2026, 6, 3), date(2026, 6, 5))])
    due = at_local(date(2026, 6, 4), time(21, 0), ROME)
    # back on Saturday 6, which is off: Sunday 7 at 21:00
    assert local(settle(due, away)).replace(tzinfo=None) == datetime(2026, 6, 7, 21, 0)
    # a deadline outside the absence stays where it is
    before = at_local(date(2026, 6, 2), time(21, 0), ROME)
    assert settle(before, away) == before


def test_an_absence_is_refused_past_the_limits_with_the_days_left() -> None:
    today = date(2027, 3, 1)
    mine = [Absence(date(2027, 3, 10), date(2027, 3, 14))]
    assert absence_refused(Absence(date(2027, 3, 2), date(2027, 3, 3)), [], today, 0, 0) == (
        AbsenceRefusal.NOT_ALLOWED, 0)
    assert absence_refused(Absence(date(2027, 2, 28), date(2027, 3, 3)), [], today, 9, 9) == (
        AbsenceRefusal.IN_THE_PAST, 0)
    assert absence_refused(Absence(date(2027, 3, 5), date(2027, 3, 4)), [], today, 9, 9) == (
        AbsenceRefusal.ENDS_BEFORE_START, 0)
    assert absence_refused(Absence(date(2027, 3, 2), date(2027, 3, 7)), [], today, 5, 9) == (
        AbsenceRefusal.TOO_LONG, 5)
    # days already announced count once: the same days again are free, new ones are not
    assert absence_refused(Absence(date(2027, 3, 12), date(2027, 3, 14)), mine, today, 5, 7) is None
    assert absence_refused(Absence(date(2027, 4, 1), date(2027, 4, 3)), mine, today, 5, 7) == (
        AbsenceRefusal.OVER_GAME_LIMIT, 2)
