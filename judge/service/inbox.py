"""The inbox drain: stored mail, oldest first, each handled in ONE transaction.

The handler's state changes, its replies (outbox rows) and the inbound row turning ``done``
commit together, so a crash at any point either leaves the mail ``new`` (it is handled again
from scratch) or fully handled. A handler that raises has everything rolled back and the mail
marked ``failed`` with the traceback in a transaction of its own.

Under load the drain handles several waiting mails, in order, in one transaction (group
commit): all of them commit together or none does, so each mail is still all-or-nothing. If
any of them raises, the whole batch is rolled back and its mails are handled again one per
transaction, so only the mail that fails is marked failed; the redo takes what the batch
prepared (scrypt checks, order parses), so a failing mail does not make its batch's costly
work be done twice. (Rather than a savepoint per mail: that costs two statements and a flush
for every mail of every batch, where the redo costs only when a handler raises.)
"""

from __future__ import annotations

import asyncio
import logging
import time
import traceback
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from judge.i18n import N_, tr
from judge.runner import Runner
from judge.service import confirm, rendering
from judge.service import dispatch as dispatch_module
from judge.service.caller import Prepared
from judge.service.commands import reply_text
from judge.service.commands.session import MailSession
from judge.service.mail_commands import ReadMail, read_mail
from judge.service.mailtrouble import handle_bounce
from judge.service.rawmask import mask_held, mask_raw
from judge.service.uow import ANONYMOUS, IncomingMail
from judge.settings import Settings
from judge.storage import Database, Session
from judge.storage.blobrepo import prune_outbound
from judge.storage.mailrepo import (
    claim_new_inbound,
    finish_inbound,
    inbound_rows,
    insert_outbound,
    mark_inbound,
    peek_new_inbound,
    requeue_failed,
    set_inbound_raws,
)
from judge.storage.models import OutboundMail

log = logging.getLogger(__name__)

# raw bytes, envelope sender, received size, oversized flag, settings -> decoded mail.
# Injected (judge.mail.decoding.decode) because mail/ sits above service/.
Decoder = Callable[[bytes, str, int, bool, Settings], IncomingMail]
Dispatcher = Callable[[MailSession], None]


# at most this many waiting mails are handled in one transaction, for at most this long
DRAIN_BATCH = 16
BATCH_SECONDS = 0.25
# ... and prepared (decoded, scrypt, orders read) for at most this long before it begins:
# outside the write lock, but the batch's first replies wait for it
PREPARE_SECONDS = 1.0
SWEEP_SECONDS = 600.0


def utcnow() -> datetime:
    return datetime.now(UTC)


OVERSIZED_TEXT = N_(
    "Your mail was %(size)s bytes, more than the %(cap)s bytes this judge reads, so none of it "
    "was read as commands. Please send your commands as plain text without attachments.\n"
)


def handle(ctx: MailSession, dispatcher: Dispatcher) -> str | None:
    """Run one decoded mail through the guards and the dispatcher; returns a note for the log."""
    mail = ctx.mail
    if mail.envelope_to:
        bounce = handle_bounce(ctx.session, ctx.settings, ctx.now, mail.envelope_to,
                               mail.failed_recipients, mail.delayed_recipients)
        if bounce is not None:
            log.info("inbound %s: %s", ctx.inbound_id, bounce)
            return bounce
    if mail.loop_reason:
        log.info("inbound %s from %r: no reply (%s)", ctx.inbound_id, mail.from_addr,
                 mail.loop_reason)
        return f"no reply: {mail.loop_reason}"
    if not mail.from_addr:
        log.info("inbound %s: no sender address, nothing to answer", ctx.inbound_id)
        return "no reply: no sender address"
    if mail.oversized:
        lang = ctx.sender_language()
        ctx.reply(tr(lang, OVERSIZED_TEXT, size=mail.size, cap=ctx.settings.max_message_bytes),
                  lang=lang, kind=ANONYMOUS)
        return "oversized"
    dispatcher(ctx)
    if ctx.held:
        return "held until the sender confirms the address"
    if ctx.drop_note:
        return ctx.drop_note
    if ctx.dropped:
        return "reply dropped: daily reply cap"
    return None


def process_batch(
    db: Database,
    settings: Settings,
    decode: Decoder,
    dispatcher: Dispatcher | None = None,
    now: Callable[[], datetime] = utcnow,
    limit: int = 1,
    only_id: int | None = None,
    claimed: list[int] | None = None,
    stopping: Callable[[], bool] = lambda: False,
    ahead: PreparedAhead | None = None,
) -> list[int]:
    """Handle up to ``limit`` of the oldest new mails in ONE transaction; returns their ids.

    Raises when any of them fails, everything rolled back; ``claimed`` (if given) then holds
    the ids that were taken. ``process_one`` adds the failure bookkeeping for one mail.
    After the first mail, no further one is started once ``stopping()`` is true or the batch
    has run for ``BATCH_SECONDS``: those stay new.
    """
    # decode every mail, check its passwords and make its hashes (scrypt), read its orders
    # in a read-only transaction BEFORE the write transaction: on SQLite the write lock is
    # process-wide, and the slow part of a hostile mail must not run while it is held
    mails: dict[int, IncomingMail] = {}
    reads: dict[int, ReadMail] = {}  # each mail's commands, read once for all three uses
    prepared: dict[int, Prepared] = {}
    premasked: dict[int, tuple[frozenset[str], bytes]] = {}
    started = time.monotonic()
    with db.reading() as reader:
        for row in peek_new_inbound(reader, limit, only_id=only_id):
            if mails and (stopping() or time.monotonic() - started > PREPARE_SECONDS):
                break
            kept = ahead.take(row.id) if ahead is not None else None
            if kept is not None:  # prepared by an earlier round that had no time for it
                mails[row.id], reads[row.id], prepared[row.id], masked_ahead = kept
                if masked_ahead is not None:
                    premasked[row.id] = masked_ahead
                continue
            mail = mails[row.id] = decode(row.raw, row.envelope_from, row.size, row.oversized,
                                          settings)
            read = reads[row.id] = read_mail(mail.lines, settings.max_command_lines)
            prepared[row.id] = dispatch_module.prepare(reader, mail, read)
            # the raw copy masked of its passwords (the masking decodes the masked copy to
            # check that none still shows)
            if read.secrets:
                premasked[row.id] = (read.secrets, _masked(row, set(read.secrets), decode,
                                                           settings))
    try:
        handled = _handle_prepared(db, settings, decode, dispatcher, now, only_id, claimed,
                                   stopping, mails, reads, prepared, premasked)
    except Exception:
        if ahead is not None:
            # redone one per transaction (``drain_some``): without their scrypt checks and
            # order parses again, so a failing mail does not double a batch's costly work
            for inbound_id, mail in mails.items():
                ahead.keep(inbound_id, mail, reads[inbound_id], prepared[inbound_id],
                           premasked.get(inbound_id))
        raise
    if ahead is not None:
        done = set(handled)
        for inbound_id, mail in mails.items():
            if inbound_id not in done:
                ahead.keep(inbound_id, mail, reads[inbound_id], prepared[inbound_id],
                           premasked.get(inbound_id))
    return handled


def _handle_prepared(
    db: Database,
    settings: Settings,
    decode: Decoder,
    dispatcher: Dispatcher | None,
    now: Callable[[], datetime],
    only_id: int | None,
    claimed: list[int] | None,
    stopping: Callable[[], bool],
    mails: dict[int, IncomingMail],
    reads: dict[int, ReadMail],
    prepared: dict[int, Prepared],
    premasked: dict[int, tuple[frozenset[str], bytes]],
) -> list[int]:
    """``process_batch``'s write transaction: the mails prepared (and any first one that was
    not) handled in order; returns their ids."""
    with db.session() as session:
        rows = claim_new_inbound(session, max(1, len(mails)), only_id=only_id)
        if claimed is not None:
            claimed.extend(row.id for row in rows)
        outbox: list[OutboundMail] = []
        masked: list[tuple[int, bytes]] = []
        reply_counts: dict[str, int] = {}
        results: list[tuple[int, str, datetime, str | None, str | None]] = []
        started = time.monotonic()
        for row in rows:
            if results and (stopping() or time.monotonic() - started > BATCH_SECONDS
                            or row.id not in mails):
                break  # left new for the next round (which prepares it first)
            # the first mail may not have been peeked (another drain took the peeked one):
            # it is decoded here, and what it needs done under the write transaction,
            # within the same limits
            mail = mails.get(row.id) or decode(row.raw, row.envelope_from, row.size,
                                               row.oversized, settings)
            when = now()
            if row.envelope_to:
                mail = replace(mail, envelope_to=tuple(str(a) for a in row.envelope_to))
            ctx = MailSession(mail=mail, settings=settings, now=when, session=session,
                              inbound_id=row.id, outbox=outbox, reply_counts=reply_counts,
                              read=reads.get(row.id), prepared=prepared.get(row.id))
            # the dispatcher is looked up per mail, not once per round: a round that began
            # before a mail arrived (the write transaction claims it though it was not
            # peeked) must handle it with the dispatcher of the moment it is handled
            note = handle(ctx, dispatcher or dispatch_module.dispatch)
            results.append((row.id, "held" if ctx.held else "done", when, note, None))
            if ctx.held and ctx.held_mask:
                # kept until a confirmation: its passwords are replaced now, by placeholders
                # (issue 25); the confirmation carries what the handling needs of them
                masked.append((row.id, _held_masked(row, mail, ctx.held_mask, decode,
                                                    settings)))
            elif ctx.secrets and not ctx.held:
                done_ahead = premasked.get(row.id)
                masked.append((row.id, done_ahead[1] if done_ahead is not None
                               and done_ahead[0] == frozenset(ctx.secrets)
                               else _masked(row, ctx.secrets, decode, settings)))
        insert_outbound(session, outbox)
        finish_inbound(session, results)
        set_inbound_raws(session, masked)
    if masked or db.wal_dirty:
        # the clear copies the listener stored are in the -wal file still (SQLite)
        db.scrub_wal()
    return [r[0] for r in results]


# a mail prepared ahead: decoded, its commands read, its preparation, its raw copy masked
_Ahead = tuple[IncomingMail, ReadMail, Prepared, tuple[frozenset[str], bytes] | None]


class PreparedAhead:
    """Mails a round prepared (decoded, passwords checked, orders read, raw copy masked) but
    had no time to handle, kept for the next round of the same drain.

    A batch prepares up to ``DRAIN_BATCH`` mails but its write transaction stops after
    ``BATCH_SECONDS``; on a busy machine it handled one or two, and the next round prepared
    the rest again: each mail was prepared about seven times (issue 16, measured with SIGNON
    mails). What is kept checks itself where it is used, as any preparation does (a password
    check is keyed by the stored hash it was made against, an order parse by the phase, the
    masked copy by the passwords the handling found), so a mail that waited is handled the
    same. A mail's raw bytes do not change while it is new. Bounded: emptied when full (a
    mail another drain took is never asked for again).
    """

    LIMIT = 4 * DRAIN_BATCH

    def __init__(self) -> None:
        self._kept: dict[int, _Ahead] = {}

    def take(self, inbound_id: int) -> _Ahead | None:
        return self._kept.pop(inbound_id, None)

    def keep(self, inbound_id: int, mail: IncomingMail, read: ReadMail, prepared: Prepared,
             masked: tuple[frozenset[str], bytes] | None) -> None:
        if len(self._kept) >= self.LIMIT:
            self._kept.clear()
        self._kept[inbound_id] = (mail, read, prepared, masked)


def _masked(row: object, secrets: set[str], decode: Decoder, settings: Settings) -> bytes:
    """The row's raw bytes with the mail's passwords masked (see ``judge.service.rawmask``)."""
    raw: bytes = getattr(row, "raw")  # noqa: B009  (a Core row, not an ORM object)

    def still_shows(masked: bytes) -> bool:
        text = decode(masked, "", len(masked), False, settings).text
        return any(secret in text.split() for secret in secrets)

    return mask_raw(raw, secrets, still_shows)


def _held_masked(row: object, mail: IncomingMail, mapping: dict[str, str], decode: Decoder,
                 settings: Settings) -> bytes:
    """A held mail's raw bytes with its passwords replaced by their placeholders."""
    raw: bytes = getattr(row, "raw")  # noqa: B009  (a Core row, not an ORM object)

    def still_shows(masked: bytes) -> bool:
        text = decode(masked, "", len(masked), False, settings).text
        return any(secret in text.split() for secret in mapping)

    return mask_held(raw, mapping, mail.text, still_shows)


def process_one(
    db: Database,
    settings: Settings,
    decode: Decoder,
    dispatcher: Dispatcher | None = None,
    now: Callable[[], datetime] = utcnow,
    only_id: int | None = None,
    ahead: PreparedAhead | None = None,
) -> int | None:
    """Handle the oldest new mail (or mail ``only_id`` if still new) in a transaction of its
    own. Returns its id, or None when nothing is waiting. ``ahead``: see ``drain_some``."""
    claimed: list[int] = []
    try:
        handled = process_batch(db, settings, decode, dispatcher, now, limit=1,
                                only_id=only_id, claimed=claimed, ahead=ahead)
        return handled[0] if handled else None
    except Exception:
        if not claimed:
            raise
        inbound_id = claimed[0]
        error = traceback.format_exc()
        log.error("inbound %s failed; kept as failed for `judge retry-failed`:\n%s",
                  inbound_id, error)
        with db.session() as session:
            mark_inbound(session, inbound_id, "failed", now(), error=error)
            tell_failed(session, settings, decode, inbound_id, now())
        return inbound_id


# the one reply to a mail whose handling raised (everything it did was rolled back)
FAILED_TEXT = N_(
    "Your mail could not be handled: the judge met an error while reading it, so nothing "
    "in it was applied. The error was logged for the judge's keeper, and the mail is kept"
    " to be handled again once it is fixed. You may also send it again."
)


def failed_text(lang: str) -> str:
    """The failure reply in ``lang`` (the catalogs; English for a language the judge lacks)."""
    return tr(lang, FAILED_TEXT) + "\n"


def tell_failed(session: Session, settings: Settings, decode: Decoder, inbound_id: int,
                when: datetime) -> None:
    """Queue the one reply that says a mail could not be handled, in its sender's language,
    in the transaction that records it failed.

    Under the same rules as any reply (to the From addr-spec, under the daily cap, never to
    automatic mail). In a savepoint: a reply that cannot be built is logged and dropped, and
    the mail is still recorded failed."""
    try:
        with session.begin_nested():
            rows = inbound_rows(session, [inbound_id])
            if not rows:
                return
            row = rows[0]
            mail = decode(row.raw, row.envelope_from, row.size, row.oversized, settings)
            if mail.loop_reason or not mail.from_addr:
                return
            lang = dispatch_module.reply_language(session, mail)
            ctx = MailSession(mail=mail, settings=settings, now=when, session=session,
                              inbound_id=inbound_id)
            ctx.reply(failed_text(lang), lang=lang, kind=ANONYMOUS)
    except Exception:
        log.exception("inbound %s: the reply saying it failed could not be queued",
                      inbound_id)


def drain_some(
    db: Database,
    settings: Settings,
    decode: Decoder,
    dispatcher: Dispatcher | None = None,
    now: Callable[[], datetime] = utcnow,
    limit: int = 1,
    stopping: Callable[[], bool] = lambda: False,
    ahead: PreparedAhead | None = None,
) -> list[int]:
    """Handle up to ``limit`` waiting mails in one transaction; if one of them fails, all of
    them are handled again one per transaction (with what the batch prepared for them).
    Returns the ids handled (done or failed). ``ahead``: the drain's mails prepared and not
    yet handled (see ``PreparedAhead``)."""
    if limit <= 1:
        one = process_one(db, settings, decode, dispatcher, now)
        return [] if one is None else [one]
    claimed: list[int] = []
    try:
        return process_batch(db, settings, decode, dispatcher, now, limit, claimed=claimed,
                             stopping=stopping, ahead=ahead)
    except Exception:
        if not claimed:
            raise  # the database itself is failing
        log.warning("a batch of %d mail(s) failed; handling them one by one", len(claimed))
    handled: list[int] = []
    for inbound_id in claimed:
        if handled and stopping():
            break
        one = process_one(db, settings, decode, dispatcher, now, only_id=inbound_id,
                          ahead=ahead)
        if one is not None:
            handled.append(one)
    return handled


def housekeeping(db: Database, settings: Settings, now: datetime) -> tuple[int, int]:
    """Expire unanswered confirmations (the mails they held are dropped with a note) and
    empty the raw bytes of mail handled longer ago than ``raw_mail_retention_days``."""
    with db.session() as session:
        dropped, emptied = confirm.sweep(session, now, settings.raw_mail_retention_days)
    if dropped or emptied:
        log.info("housekeeping: %d held mail(s) dropped, %d raw mail(s) emptied", dropped,
                 emptied)
    prune_sent(db, settings, now)
    # results bulletins whose rendering a crash interrupted (issue 16)
    rendered = rendering.render_pending(db, settings)
    if rendered:
        log.info("housekeeping: %d left-over bulletin(s) rendered and queued", rendered)
    return dropped, emptied


def prune_sent(db: Database, settings: Settings, now: datetime) -> tuple[int, int]:
    """Empty the bodies and maps of mail sent more than ``sent_mail_retention_days`` ago and
    drop the maps no message references any more (issue 16: the database does not swell).
    Returns (rows emptied, blobs deleted)."""
    if settings.sent_mail_retention_days <= 0:
        return 0, 0
    with db.session() as session:
        rows, blobs = prune_outbound(
            session, now - timedelta(days=settings.sent_mail_retention_days), now)
    if rows or blobs:
        log.info("housekeeping: %d sent mail(s) emptied, %d map(s) dropped", rows, blobs)
    return rows, blobs


def retry_failed(db: Database, ids: list[int] | None = None) -> list[int]:
    """Put failed mail back in the queue; the drain handles it again."""
    with db.session() as session:
        return requeue_failed(session, ids or [])


class DrainRunner(Runner):
    """The inbox drain as a runner: each round handles a batch of waiting mail."""

    name = "inbox drain"

    def __init__(
        self,
        db: Database,
        settings: Settings,
        decode: Decoder,
        stopping: asyncio.Event,
        wake: asyncio.Event | None = None,
        on_handled: Callable[[], None] = lambda: None,
        dispatcher: Dispatcher | None = None,
        now: Callable[[], datetime] = utcnow,
        batch: int = DRAIN_BATCH,
    ) -> None:
        super().__init__(stopping, wake, poll_seconds=settings.drain_poll_seconds)
        self.db, self.settings, self.decode = db, settings, decode
        self.on_handled, self.dispatcher, self.now, self.batch = on_handled, dispatcher, now, batch
        self.next_sweep = 0.0
        self.ahead = PreparedAhead()
        self.warmed = False

    async def warm(self) -> None:
        """Compile the reply templates outside any transaction (once; ``serve`` does it
        before it listens, so the first mails do not wait for it)."""
        if not self.warmed:
            self.warmed = True
            await asyncio.to_thread(reply_text.warm)

    async def one_round(self) -> float | None:
        await self.warm()
        # raises only when the database itself is failing: the mail stays stored
        handled = await asyncio.to_thread(drain_some, self.db, self.settings, self.decode,
                                          self.dispatcher, self.now, self.batch,
                                          self.stopping.is_set, self.ahead)
        if handled:
            self.on_handled()
            return 0
        if time.monotonic() >= self.next_sweep:
            # idle: expire confirmations, empty old raw mail (a failure is logged, not fatal)
            self.next_sweep = time.monotonic() + SWEEP_SECONDS
            try:
                await asyncio.to_thread(housekeeping, self.db, self.settings, self.now())
            except Exception:
                log.exception("inbox housekeeping failed; tried again later")
        return None


async def run_drain(
    db: Database,
    settings: Settings,
    decode: Decoder,
    wake: asyncio.Event,
    stopping: asyncio.Event,
    on_handled: Callable[[], None] = lambda: None,
    dispatcher: Dispatcher | None = None,
    now: Callable[[], datetime] = utcnow,
    batch: int = DRAIN_BATCH,
) -> None:
    """Drain until ``stopping`` is set; the mail in hand is always finished first."""
    await DrainRunner(db, settings, decode, stopping, wake, on_handled, dispatcher, now,
                      batch).run()
