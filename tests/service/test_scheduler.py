"""The APScheduler wake-up: armed from the deadline table, catching up at start."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import func, select

from judge.scheduler import WAKE_JOB, DeadlineScheduler
from judge.storage import Database
from judge.storage.models import Game, Turn
from tests.service.games import SETTINGS, START, new_game, send
from tests.service.sample_game import SPRING_1901


async def wait_for_turns(db: Database, count: int) -> int:
    found = 0
    for _ in range(400):
        with db.session() as s:
            found = s.scalar(select(func.count(Turn.id))) or 0
        if found >= count:
            break
        await asyncio.sleep(0.05)
    return found


async def test_deadline_missed_while_down_is_processed_at_start(db: Database) -> None:
    gid = new_game(db)
    for power, given in SPRING_1901.items():
        send(db, gid, power, given, START)
    with db.session() as s:
        deadline = s.get(Game, gid).deadline
    # the judge comes back two days after the deadline
    clock = deadline + timedelta(days=2)
    woke: list[bool] = []
    scheduler = DeadlineScheduler(db, SETTINGS, now=lambda: clock,
                                  on_work=lambda: woke.append(True), sweep_seconds=3600)
    scheduler.start()
    try:
        assert await wait_for_turns(db, 1) == 1
        for _ in range(100):
            if woke:
                break
            await asyncio.sleep(0.05)
        assert woke  # the outbox was told bulletins are waiting
        with db.session() as s:
            game = s.get(Game, gid)
            assert game.phase == "F1901M"
            next_deadline = game.deadline
        # re-armed at the next open row of the table (the reminder before the new deadline)
        for _ in range(100):
            if scheduler.armed_for != clock:
                break
            await asyncio.sleep(0.05)
        assert scheduler.armed_for == next_deadline - timedelta(hours=24)
        assert scheduler.scheduler.get_job(WAKE_JOB) is not None
    finally:
        scheduler.shutdown()


def test_judge_serve_runs_the_scheduler() -> None:
    from judge import scheduler
    from judge.app import discover_components

    assert scheduler.run in discover_components(("judge.scheduler:run",))
