"""The turn pool: worker processes that adjudicate due games, one core each.

A turn is CPU work (adjudication, bulletins, the map), so threads of one process would share
one core through the GIL and slow the mail listeners' event loop too. The pool is a
``concurrent.futures.ProcessPoolExecutor`` started with the ``spawn`` context (a fresh
interpreter: no copy of the parent's engine, sockets or event loop), each worker with an
engine of its own. A task is one pass of ``judge.service.wakeups.work_due``: the worker claims
due deadline rows one transaction at a time (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so the
workers of every judge node share them) until none is left or its time budget is spent, and
returns what it did; the scheduler then wakes the outbox and hands out the next passes.

On SQLite, the database has one writer at a time: one worker, pausing every few turns so
mail intake gets the write lock (SQLite's busy handler polls; see ``SQLITE_PAUSE``).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from datetime import datetime

from judge.logfilter import quiet_chatter
from judge.maps.composite import warm
from judge.service.wakeups import Pass, work_due
from judge.settings import Settings
from judge.storage import Database

log = logging.getLogger(__name__)

# seconds a worker works before reporting back (the outbox then sends what it queued)
PASS_BUDGET = 2.0
# SQLite: sleep between turn transactions. The busy handler of a waiting writer (the mail
# intake, in the serving process) sleeps in steps of up to 100 ms; a gap this long lets it in.
SQLITE_PAUSE = 0.11
# ... once this many seconds of turns have passed since the last pause: a turn takes a few
# tens of milliseconds, so a pause after each left the worker asleep two thirds of a storm;
# a mail waits at most this (and the turn in hand) for the lock
SQLITE_BURST = 0.3

_db: Database | None = None
_settings: Settings | None = None


def workers_for(settings: Settings, db: Database) -> int:
    """How many worker processes: the setting, else one per core (one on SQLite)."""
    if settings.turn_workers > 0:
        return 1 if db.is_sqlite else settings.turn_workers
    return 1 if db.is_sqlite else max(1, os.cpu_count() or 1)


def _watch_parent(parent: int) -> None:
    """End this worker once the judge that started it is gone. A SIGKILLed judge never tells
    its workers, and a spawned worker holds both ends of its own task pipe, so it would wait
    for tasks forever (with a database connection open). Its turn in hand, if any, is rolled
    back with the connection, as a killed judge's own is."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


def _init(settings: Settings, parent: int) -> None:
    global _db, _settings
    if os.getppid() != parent:
        os._exit(0)  # the judge died while this worker was starting
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True,
                     name="judge-parent-watch").start()
    logging.basicConfig(level=getattr(logging, settings.log_level.upper(), logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s[%(process)d]: %(message)s")
    quiet_chatter(settings.log_level)
    _settings = settings
    _db = Database(settings.database_url)
    # the mail map's cached layers, drawn before the first deadline rather than in it
    warm()


def _pass(now: datetime, skip: list[int], budget: float) -> tuple[int, list[int], bool]:
    assert _db is not None and _settings is not None, "worker not initialised"
    done = work_due(_db, _settings, now, budget=budget, skip=skip,
                    pause=SQLITE_PAUSE if _db.is_sqlite else 0.0, pause_after=SQLITE_BURST)
    return done.handled, done.failed, done.more


def _ready() -> int:
    return os.getpid()


class TurnPool:
    def __init__(self, settings: Settings, workers: int) -> None:
        self.workers = workers
        self.executor = ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=_init, initargs=(settings, os.getpid()))

    def warm(self) -> list[Future[int]]:
        """Start every worker now (a spawned interpreter takes a second to import the judge)."""
        return [self.executor.submit(_ready) for _ in range(self.workers)]

    def submit(self, now: datetime, skip: list[int], budget: float = PASS_BUDGET,
               ) -> Future[tuple[int, list[int], bool]]:
        return self.executor.submit(_pass, now, skip, budget)

    def shutdown(self) -> None:
        # the turn in hand commits or rolls back; a killed worker's claim is released
        self.executor.shutdown(wait=True, cancel_futures=True)


def as_pass(result: tuple[int, list[int], bool]) -> Pass:
    handled, failed, more = result
    return Pass(handled=handled, failed=failed, more=more)
