"""One base for the judge's long-running loops (inbox drain, outbox, IMAP poller, deadlines).

Modelled on Mailman 3's ``Runner``: a loop of "one round of work, then snooze", that stops
between rounds once ``stopping`` is set, so the work in hand is always finished. What each
loop does is its ``one_round()``; the base owns the waiting (a wake event, the stop event, a
timeout), the backoff after an error and the logging of errors (rate-limited: a database that
stays down logs one traceback, then one line per backoff step, not one per round).

``one_round()`` returns how long to snooze before the next round: 0 means "more work is
waiting, go on at once", None means "nothing to do, wait for a wake or the poll interval".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random

log = logging.getLogger(__name__)


class Runner:
    """Subclasses implement ``one_round``; ``run`` loops until ``stopping`` is set."""

    #: the name in log lines, and what it does after an error ("reconnecting" for a client)
    name = "runner"
    retry_word = "retrying"

    def __init__(
        self,
        stopping: asyncio.Event,
        wake: asyncio.Event | None = None,
        poll_seconds: float = 5.0,
        backoff_first: float = 0.5,
        backoff_max: float = 60.0,
    ) -> None:
        self.stopping = stopping
        self.wake = wake if wake is not None else asyncio.Event()
        self.poll_seconds = poll_seconds
        self.backoff_first = backoff_first
        self.backoff_max = backoff_max
        self.errors = 0  # rounds in a row that raised
        self.rounds = 0

    async def one_round(self) -> float | None:
        """Do one round of work; returns seconds to snooze (0: go on, None: poll interval)."""
        raise NotImplementedError

    async def on_error(self, exc: Exception) -> None:
        """Called after a round raised (before the backoff snooze): drop connections etc."""

    async def finish(self) -> None:
        """Called once when the loop ends (stop or cancel): close what the runner holds."""

    def backoff(self) -> float:
        """The snooze after ``self.errors`` failed rounds in a row: doubling, capped, with
        jitter (between half and all of it) so that several judges, or several runners
        over one failing database, do not retry in step."""
        step = min(self.backoff_max, self.backoff_first * (2 ** max(0, self.errors - 1)))
        return step * random.uniform(0.5, 1.0)

    async def run(self) -> None:
        try:
            while not self.stopping.is_set():
                # cleared before looking, so a wake during the round is not lost
                self.wake.clear()
                try:
                    delay = await self.one_round()
                    self.rounds += 1
                    self.errors = 0
                except Exception as exc:
                    self.errors += 1
                    delay = self.backoff()
                    if self.errors == 1:
                        log.exception("%s: round failed; %s in %.1fs", self.name,
                                      self.retry_word, delay)
                    else:
                        log.warning("%s: round failed again (%d in a row: %r); %s in %.1fs",
                                    self.name, self.errors, exc, self.retry_word, delay)
                    await self.on_error(exc)
                    await self.snooze(delay, wakeable=False)
                    continue
                if delay is None:
                    delay = self.poll_seconds
                if delay > 0:
                    await self.snooze(delay)
        finally:
            await self.finish()

    async def snooze(self, seconds: float, wakeable: bool = True) -> None:
        """Wait until ``seconds`` have passed, ``stopping`` is set or (if ``wakeable``) the
        wake event is set."""
        if self.stopping.is_set() or seconds <= 0:
            return
        waits = [asyncio.ensure_future(self.stopping.wait())]
        if wakeable:
            waits.append(asyncio.ensure_future(self.wake.wait()))
        try:
            await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in waits:
                task.cancel()
            for task in waits:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
