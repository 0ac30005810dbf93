"""The outbox runner: the policy of sending (what is due, retries, dead letters, "sent").

Each message is marked sent in a transaction of its own right after the relay's 250, so a
crash re-sends at most the message in flight (with its stored Message-ID, which receivers
can recognise). When that mark cannot be written (disk full, database down) sending stops:
the runner keeps the ids accepted but not yet recorded, and its next rounds only try to
record them, so nothing is sent again while the process lives. A refusal counts a try and
the row waits with an exponential backoff, jittered; after ``max_send_tries``, or at once on
a 5xx, the row is dead. A row whose message cannot even be built is dead at its first try,
with a log line. Rows are carried by a ``Transport`` (``judge.mail.transport``).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from judge.mail.sender import blob_refs, build_message, fast_message_bytes, message_bytes
from judge.mail.transport import SendFailure, SmtpTransport, Transport
from judge.runner import Runner
from judge.service.verp import verp_address
from judge.settings import Settings
from judge.storage import Database
from judge.storage.blobrepo import blobs
from judge.storage.mailrepo import (
    due_outbound_rows,
    mark_outbound,
    mark_outbound_sent,
    next_due_time,
    retry_backoff,
)

log = logging.getLogger(__name__)

# rows read per round; each is still sent and recorded one at a time
ROUND_ROWS = 200

# called in the transaction that makes a row dead: (session, row, error)
DeadHook = Callable[[Any, Any, str], None]


class Unbuildable(Exception):
    """The row's message could not be built: it never will be."""


def jittered(delay: timedelta) -> timedelta:
    """Between half and all of ``delay``: rows refused together do not come back together."""
    return delay * random.uniform(0.5, 1.0)


class OutboxRunner(Runner):
    name = "outbox"

    def __init__(
        self,
        db: Database,
        settings: Settings,
        stopping: asyncio.Event | None = None,
        wake: asyncio.Event | None = None,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        transports: Sequence[Transport] | None = None,
        on_dead: DeadHook | None = None,
    ) -> None:
        super().__init__(stopping or asyncio.Event(), wake, poll_seconds=settings.drain_poll_seconds,
                         backoff_max=settings.retry_max_seconds)
        self.db = db
        self.settings = settings
        self.now = now
        # parallel lanes, each one message in flight at a time (1 by default: a crash then
        # re-sends at most one message)
        self.transports: list[Transport] = list(transports) if transports else [
            SmtpTransport(settings) for _ in range(max(1, settings.smtp_connections))]
        self.on_dead = on_dead
        # accepted by the relay, "sent" not yet recorded: (id, when) — recorded before
        # anything else is sent
        self.unrecorded: list[tuple[int, datetime]] = []
        self._recording = asyncio.Lock()
        self.blobs: dict[str, bytes] = {}  # the blobs the rows of this round reference

    # --- the database side, each call one transaction (run in a worker thread) -------------

    def _due_or_next(self) -> tuple[list[Any], datetime | None]:
        with self.db.session() as session:
            rows = due_outbound_rows(session, self.now(), limit=ROUND_ROWS)
            # each referenced blob (a phase's map) read once for all the rows carrying it
            self.blobs = blobs(session, blob_refs(rows))
            return rows, (None if rows else next_due_time(session))

    def _record_sent(self, pending: list[tuple[int, datetime]]) -> None:
        with self.db.session() as session:
            for row_id, when in pending:
                mark_outbound_sent(session, [row_id], when)

    def _record_failure(self, row: Any, error: str, permanent: bool) -> None:
        tries = row.tries + 1
        dead = permanent or tries >= self.settings.max_send_tries
        values: dict[str, object] = {"tries": tries, "last_error": error[:2000]}
        with self.db.session() as session:
            if dead:
                values["status"] = "dead"
                log.error("outbound %d to %s dead after %d tries: %s", row.id, row.to_addr,
                          tries, error)
            else:
                delay = jittered(retry_backoff(tries, self.settings.retry_base_seconds,
                                               self.settings.retry_max_seconds))
                values["next_attempt_at"] = self.now() + delay
                log.warning("outbound %d to %s: %s; retry in %.0fs", row.id, row.to_addr,
                            error, delay.total_seconds())
            mark_outbound(session, row.id, **values)
            if dead and self.on_dead is not None:
                self.on_dead(session, row, error)

    # --- one round -----------------------------------------------------------------------

    async def one_round(self) -> float | None:
        if self.unrecorded:
            await self._flush_unrecorded()
        rows, nxt = await asyncio.to_thread(self._due_or_next)
        if rows:
            await self._send_rows(rows)
            return 0
        if nxt is None:
            return None
        return max(0.0, min(self.poll_seconds, (nxt - self.now()).total_seconds()))

    async def send_due(self) -> int:
        """One round's sending, for callers outside ``run``: returns how many the relay took."""
        if self.unrecorded:
            await self._flush_unrecorded()
        rows, _ = await asyncio.to_thread(self._due_or_next)
        return await self._send_rows(rows)

    async def _flush_unrecorded(self) -> None:
        async with self._recording:
            pending = list(self.unrecorded)
            if pending:
                # raises when it cannot be written: sending stays stopped
                await asyncio.to_thread(self._record_sent, pending)
                del self.unrecorded[:len(pending)]

    async def _send_rows(self, rows: list[Any]) -> int:
        lanes = self.transports[:max(1, min(len(self.transports), len(rows)))]
        counts = await asyncio.gather(
            *(self._lane(transport, rows[i::len(lanes)]) for i, transport in enumerate(lanes)),
            return_exceptions=True)
        sent = 0
        for count in counts:
            if isinstance(count, BaseException):
                raise count
            sent += count
        return sent

    async def _lane(self, transport: Transport, rows: list[Any]) -> int:
        sent = 0
        for row in rows:
            if self.unrecorded or (sent and self.stopping.is_set()):
                break  # a mark could not be written (another lane), or the judge stops
            outcome = await self._send_one(transport, row)
            if outcome is None:
                break  # the relay is unreachable: the rest of this lane waits
            sent += outcome
        return sent

    async def _send_one(self, transport: Transport, row: Any) -> int | None:
        """1 when sent and recorded, 0 when refused or unbuildable (recorded), None when the
        relay could not be reached (recorded for this row)."""

        def build(eight_bit: bool) -> bytes:
            try:
                data = fast_message_bytes(row, self.settings, eight_bit)
                if data is None:
                    data = message_bytes(build_message(row, self.settings, eight_bit,
                                                       self.blobs))
                return data
            except Exception as exc:
                raise Unbuildable(repr(exc)) from exc

        mail_from = (verp_address(self.settings.address, row.id, row.message_id)
                     if self.settings.verp else self.settings.address)
        try:
            await transport.send(mail_from, row.to_addr, build)
        except Unbuildable as exc:
            log.error("outbound %d to %r cannot be built, dead-lettered: %s", row.id,
                      row.to_addr, exc)
            await asyncio.to_thread(self._record_failure, row, f"bad message: {exc}", True)
            return 0
        except SendFailure as exc:
            await asyncio.to_thread(self._record_failure, row, exc.text, exc.permanent)
            return None if exc.text.startswith(("relay unreachable", "connection lost")) else 0
        when = self.now()
        self.unrecorded.append((row.id, when))
        # its own commit, right after the 250; if it fails, this raises and sending stops
        await self._flush_unrecorded()
        return 1

    async def finish(self) -> None:
        await self.close()

    async def close(self) -> None:
        for transport in self.transports:
            await transport.close()
