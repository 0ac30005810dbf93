"""Deadlines on the game's wall clock, and the rows the scheduler wakes on."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select

from judge.service import deadlines
from judge.storage import Database
from judge.storage.models import Deadline, Game
from tests.service.games import START, new_game

ROME = ZoneInfo("Europe/Rome")


def test_deadline_keeps_the_local_hour_across_the_spring_dst_change() -> None:
    # Saturday 28 March 2026, 20:00 in Rome (CET); clocks go forward that night
    before = datetime(2026, 3, 28, 20, 0, tzinfo=ROME)
    due = deadlines.wall_clock_after(before, 72, ROME)
    assert due.astimezone(ROME).hour == 20
    assert due.astimezone(ROME).day == 31
    assert due - before.astimezone(UTC) == timedelta(hours=71)  # one hour less, really


def test_deadline_keeps_the_local_hour_across_the_autumn_dst_change() -> None:
    before = datetime(2026, 10, 24, 20, 0, tzinfo=ROME)
    due = deadlines.wall_clock_after(before, 24, ROME)
    assert due.astimezone(ROME).hour == 20
    assert due - before.astimezone(UTC) == timedelta(hours=25)


def test_a_deadline_falling_in_the_dst_gap_is_still_a_real_instant() -> None:
    before = datetime(2026, 3, 28, 2, 30, tzinfo=ROME)
    due = deadlines.wall_clock_after(before, 24, ROME)  # 02:30 on 29 March does not exist
    assert due.tzinfo is UTC
    assert due.astimezone(ROME).utcoffset() == timedelta(hours=2)


def test_schedule_replaces_open_rows_and_adds_a_reminder(db: Database) -> None:
    gid = new_game(db)
    later = START + timedelta(days=5)
    with db.session() as s:
        game = s.get(Game, gid)
        deadlines.schedule(s, game, "S1901M", later, START)
    with db.session() as s:
        open_rows = list(s.scalars(select(Deadline).where(Deadline.done.is_(False))
                                   .order_by(Deadline.due_at)))
        # and one "look now" row: the new deadline may find every order in already
        assert [(r.kind, r.due_at) for r in open_rows] == [
            ("early", START), ("reminder", later - timedelta(hours=24)), ("process", later)]
        assert deadlines.earliest_open(s) == START
        assert [r.kind for r in deadlines.open_rows(s, s.get(Game, gid))] == [
            "reminder", "process"]
        assert s.get(Game, gid).deadline == later


def test_no_reminder_when_the_deadline_is_less_than_a_day_away(db: Database) -> None:
    gid = new_game(db)
    with db.session() as s:
        game = s.get(Game, gid)
        deadlines.schedule(s, game, "S1901M", START + timedelta(hours=3), START)
    with db.session() as s:
        kinds = [r.kind for r in s.scalars(select(Deadline).where(Deadline.done.is_(False)))
                 if r.kind != "early"]
    assert kinds == ["process"]
