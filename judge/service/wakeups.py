"""What the scheduler runs when it wakes: due deadline rows, reminders, early processing.

Each game is handled in its own transaction, so one broken game never holds the others back;
a failure is logged and the row stays open to be tried at the next wake-up.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from judge.adjudicator.jsonio import position_from_json
from judge.bulletins.views import notice_view
from judge.rules.due import needs_orders
from judge.service import announce, deadlines
from judge.service.snapshot_rows import rules_status
from judge.service.turns import TurnReport, process
from judge.settings import Settings
from judge.storage import Database
from judge.storage.gamerepo import current_orders, seats
from judge.storage.models import Deadline, Game
from judge.storage.turnrepo import active_game_ids

Session = Any  # a judge.storage session (SQLAlchemy stays inside judge.storage)

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
    row.done = True
    if game is None or game.status != "active" or row.phase != game.phase:
        return None  # a stale row: the game moved on, was paused or ended
    if row.kind == "reminder":
        remind(session, game, now, settings)
        return None
    report = process(session, game, now, settings)
    # not due after all (a suspension, someone waiting): keep a row at the deadline
    if report.action == "nothing" and game.deadline is not None:
        deadlines.schedule(session, game, game.phase, max(game.deadline, now), now)
    return report


def run_due(db: Database, settings: Settings, now: datetime) -> list[TurnReport]:
    """Handle every deadline row whose time has come, one transaction each."""
    with db.session() as session:
        ids = [r.id for r in deadlines.due_rows(session, now)]
    reports: list[TurnReport] = []
    for row_id in ids:
        try:
            with db.session() as session:
                report = handle_row(session, row_id, now, settings)
            if report is not None:
                reports.append(report)
        except Exception:
            log.exception("deadline row %s failed; it stays open for the next wake-up", row_id)
    return reports


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
    """One wake-up: due rows, then early processing; returns when to wake next."""
    run_due(db, settings, now)
    sweep_early(db, settings, now)
    with db.session() as session:
        return deadlines.earliest_open(session)
