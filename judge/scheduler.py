"""Deadlines on the clock: the one place that imports APScheduler (3.x, AsyncIOScheduler).

The database is the source of truth: the scheduler holds a single date job armed at the
earliest open ``deadline`` row, and re-reads the table after every wake-up. At start the job
fires at once, so deadlines missed while the judge was down are processed immediately.

Early processing needs no scan: a mail that may complete a game's orders adds an ``early``
row due at once (``judge.service.deadlines.look_now``) and, after its commit, the inbox drain
pokes the scheduler (``poke``). The periodic sweep (a ``judge.runner.Runner``,
``DeadlineRunner``) is one query, the earliest open row, re-arming the job when it is earlier
than armed: a GM moved a deadline, or another judge node queued work and died before doing it.

The work itself is a pool of processes (``judge.turnpool``; without one, a worker thread, as in
the tests): each worker claims due rows with ``FOR UPDATE SKIP LOCKED``, so the workers of
every node on one PostgreSQL database share the rows with no coordinator.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from judge.runner import Runner
from judge.service import rendering, wakeups
from judge.service.deadlines import earliest_open
from judge.settings import Settings
from judge.storage import Database
from judge.turnpool import TurnPool, as_pass, workers_for

log = logging.getLogger(__name__)

WAKE_JOB = "deadline-wake"
SWEEP_JOB = "early-sweep"
DEFAULT_SWEEP_SECONDS = 30.0
MAX_PASSES = 5  # passes in a row while rows keep falling due
RETRY_FAILED = timedelta(minutes=1)
# due rows that no worker of ours could claim belong to another node's turn in progress
HELD_RETRY = timedelta(seconds=2)


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
        pool: TurnPool | None = None,
    ) -> None:
        self.db = db
        self.settings = settings
        self.now = now
        self.on_work = on_work  # e.g. wake the outbox sender: bulletins are waiting
        self.sweep_seconds = float(sweep_seconds or settings.scheduler_sweep_seconds)
        self.pool = pool
        self.scheduler = AsyncIOScheduler(
            timezone=UTC,
            # a late wake-up still runs (misfire None); several missed fire times run once
            job_defaults={"coalesce": True, "misfire_grace_time": None, "max_instances": 1},
        )
        self.wakeups = 0
        self.handled = 0  # rows handled (turns, reminders, early looks)
        self.armed_for: datetime | None = None  # when the wake-up job fires, judge's clock
        self._lock = asyncio.Lock()
        self._poked = False
        self._stopped = False

    def start(self, sweep_job: bool = True) -> None:
        """Start the wake-up job; ``sweep_job``: also sweep on an APScheduler interval job
        (``judge serve`` sweeps from a ``DeadlineRunner`` instead)."""
        self.scheduler.start()
        self.arm(self.now())  # catch up with whatever fell due while the judge was down
        if sweep_job:
            self.scheduler.add_job(self._sweep, "interval", seconds=self.sweep_seconds,
                                   id=SWEEP_JOB, replace_existing=True)

    def shutdown(self) -> None:
        # AsyncIOScheduler stops in a loop callback: "running" stays true until it has run
        if self.scheduler.running and not self._stopped:
            self._stopped = True
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

    def poke(self) -> None:
        """Something may be due now (a mail added an early row): wake at once. During a
        wake-up, its loop makes one more pass instead."""
        self._poked = True
        if not self._lock.locked() and self.scheduler.running:
            self.arm(self.now())

    def next_wake(self) -> datetime | None:
        job = self.scheduler.get_job(WAKE_JOB)
        return job.next_run_time if job is not None else None

    async def _wake(self) -> None:
        async with self._lock:
            skip: set[int] = set()
            next_at: datetime | None = None
            for _ in range(MAX_PASSES):
                self._poked = False
                handled = await self._work(self.now(), skip)
                self.wakeups += 1
                next_at = await asyncio.to_thread(wakeups.next_wake, self.db)
                # something fell due while we worked: go on here, since re-arming the job
                # from inside itself would be skipped (one instance at a time)
                if (next_at is None or next_at > self.now()) and not self._poked:
                    break
                if handled == 0 and not self._poked:
                    # what is due failed (logged; tried a little later) or is another
                    # node's turn in progress (it will be done in a moment)
                    next_at = self.now() + (RETRY_FAILED if skip else HELD_RETRY)
                    break
            else:
                next_at = self.now() + HELD_RETRY
            if next_at is not None:
                self.arm(next_at)

    async def _work(self, now: datetime, skip: set[int]) -> int:
        """Passes over the due rows until none is left; returns how many were handled."""
        if self.pool is None:
            done = await asyncio.to_thread(wakeups.work_due, self.db, self.settings, now,
                                           skip=sorted(skip))
            skip.update(done.failed)
            self.handled += done.handled
            if done.handled:
                self.on_work()
            return done.handled
        first = await asyncio.to_thread(wakeups.next_wake, self.db)
        if first is None or first > now:
            return 0  # nothing due: no round trip through the pool
        handled = 0
        more = True
        while more:
            # each round at the clock's time: rows that fell due meanwhile (early looks
            # queued by mail during a long storm) join it
            at = max(now, self.now())
            futures = [asyncio.wrap_future(self.pool.submit(at, sorted(skip)))
                       for _ in range(self.pool.workers)]
            more = False
            for future in asyncio.as_completed(futures):
                done = as_pass(await future)
                skip.update(done.failed)
                handled += done.handled
                more = more or done.more
                if done.handled:
                    self.on_work()  # the outbox sends these bulletins while workers go on
        self.handled += handled
        return handled

    async def _sweep(self) -> None:
        """Re-arm from the table (one query) in case a deadline moved or is newly due; render
        the bulletins a dead node left committed but unrendered (older than one sweep: a
        live node renders its own at once), so they wait a sweep, not the inbox's."""
        older = datetime.now(UTC) - timedelta(seconds=self.sweep_seconds)
        try:
            await asyncio.to_thread(rendering.render_pending, self.db, self.settings, 100, older)
        except Exception:
            log.exception("rendering left-over bulletins failed; tried again at the next sweep")
        next_at = await asyncio.to_thread(self._earliest)
        job = self.scheduler.get_job(WAKE_JOB)
        if next_at is not None and (job is None or self.armed_for is None
                                    or next_at < self.armed_for) and not self._lock.locked():
            self.arm(next_at)

    def _earliest(self) -> datetime | None:
        with self.db.reading() as session:
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
    pool = None
    if app.settings.turn_workers >= 0:
        pool = TurnPool(app.settings, workers_for(app.settings, app.db))
        await asyncio.gather(*(asyncio.wrap_future(f) for f in pool.warm()))
    scheduler = DeadlineScheduler(app.db, app.settings, now=app.now, on_work=app.wake_outbox,
                                  pool=pool)
    scheduler.start(sweep_job=False)
    if hasattr(app, "deadline_pokes"):
        app.deadline_pokes.append(scheduler.poke)
    log.info("deadline scheduler started (%s turn worker process(es)); next wake-up %s",
             pool.workers if pool else "no", scheduler.next_wake())
    runner = DeadlineRunner(scheduler, app.stopping)
    try:
        # the first sweep one interval after the start (the wake-up job catches up at once)
        await runner.snooze(scheduler.sweep_seconds)
        await runner.run()
    finally:
        scheduler.shutdown()
        # the turns in hand commit; waits in a thread, the listeners still answer meanwhile
        if pool is not None:
            await asyncio.to_thread(pool.shutdown)
