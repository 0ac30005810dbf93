"""Deadlines: when a phase is due, the rows the scheduler wakes on, reminders.

The ``deadline`` table is the source of truth: every scheduled wake-up (``process`` at the
deadline, ``reminder`` a day before) is a row, and the scheduler only ever asks the table for
the earliest row not done. A judge that was down finds its overdue rows at start and handles
them at once.

Early processing (every order in before the deadline) is a row too: ``look_now`` adds an
``early`` row due at once when something may have made the game ready -- a new set of orders,
WAIT taken back, a new phase or deadline -- in the transaction that changed it, and the
scheduler (woken by the commit) processes the game. No sweep over every game is needed.

Deadlines are computed on the game's wall clock (zoneinfo): 72 hours after Saturday 20:00 in
Rome is Tuesday 20:00 in Rome even when the clocks change in between. The rule itself (the
minimum hours, a clock time, days off) is pure: ``judge.rules.deadline_clock``.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from judge.adjudicator.phase import Phase
from judge.rules.deadline_clock import Absence, DeadlineRule, deadline_after, settle
from judge.rules.deadline_clock import wall_clock_after as wall_clock_after
from judge.service.snapshot_rows import chosen
from judge.storage import Session
from judge.storage.claimrepo import EARLY, add_early_row, open_early_row
from judge.storage.gamerepo import due_deadlines
from judge.storage.gamerepo import next_deadline as earliest_row
from judge.storage.models import Deadline, Game
from judge.storage.playrepo import open_deadlines
from judge.storage.turnrepo import close_deadlines

REMINDER_BEFORE = timedelta(hours=24)


def game_zone(game: Game) -> ZoneInfo:
    return ZoneInfo(chosen(game).timezone)


def deadline_rule(game: Game) -> DeadlineRule:
    """The game's deadline rule: its hours, clock times and days off, in its zone, and the
    absences its players announced (kept with the game's bookkeeping, issue 30)."""
    announced = (game.options or {}).get("absences") or []
    return chosen(game).deadline_rule(
        Absence(date.fromisoformat(a["start"]), date.fromisoformat(a["end"]))
        for a in announced)


def next_deadline(game: Game, phase: str, now: datetime) -> datetime:
    """The deadline of ``phase`` starting at ``now`` (CLOCK and DAYS OFF applied)."""
    return deadline_after(now, Phase.parse(phase).kind.value, deadline_rule(game))


def off_days_settled(game: Game, due: datetime) -> datetime:
    """A computed deadline (a late day, an extension) moved off the game's days off."""
    return settle(due, deadline_rule(game))


def reminders_before(game: Game) -> list[timedelta]:
    """How long before the deadline each reminder goes: the REMINDERS option (issue 30), else
    the older single ``reminder_hours`` key, else a day."""
    opts = game.options or {}
    if "reminders" in opts:
        return [timedelta(hours=float(h)) for h in opts["reminders"] or []]
    hours = opts.get("reminder_hours")
    return [timedelta(hours=float(hours)) if hours is not None else REMINDER_BEFORE]


def schedule(session: Session, game: Game, phase: str, due_at: datetime, now: datetime,
             look: bool = True) -> None:
    """Make ``due_at`` the game's deadline for ``phase``: rows for processing and reminders.

    Earlier open rows of the game are closed first, so a moved deadline never fires twice.
    ``look``: also look at the game at once (its orders may be complete already); False
    when the caller knows they are not (orders that come later add their own look).
    """
    clear(session, game)
    game.deadline = due_at
    session.add(Deadline(game_id=game.id, phase=phase, due_at=due_at, kind="process", done=False))
    for before in reminders_before(game):
        remind_at = due_at - before
        if remind_at > now:  # a reminder already past (a short deadline) is not sent late
            session.add(Deadline(game_id=game.id, phase=phase, due_at=remind_at,
                                 kind="reminder", done=False))
    # a new phase may need no orders at all, a moved deadline may find them all in already
    if look:
        add_early_row(session, game.id, phase, now)
    session.flush()


def look_now(session: Session, game: Game, now: datetime) -> None:
    """Have the scheduler look at ``game`` at once: its orders may now be complete.

    One row per game and phase while it is open (a burst of order mails adds one). The row
    is committed with the change that made the game ready, so a crash loses neither."""
    if game.status != "active" or game.deadline is None or game.deadline <= now:
        return  # not running, or its deadline row is due anyway
    if not open_early_row(session, game.id, game.phase):
        add_early_row(session, game.id, game.phase, now)


def clear(session: Session, game: Game) -> None:
    """Close every open row of the game (paused, finished, or about to be rescheduled)."""
    close_deadlines(session, game.id)


def open_rows(session: Session, game: Game) -> list[Deadline]:
    """The game's open ``process`` and ``reminder`` rows (not the "look now" ones)."""
    return [r for r in open_deadlines(session, game.id) if r.kind != EARLY]


def due_rows(session: Session, now: datetime) -> list[Deadline]:
    """Open rows whose time has come, oldest first (reminders before processing)."""
    return due_deadlines(session, now)


def earliest_open(session: Session) -> datetime | None:
    """When the scheduler must next wake, or None when nothing is scheduled."""
    return earliest_row(session)
