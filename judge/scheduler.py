"""Deadlines on the clock: the one place that imports APScheduler (3.x, AsyncIOScheduler).

The database is the source of truth: the scheduler holds a single date job armed at the
earliest open ``deadline`` row, and re-reads the table after every wake-up. At start the job
fires at once, so deadlines missed while the judge was down are processed immediately. A
periodic sweep re-arms the job (a GM may have moved a deadline by mail) and processes games
whose orders are all in before their deadline; the sweep is a ``judge.runner.Runner``
(``DeadlineRunner``), like the judge's other loops, so it stops, backs off after an error
and logs the same way; APScheduler keeps the exact-time wake-up.

The work itself (``judge.service.wakeups.wake``) is synchronous database code: it runs in a
worker thread so the mail listeners keep answering meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from judge.runner import Runner
from judge.service import wakeups
from judge.service.deadlines import earliest_open
from judge.settings import Settings
from judge.storage import Database

log = logging.getLogger(__name__)

WAKE_JOB = "deadline-wake"
SWEEP_JOB = "early-sweep"
DEFAULT_SWEEP_SECONDS = 30.0
MAX_PASSES = 5  # wake-ups in a row while rows keep falling due
RETRY_FAILED = timedelta(minutes=1)


def utcnow() -> datetime:
    return datetime.now(UTC)


class DeadlineScheduler:
    def __init__(
        self,
        db: Database,
        settings: Settings,
        now: Callable[[], datetime] = utcnow,
        on_work: Callable[[], None] = lambda: None,
        sweep_seconds: float | None = None,
    ) -> None:
        self.db = db
        self.settings = settings
        self.now = now
        self.on_work = on_work  # e.g. wake the outbox sender: bulletins are waiting
        self.sweep_seconds = float(sweep_seconds or settings.scheduler_sweep_seconds)
        self.scheduler = AsyncIOScheduler(
            timezone=UTC,
            # a late wake-up still runs (misfire None); several missed fire times run once
            job_defaults={"coalesce": True, "misfire_grace_time": None, "max_instances": 1},
        )
        self.wakeups = 0
        self.armed_for: datetime | None = None  # when the wake-up job fires, judge's clock
        self._lock = asyncio.Lock()

    def start(self, sweep_job: bool = True) -> None:
        """Start the wake-up job; ``sweep_job``: also sweep on an APScheduler interval job
        (``judge serve`` sweeps from a ``DeadlineRunner`` instead)."""
        self.scheduler.start()
        self.arm(self.now())  # catch up with whatever fell due while the judge was down
        if sweep_job:
            self.scheduler.add_job(self._sweep, "interval", seconds=self.sweep_seconds,
                                   id=SWEEP_JOB, replace_existing=True)

    def shutdown(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)

    def arm(self, when: datetime) -> None:
        """(Re)place the single wake-up job at ``when`` on the judge's clock.

        APScheduler counts on the wall clock; the judge's ``now`` may be another clock (tests
        drive it by hand), so the job is placed the same distance away on the wall clock.
        """
        delay = max(when - self.now(), timedelta(0))
        self.armed_for = max(when, self.now())
        self.scheduler.add_job(self._wake, "date", run_date=utcnow() + delay, id=WAKE_JOB,
                               replace_existing=True)

    def next_wake(self) -> datetime | None:
        job = self.scheduler.get_job(WAKE_JOB)
        return job.next_run_time if job is not None else None

    async def _wake(self) -> None:
        async with self._lock:
            next_at: datetime | None = None
            for _ in range(MAX_PASSES):
                next_at = await asyncio.to_thread(wakeups.wake, self.db, self.settings,
                                                  self.now())
                self.wakeups += 1
                self.on_work()
                # something fell due while we worked: go on here, since re-arming the job
                # from inside itself would be skipped (one instance at a time)
                if next_at is None or next_at > self.now():
                    break
            else:
                # a row keeps failing (logged by wakeups): try it again a little later
                next_at = self.now() + RETRY_FAILED
            if next_at is not None:
                self.arm(next_at)

    async def _sweep(self) -> None:
        """Early processing, and re-arming from the table in case a deadline moved."""
        async with self._lock:
            reports = await asyncio.to_thread(wakeups.sweep_early, self.db, self.settings,
                                              self.now())
            if reports:
                self.on_work()
            next_at = await asyncio.to_thread(self._earliest)
        job = self.scheduler.get_job(WAKE_JOB)
        if next_at is not None and (job is None or self.armed_for is None
                                    or next_at < self.armed_for):
            self.arm(next_at)

    def _earliest(self) -> datetime | None:
        with self.db.session() as session:
            return earliest_open(session)


class DeadlineRunner(Runner):
    """The periodic sweep of the deadline scheduler as a runner."""

    name = "deadlines"

    def __init__(self, scheduler: DeadlineScheduler, stopping: asyncio.Event) -> None:
        super().__init__(stopping, poll_seconds=scheduler.sweep_seconds)
        self.scheduler = scheduler

    async def one_round(self) -> float | None:
        await self.scheduler._sweep()
        return None

    async def finish(self) -> None:
        self.scheduler.shutdown()


async def run(app: Any) -> None:
    """The ``judge serve`` component: runs until ``app.stopping`` is set."""
    scheduler = DeadlineScheduler(app.db, app.settings, now=app.now, on_work=app.wake_outbox)
    scheduler.start(sweep_job=False)
    log.info("deadline scheduler started; next wake-up %s", scheduler.next_wake())
    runner = DeadlineRunner(scheduler, app.stopping)
    try:
        # the first sweep one interval after the start (the wake-up job catches up at once)
        await runner.snooze(scheduler.sweep_seconds)
        await runner.run()
    finally:
        scheduler.shutdown()
