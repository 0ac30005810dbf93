"""Due games shared by claims (issue 16): early processing queued by the orders' commit, two
workers never on one game, a failing row left open, the process pool of ``judge serve``."""

from __future__ import annotations

import dataclasses
import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from judge.service import usecases, wakeups
from judge.storage import Database
from judge.storage.models import Deadline, Game, OutboundMail, Turn
from judge.turnpool import TurnPool, as_pass
from tests.service.games import SETTINGS, START, new_game, send
from tests.service.sample_game import SPRING_1901


def all_orders(db: Database, gid: int) -> None:
    for power, given in SPRING_1901.items():
        send(db, gid, power, given, START)


def open_early(db: Database, gid: int) -> int:
    with db.session() as s:
        return s.scalar(select(func.count(Deadline.id)).where(
            Deadline.game_id == gid, Deadline.kind == "early", Deadline.done.is_(False))) or 0


def test_the_last_orders_queue_an_early_look_and_it_processes_the_game(db: Database) -> None:
    gid = new_game(db)
    wakeups.run_due(db, SETTINGS, START)  # the look queued by the new deadline: not ready
    assert open_early(db, gid) == 0
    for power, given in list(SPRING_1901.items())[:-1]:
        send(db, gid, power, given, START)
    assert wakeups.run_due(db, SETTINGS, START + timedelta(minutes=1)) == []
    later = START + timedelta(minutes=2)
    with db.session() as s:
        game = s.get(Game, gid)
        usecases.submit_orders(s, game, "TURKEY", SPRING_1901["TURKEY"], later,
                               by_account_id=None)
        # a second set in the same phase adds no second look
        usecases.submit_orders(s, game, "TURKEY", SPRING_1901["TURKEY"][:2], later,
                               by_account_id=None)
    assert open_early(db, gid) == 1
    # nothing scans the games: the row is what the scheduler finds due
    reports = wakeups.run_due(db, SETTINGS, later)
    assert [(r.action, r.why) for r in reports] == [("adjudicated", "all_orders_in")]
    with db.session() as s:
        assert s.get(Game, gid).phase == "F1901M"
        # the look is gone once done; the new phase's own look found nothing to do
        assert s.scalar(select(func.count(Deadline.id)).where(
            Deadline.kind == "early")) == 0


def test_two_workers_adjudicate_each_due_game_once(db: Database) -> None:
    games = [new_game(db, name=f"g{i}") for i in range(6)]
    for gid in games:
        all_orders(db, gid)
    with db.session() as s:
        deadline = s.get(Game, games[0]).deadline
    due = deadline + timedelta(minutes=1)
    passes: list[wakeups.Pass] = []

    def worker() -> None:
        passes.append(wakeups.work_due(db, SETTINGS, due))

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(len(p.reports) for p in passes) == 6
    assert not any(p.failed for p in passes)
    with db.session() as s:
        assert sorted(s.scalars(select(Turn.game_id))) == sorted(games)
        per_game = s.execute(select(OutboundMail.game_id, func.count(OutboundMail.id))
                             .group_by(OutboundMail.game_id)).all()
        assert len({n for _, n in per_game}) == 1  # one set of bulletins each


def test_a_failing_row_stays_open_and_the_others_go_on(db: Database,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    bad, good = new_game(db, name="bad"), new_game(db, name="good")
    for gid in (bad, good):
        all_orders(db, gid)
    with db.session() as s:
        due = s.get(Game, bad).deadline + timedelta(minutes=1)
    real = wakeups.process

    def process(session, game, now, settings):  # noqa: ANN001, ANN202
        if game.id == bad:
            raise RuntimeError("broken game")
        return real(session, game, now, settings)

    monkeypatch.setattr(wakeups, "process", process)
    done = wakeups.work_due(db, SETTINGS, due)
    assert [r.action for r in done.reports] == ["adjudicated"]
    assert len(done.failed) == 1
    with db.session() as s:
        row = s.get(Deadline, done.failed[0])
        assert (row.game_id, row.kind, row.done) == (bad, "process", False)
        assert s.get(Game, bad).phase == "S1901M"


def test_the_pool_of_judge_serve_adjudicates_in_worker_processes(db: Database) -> None:
    gid = new_game(db)
    all_orders(db, gid)
    with db.session() as s:
        due = s.get(Game, gid).deadline + timedelta(minutes=1)
    url = db.engine.url.render_as_string(hide_password=False)
    pool = TurnPool(dataclasses.replace(SETTINGS, database_url=url), workers=1)
    try:
        done = as_pass(pool.submit(due, []).result(timeout=120))
    finally:
        pool.shutdown()
    assert done.handled >= 1 and not done.failed
    with db.session() as s:
        assert s.get(Game, gid).phase == "F1901M"
