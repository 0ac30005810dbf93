"""The outbox runner: the policy of sending (what is due, retries, dead letters, "sent").

Each message is marked sent in a transaction of its own right after the relay's 250, so a
crash re-sends at most the message in flight (with its stored Message-ID, which receivers
can recognise). When that mark cannot be written (disk full, database down) sending stops:
the runner keeps the ids accepted but not yet recorded, and its next rounds only try to
record them, so nothing is sent again while the process lives. A refusal counts a try and
the row waits with an exponential backoff, jittered; after ``max_send_tries``, or at once on
a 5xx, the row is dead. A row whose message cannot even be built is dead at its first try,
with a log line. Rows are carried by a ``Transport`` (``judge.mail.transport``: SMTP to the
relay; ``judge.mail.maildir``: files in a Maildir).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from judge.mail.maildir import MaildirTransport
from judge.mail.sender import (
    Parts,
    blob_refs,
    build_message,
    fast_message_bytes,
    message_bytes,
    shared_message_bytes,
)
from judge.mail.transport import SendFailure, SmtpTransport, Transport
from judge.runner import Runner
from judge.service.verp import verp_address
from judge.settings import Settings
from judge.storage import Database, Session
from judge.storage.blobrepo import blobs
from judge.storage.claimrepo import claim_due_outbound
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


def default_transports(settings: Settings) -> list[Transport]:
    """The configured way out: a Maildir (``outbox_maildir``: no MTA needed), else parallel
    SMTP lanes, each one message in flight at a time (1 by default: a crash then re-sends at
    most one message)."""
    if settings.outbox_maildir:
        return [MaildirTransport(settings.outbox_maildir)]
    return [SmtpTransport(settings) for _ in range(max(1, settings.smtp_connections))]


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
        self.transports: list[Transport] = list(transports) if transports else \
            default_transports(settings)
        self.on_dead = on_dead
        # accepted by the relay, "sent" not yet recorded: (id, when) — recorded before
        # anything else is sent
        self.unrecorded: list[tuple[int, datetime]] = []
        self._recording = asyncio.Lock()
        self.blobs: dict[str, bytes] = {}  # the blobs the rows of this round reference
        # the MIME bodies of the messages with attachments being sent (a phase's map and
        # results, the same for every player): built once, see sender.shared_message_bytes
        self.parts: Parts = {}
        # PostgreSQL: rows are claimed one at a time (several judges may share the outbox)
        self.claiming = not db.is_sqlite

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

    def _claim_next(self) -> tuple[Any, Any] | None:
        """A session holding the next due row (its transaction stays open), or None."""
        session = self.db.open_session()
        try:
            rows = claim_due_outbound(session, self.now())
        except BaseException:
            session.close()
            raise
        if not rows:
            session.rollback()
            session.close()
            return None
        # the blob (a phase's map) this row references, read in the claim's transaction; the
        # round's dict is emptied when the round starts, so it holds one round's maps at most
        missing = blob_refs(rows) - self.blobs.keys()
        if missing:  # read once a round, not once per recipient
            self.blobs.update(blobs(session, missing))
        return session, rows[0]

    @staticmethod
    def _commit_sent(session: Session, row_id: int, when: datetime) -> None:
        mark_outbound_sent(session, [row_id], when)
        session.commit()

    @staticmethod
    def _end_claim(session: Session) -> None:
        session.rollback()  # a no-op after the commit; releases the row otherwise
        session.close()

    def _record_failure(self, row: Any, error: str, permanent: bool,
                        claim: Any = None) -> None:
        if claim is not None:
            self._write_failure(claim, row, error, permanent)
            claim.commit()
            return
        with self.db.session() as session:
            self._write_failure(session, row, error, permanent)

    def _write_failure(self, session: Session, row: Any, error: str, permanent: bool) -> None:
        tries = row.tries + 1
        dead = permanent or tries >= self.settings.max_send_tries
        values: dict[str, object] = {"tries": tries, "last_error": error[:2000]}
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
        if self.claiming:
            if await self._send_claimed():
                return 0
            nxt = await asyncio.to_thread(self._next_due)
            if nxt is None:
                return None
            return max(0.0, min(self.poll_seconds, (nxt - self.now()).total_seconds()))
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
        if self.claiming:
            return await self._send_claimed()
        rows, _ = await asyncio.to_thread(self._due_or_next)
        return await self._send_rows(rows)

    def _next_due(self) -> datetime | None:
        with self.db.reading() as session:
            return next_due_time(session)

    async def _send_claimed(self) -> int:
        """Every lane claims and sends rows one at a time, up to a round's worth in all."""
        self.blobs = {}
        counts = await asyncio.gather(
            *(self._claiming_lane(t, ROUND_ROWS // len(self.transports) or 1)
              for t in self.transports), return_exceptions=True)
        sent = 0
        for count in counts:
            if isinstance(count, BaseException):
                raise count
            sent += count
        return sent

    async def _claiming_lane(self, transport: Transport, limit: int) -> int:
        sent = 0
        while sent < limit and not self.unrecorded and not (sent and self.stopping.is_set()):
            claim = await asyncio.to_thread(self._claim_next)
            if claim is None:
                break
            session, row = claim
            try:
                outcome = await self._send_one(transport, row, session)
            finally:
                await asyncio.to_thread(self._end_claim, session)
            if outcome is None:
                break  # the relay is unreachable: this lane waits
            sent += outcome
        return sent

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

    async def _send_one(self, transport: Transport, row: Any, claim: Any = None) -> int | None:
        """1 when sent and recorded, 0 when refused or unbuildable (recorded), None when the
        relay could not be reached (recorded for this row). ``claim``: the session holding
        the row (PostgreSQL), in which its outcome is recorded and committed."""

        def build(eight_bit: bool) -> bytes:
            try:
                data = fast_message_bytes(row, self.settings, eight_bit)
                if data is None:
                    data = shared_message_bytes(row, self.settings, self.blobs, self.parts)
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
            await asyncio.to_thread(self._record_failure, row, f"bad message: {exc}", True,
                                    claim)
            return 0
        except SendFailure as exc:
            await asyncio.to_thread(self._record_failure, row, exc.text, exc.permanent, claim)
            return None if exc.text.startswith(("relay unreachable", "connection lost")) else 0
        when = self.now()
        if claim is not None:
            try:
                await asyncio.to_thread(self._commit_sent, claim, row.id, when)
            except Exception:
                # kept, recorded before anything else is sent (this raises: sending stops)
                self.unrecorded.append((row.id, when))
                raise
            return 1
        self.unrecorded.append((row.id, when))
        # its own commit, right after the 250; if it fails, this raises and sending stops
        await self._flush_unrecorded()
        return 1

    async def finish(self) -> None:
        await self.close()

    async def close(self) -> None:
        for transport in self.transports:
            await transport.close()
