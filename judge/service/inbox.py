"""The inbox drain: stored mail, oldest first, each handled in ONE transaction.

The handler's state changes, its replies (outbox rows) and the inbound row turning ``done``
commit together, so a crash at any point either leaves the mail ``new`` (it is handled again
from scratch) or fully handled. A handler that raises has everything rolled back and the mail
marked ``failed`` with the traceback in a transaction of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import traceback
from collections.abc import Callable
from datetime import UTC, datetime

from judge.service import dispatch as dispatch_module
from judge.service.uow import IncomingMail, MailContext
from judge.settings import Settings
from judge.storage import Database
from judge.storage.mailrepo import mark_inbound, next_new_inbound, requeue_failed

log = logging.getLogger(__name__)

# raw bytes, envelope sender, received size, oversized flag, settings -> decoded mail.
# Injected (judge.mail.decoding.decode) because mail/ sits above service/.
Decoder = Callable[[bytes, str, int, bool, Settings], IncomingMail]
Dispatcher = Callable[[MailContext], None]


def utcnow() -> datetime:
    return datetime.now(UTC)


OVERSIZED_TEXT = (
    "Your mail was {size} bytes, more than the {cap} bytes this judge reads, so none of it was "
    "read as commands. Please send your commands as plain text without attachments.\n"
)


def handle(ctx: MailContext, dispatcher: Dispatcher) -> str | None:
    """Run one decoded mail through the guards and the dispatcher; returns a note for the log."""
    mail = ctx.mail
    if mail.loop_reason:
        log.info("inbound %s from %r: no reply (%s)", ctx.inbound_id, mail.from_addr,
                 mail.loop_reason)
        return f"no reply: {mail.loop_reason}"
    if not mail.from_addr:
        log.info("inbound %s: no sender address, nothing to answer", ctx.inbound_id)
        return "no reply: no sender address"
    if mail.oversized:
        ctx.reply(OVERSIZED_TEXT.format(size=mail.size, cap=ctx.settings.max_message_bytes))
        return "oversized"
    dispatcher(ctx)
    if ctx.dropped:
        return "reply dropped: daily reply cap"
    return None


def process_one(
    db: Database,
    settings: Settings,
    decode: Decoder,
    dispatcher: Dispatcher | None = None,
    now: Callable[[], datetime] = utcnow,
) -> int | None:
    """Handle the oldest new mail. Returns its id, or None when nothing is waiting."""
    dispatcher = dispatcher or dispatch_module.dispatch
    inbound_id: int | None = None
    try:
        with db.session() as session:
            row = next_new_inbound(session)
            if row is None:
                return None
            inbound_id = row.id
            when = now()
            mail = decode(row.raw, row.envelope_from, row.size, row.oversized, settings)
            ctx = MailContext(mail=mail, settings=settings, now=when, session=session,
                              inbound_id=inbound_id)
            note = handle(ctx, dispatcher)
            row.status, row.processed_at, row.note, row.error = "done", when, note, None
        return inbound_id
    except Exception:
        if inbound_id is None:
            raise
        error = traceback.format_exc()
        log.error("inbound %s failed; kept as failed for `judge retry-failed`:\n%s",
                  inbound_id, error)
        with db.session() as session:
            mark_inbound(session, inbound_id, "failed", now(), error=error)
        return inbound_id


def retry_failed(db: Database, ids: list[int] | None = None) -> list[int]:
    """Put failed mail back in the queue; the drain handles it again."""
    with db.session() as session:
        return requeue_failed(session, ids or [])


async def run_drain(
    db: Database,
    settings: Settings,
    decode: Decoder,
    wake: asyncio.Event,
    stopping: asyncio.Event,
    on_handled: Callable[[], None] = lambda: None,
    dispatcher: Dispatcher | None = None,
    now: Callable[[], datetime] = utcnow,
) -> None:
    """Drain until ``stopping`` is set; the mail in hand is always finished first."""
    backoff = 0.5
    while not stopping.is_set():
        wake.clear()  # before looking, so a wake during the look is not lost
        try:
            handled = await asyncio.to_thread(process_one, db, settings, decode, dispatcher, now)
            backoff = 0.5
        except Exception:
            # the database itself is failing: keep the mail stored and try again later
            log.exception("inbox drain: database error, retrying in %.1fs", backoff)
            await _sleep_until(stopping, backoff)
            backoff = min(backoff * 2, 60.0)
            continue
        if handled is not None:
            on_handled()
            continue
        waiter = asyncio.ensure_future(wake.wait())
        stopper = asyncio.ensure_future(stopping.wait())
        await asyncio.wait({waiter, stopper}, timeout=settings.drain_poll_seconds,
                           return_when=asyncio.FIRST_COMPLETED)
        for task in (waiter, stopper):
            task.cancel()


async def _sleep_until(stopping: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stopping.wait(), timeout=seconds)
