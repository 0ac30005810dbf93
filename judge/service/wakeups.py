"""What the scheduler runs when it wakes: due deadline rows, reminders, early processing.

Each row is claimed and handled in its own transaction (``judge.storage.claimrepo``: the
row's game is locked, ``FOR UPDATE SKIP LOCKED`` on PostgreSQL), so any number of workers, in
one judge or in several, share the due rows and never work on one game together; one broken
game never holds the others back: a failure is logged, rolled back, and the row stays open to
be tried at the next wake-up. A worker that dies mid-turn holds nothing: its transaction is
rolled back and the row is claimed again.

Early processing is an ``early`` row (``deadlines.look_now``) added when orders come in;
``sweep_early`` (every active game) is kept for tests and tools, the scheduler never calls it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from judge.adjudicator.jsonio import position_from_json
from judge.bulletins.views import notice_view
from judge.rules.due import needs_orders
from judge.service import announce, deadlines, gm_time
from judge.service.snapshot_rows import rules_status
from judge.service.turns import TurnReport, process
from judge.settings import Settings
from judge.storage import Database, Session
from judge.storage.claimrepo import EARLY, claim_due_deadline
from judge.storage.gamerepo import current_orders, seats
from judge.storage.models import Deadline, Game
from judge.storage.turnrepo import active_game_ids

log = logging.getLogger(__name__)


def powers_without_orders(session: Session, game: Game) -> list[str]:
    """Active powers that have something to order and have sent nothing for this phase."""
    position = position_from_json(game.position)
    missing = []
    for row in seats(session, game.id):
        status, _ = rules_status(row)
        if status.value != "active" or not needs_orders(position, row.power):
            continue
        latest = current_orders(session, game.id, game.phase, row.power)
        if latest is None or latest.source != "submitted" or not latest.orders:
            missing.append(row.power)
    return missing


def remind(session: Session, game: Game, now: datetime, settings: Settings) -> list[str]:
    """Mail each power still without orders (only its own player: nobody learns who is late)."""
    missing = powers_without_orders(session, game)
    info = announce.game_info(game, settings)
    for power in missing:
        view = notice_view(info, game.phase, [], deadline=game.deadline, missing=[power])
        announce.broadcast(session, settings, now, game, "reminder", view,
                           addresses=announce.player_addresses(session, game, [power]))
    return missing


def handle_row(session: Session, row_id: int, now: datetime, settings: Settings,
               ) -> TurnReport | None:
    row = session.get(Deadline, row_id)
    if row is None or row.done:
        return None
    game = session.get(Game, row.game_id)
    if row.kind == EARLY:
        session.delete(row)  # a look, not a schedule: not kept once done
    else:
        row.done = True
    if row.kind == gm_time.RESUME:
        # issue 30: a pause ends by itself at the game's PAUSE LIMIT
        if game is not None and game.status == "paused" and row.phase == game.phase:
            gm_time.resume_at_cap(session, game, now, settings)
        return None
    if game is None or game.status != "active" or row.phase != game.phase:
        return None  # a stale row: the game moved on, was paused or ended
    if row.kind == "reminder":
        remind(session, game, now, settings)
        return None
    if row.kind == EARLY:
        if game.deadline is None or game.deadline <= now:
            return None  # a past deadline is its process row's (which charges late days)
        report = process(session, game, now, settings)
        return report if report.action not in ("nothing", "done_already", "inactive") else None
    report = process(session, game, now, settings)
    # not due after all (a suspension, someone waiting): keep a row at the deadline
    if report.action == "nothing" and game.deadline is not None:
        deadlines.schedule(session, game, game.phase, max(game.deadline, now), now)
    return report


@dataclass
class Pass:
    """What one worker's pass over the due rows did."""

    handled: int = 0
    failed: list[int] = field(default_factory=list)  # row ids left open after an error
    more: bool = False  # stopped by its time budget with rows perhaps still due
    reports: list[TurnReport] = field(default_factory=list)


def work_due(db: Database, settings: Settings, now: datetime, budget: float | None = None,
             pause: float = 0.0, clock: Callable[[], float] = time.monotonic,
             skip: Iterable[int] = (), pause_after: float = 0.0) -> Pass:
    """Claim and handle due rows, one transaction each, until none is left for this worker
    (others may hold some) or ``budget`` seconds have passed. ``pause``: seconds to sleep
    between transactions, so that on SQLite the other writers (mail intake) get the lock;
    ``pause_after``: only once this many seconds of work have passed since the last pause
    (a turn is far shorter than a pause: pausing after each left the worker idle most of
    the time). ``skip``: rows that failed earlier in this wake-up (not tried again in it)."""
    done = Pass()
    skipped = list(skip)
    started = clock()
    worked_since = started
    while True:
        if budget is not None and done.handled and clock() - started >= budget:
            done.more = True
            return done
        claimed: int | None = None
        try:
            with db.session() as session:
                claimed = claim_due_deadline(session, now, skipped + done.failed)
                if claimed is None:
                    return done
                report = handle_row(session, claimed, now, settings)
            done.handled += 1
            if report is not None:
                done.reports.append(report)
        except Exception:
            if claimed is None:
                raise  # the database itself is failing
            log.exception("deadline row %s failed; it stays open for the next wake-up", claimed)
            done.failed.append(claimed)
        if pause and clock() - worked_since >= pause_after:
            time.sleep(pause)
            worked_since = clock()


def run_due(db: Database, settings: Settings, now: datetime) -> list[TurnReport]:
    """Handle every deadline row whose time has come, one transaction each."""
    return work_due(db, settings, now).reports


def sweep_early(db: Database, settings: Settings, now: datetime) -> list[TurnReport]:
    """Process the active games whose orders are all in and where nobody asked to wait."""
    with db.session() as session:
        ids = active_game_ids(session)
    reports = []
    for game_id in ids:
        try:
            with db.session() as session:
                game = session.get(Game, game_id)
                if game is None or game.deadline is None or game.deadline <= now:
                    continue  # past deadlines belong to run_due, which charges late days
                report = process(session, game, now, settings)
            if report.action not in ("nothing", "done_already", "inactive"):
                reports.append(report)
        except Exception:
            log.exception("early processing of game %s failed", game_id)
    return reports


def wake(db: Database, settings: Settings, now: datetime) -> datetime | None:
    """One wake-up in this thread: every due row (early processing included); returns when
    to wake next."""
    run_due(db, settings, now)
    return next_wake(db)


def next_wake(db: Database) -> datetime | None:
    with db.reading() as session:
        return deadlines.earliest_open(session)
