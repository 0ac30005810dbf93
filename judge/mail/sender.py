"""The SMTP sender (aiosmtplib): drains the outbox with backoff and a dead-letter state.

A row is marked sent only after the relay's 250; a crash between the two resends it with the
same stored Message-ID, so a duplicate at the recipient is recognisable.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import ssl
from collections.abc import Callable
from datetime import UTC, datetime
from email.charset import QP, Charset
from email.header import Header
from email.message import EmailMessage, Message
from email.mime.text import MIMEText
from email.policy import SMTP as SMTP_POLICY
from email.utils import format_datetime

import aiosmtplib

from judge.settings import Settings
from judge.storage import Database
from judge.storage.mailrepo import due_outbound, mark_outbound, next_due_time, retry_backoff
from judge.storage.models import OutboundMail

log = logging.getLogger(__name__)

# connection-level trouble: the relay never judged the message, so always retry
TRANSIENT = (
    aiosmtplib.SMTPConnectError,
    aiosmtplib.SMTPServerDisconnected,
    aiosmtplib.SMTPTimeoutError,
    aiosmtplib.SMTPHeloError,
    OSError,
)


def build_message(row: OutboundMail, settings: Settings, eight_bit: bool = True) -> Message:
    """The message for an outbox row; plain text goes the cheap compat32 way.

    Non-ASCII text goes as 8bit (readable and greppable in the raw mail) when the relay
    takes 8BITMIME, else as quoted-printable.
    """
    if row.attachments:
        msg: Message = EmailMessage()
        msg.set_content(row.body or "")
        for att in row.attachments:
            maintype, _, subtype = str(att.get("mime", "application/octet-stream")).partition("/")
            msg.add_attachment(base64.b64decode(att["data_b64"]), maintype=maintype,
                               subtype=subtype or "octet-stream", filename=att.get("filename"))
    else:
        # EmailMessage's header objects cost more CPU than everything else in sending
        body = row.body or ""
        charset = Charset("utf-8")
        charset.body_encoding = None if eight_bit else QP
        msg = MIMEText(body, "plain", "us-ascii" if body.isascii() else charset)
    # EmailMessage encodes non-ASCII headers itself and refuses Header objects
    subject = row.subject if isinstance(msg, EmailMessage) else _header(row.subject)
    headers = [
        ("From", settings.address),
        ("To", row.to_addr),
        ("Subject", subject),
        ("Date", format_datetime(row.created)),
        ("Message-ID", row.message_id),
        ("In-Reply-To", row.in_reply_to),
        ("References", row.references),
        ("List-Id", row.list_id),
        ("X-Loop", settings.address),
    ]
    headers += list((row.headers or {}).items())
    for name, value in headers:
        if value and name not in msg:
            msg[name] = value
    return msg


def _header(value: str) -> str | Header:
    return value if value.isascii() else Header(value, "utf-8")


def message_bytes(msg: Message) -> bytes:
    if isinstance(msg, EmailMessage):
        return msg.as_bytes(policy=SMTP_POLICY)
    return msg.as_bytes()


def smtp_client(settings: Settings) -> aiosmtplib.SMTP:
    security = settings.smtp_security
    tls_context = None
    if settings.smtp_ca_file and security != "none":
        tls_context = ssl.create_default_context(cafile=settings.smtp_ca_file)
    return aiosmtplib.SMTP(
        tls_context=tls_context,
        hostname=settings.smtp_host,
        port=settings.smtp_port,
        username=settings.smtp_user or None,
        password=settings.smtp_password or None,
        use_tls=security == "ssl",
        start_tls=security == "starttls",
        timeout=settings.smtp_timeout_seconds,
        # without it aiosmtplib asks socket.getfqdn(), which can block the loop on slow DNS
        local_hostname=settings.domain,
    )


class Sender:
    def __init__(self, db: Database, settings: Settings,
                 now: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.db = db
        self.settings = settings
        self.now = now

    def _fail(self, row: OutboundMail, error: str, permanent: bool) -> None:
        tries = row.tries + 1
        dead = permanent or tries >= self.settings.max_send_tries
        when = self.now()
        values: dict[str, object] = {"tries": tries, "last_error": error[:2000]}
        if dead:
            values["status"] = "dead"
            log.error("outbound %d to %s dead after %d tries: %s", row.id, row.to_addr,
                      tries, error)
        else:
            delay = retry_backoff(tries, self.settings.retry_base_seconds,
                                  self.settings.retry_max_seconds)
            values["next_attempt_at"] = when + delay
            log.warning("outbound %d to %s: %s; retry in %s", row.id, row.to_addr, error, delay)
        with self.db.session() as session:
            mark_outbound(session, row.id, **values)

    def _sent(self, rows: list[OutboundMail]) -> None:
        when = self.now()
        with self.db.session() as session:
            for row in rows:
                mark_outbound(session, row.id, status="sent", sent_at=when,
                              tries=row.tries + 1, last_error=None)

    def _due(self) -> list[OutboundMail]:
        with self.db.session() as session:
            return due_outbound(session, self.now(), limit=200)

    async def send_due(self) -> int:
        """Send every row that is due; returns how many reached the relay."""
        rows = await asyncio.to_thread(self._due)
        if not rows:
            return 0
        # a few connections in parallel: one SMTP dialogue is mostly waiting for the relay
        lanes = max(1, min(self.settings.smtp_connections, len(rows)))
        counts = await asyncio.gather(*(self._send_batch(rows[i::lanes]) for i in range(lanes)))
        return sum(counts)

    async def _send_batch(self, rows: list[OutboundMail]) -> int:
        client = smtp_client(self.settings)
        try:
            await client.connect()
        except TRANSIENT + (aiosmtplib.SMTPException,) as exc:
            for row in rows:
                await asyncio.to_thread(self._fail, row, f"relay unreachable: {exc}", False)
            return 0
        sent: list[OutboundMail] = []
        try:
            for row in rows:
                ok = await self._send_one(client, row)
                if ok is None:
                    break  # connection lost: the rest waits for the next round
                if ok:
                    sent.append(row)
        finally:
            # one commit for the batch: a crash before it resends these with the same
            # Message-IDs, which receivers can recognise
            if sent:
                await asyncio.to_thread(self._sent, sent)
            with contextlib.suppress(Exception):
                await client.quit()
        return len(sent)

    async def _send_one(self, client: aiosmtplib.SMTP, row: OutboundMail) -> bool | None:
        try:
            eight_bit = client.supports_extension("8bitmime")
            data = message_bytes(build_message(row, self.settings, eight_bit))
            options = ["BODY=8BITMIME"] if eight_bit and not data.isascii() else []
            await client.sendmail(self.settings.address, [row.to_addr], data,
                                  mail_options=options)
        except aiosmtplib.SMTPRecipientsRefused as exc:
            codes = [r.code for r in exc.recipients]
            permanent = all(500 <= c < 600 for c in codes)
            await asyncio.to_thread(self._fail, row, f"recipient refused: {exc}", permanent)
            return False
        except aiosmtplib.SMTPResponseException as exc:
            permanent = 500 <= exc.code < 600
            await asyncio.to_thread(self._fail, row, f"{exc.code} {exc.message}", permanent)
            if isinstance(exc, aiosmtplib.SMTPServerDisconnected | aiosmtplib.SMTPHeloError):
                return None
            return False
        except TRANSIENT as exc:
            await asyncio.to_thread(self._fail, row, f"connection lost: {exc!r}", False)
            return None
        except (ValueError, TypeError, KeyError) as exc:
            # a row that cannot even be built will never send
            await asyncio.to_thread(self._fail, row, f"bad message: {exc!r}", True)
            return False
        return True

    async def run(self, wake: asyncio.Event, stopping: asyncio.Event) -> None:
        while not stopping.is_set():
            wake.clear()
            try:
                await self.send_due()
                nxt = await asyncio.to_thread(self._next_due)
            except Exception:
                log.exception("outbox sender error")
                nxt = None
            timeout = self.settings.drain_poll_seconds
            if nxt is not None:
                timeout = max(0.0, min(timeout, (nxt - self.now()).total_seconds()))
            if timeout <= 0:
                continue
            waiter = asyncio.ensure_future(wake.wait())
            stopper = asyncio.ensure_future(stopping.wait())
            await asyncio.wait({waiter, stopper}, timeout=timeout,
                               return_when=asyncio.FIRST_COMPLETED)
            for task in (waiter, stopper):
                task.cancel()

    def _next_due(self) -> datetime | None:
        with self.db.session() as session:
            return next_due_time(session)
