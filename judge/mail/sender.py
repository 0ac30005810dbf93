"""The SMTP sender (aiosmtplib): drains the outbox with backoff and a dead-letter state.

A row is marked sent only after the relay's 250; a crash between the two resends it with the
same stored Message-ID, so a duplicate at the recipient is recognisable.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import re
import ssl
import time
from collections.abc import Callable
from datetime import UTC, datetime
from email.charset import QP, Charset
from email.header import Header
from email.message import EmailMessage, Message
from email.mime.text import MIMEText
from email.policy import SMTP as SMTP_POLICY
from email.utils import format_datetime
from typing import Any

import aiosmtplib
from aiosmtplib.typing import SMTPStatus

from judge.settings import Settings
from judge.storage import Database
from judge.storage.mailrepo import (
    due_outbound_rows,
    mark_outbound,
    mark_outbound_sent,
    next_due_time,
    retry_backoff,
)
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
    msg: Message
    if row.attachments:
        rich = EmailMessage()
        rich.set_content(row.body or "")
        for att in row.attachments:
            maintype, _, subtype = str(att.get("mime", "application/octet-stream")).partition("/")
            rich.add_attachment(base64.b64decode(att["data_b64"]), maintype=maintype,
                                subtype=subtype or "octet-stream", filename=att.get("filename"))
        msg = rich
    else:
        # EmailMessage's header objects cost more CPU than everything else in sending
        body = row.body or ""
        charset = Charset("utf-8")
        # typeshed types body_encoding as int and MIMEText's charset as str; the email package
        # takes None (no transfer encoding: 8bit) and a Charset object
        charset.body_encoding = None if eight_bit else QP  # type: ignore[assignment]
        msg = MIMEText(body, "plain", "us-ascii" if body.isascii() else charset)  # type: ignore[arg-type]
    # EmailMessage encodes non-ASCII headers itself and refuses Header objects
    subject = row.subject if isinstance(msg, EmailMessage) else _header(row.subject)
    headers = header_pairs(row, settings, subject)
    for name, value in headers:
        if value and name not in msg:
            msg[name] = value
    return msg


def header_pairs(row: OutboundMail, settings: Settings, subject: object) -> list[tuple[str, Any]]:
    """Every header an outgoing message carries, in order; empty values are skipped by callers."""
    return [
        ("From", settings.address),
        ("To", row.to_addr),
        ("Subject", subject),
        ("Date", format_datetime(row.created)),
        ("Message-ID", row.message_id),
        ("In-Reply-To", row.in_reply_to),
        ("References", row.references),
        ("List-Id", row.list_id),
        ("X-Loop", settings.address),
        *(row.headers or {}).items(),
    ]


def _header(value: str) -> str | Header:
    return value if value.isascii() else Header(value, "utf-8")


# a header line longer than this is folded by the email package: leave those to it
FAST_HEADER_MAX = 78


def fast_message_bytes(row: OutboundMail, settings: Settings, eight_bit: bool = True
                       ) -> bytes | None:
    """``message_bytes(build_message(...))`` for the common case, without the email package.

    Only for a plain-text row without attachments whose headers are short ASCII lines and
    whose body is ASCII (or UTF-8 going 8bit); returns None for anything else, which then
    takes the email package's way. The bytes are the same as that way's.
    """
    if row.attachments:
        return None
    body = row.body or ""
    if body.isascii():
        head = b'Content-Type: text/plain; charset="us-ascii"\nMIME-Version: 1.0\n' \
               b"Content-Transfer-Encoding: 7bit\n"
    elif eight_bit:
        head = b'Content-Type: text/plain; charset="utf-8"\nMIME-Version: 1.0\n' \
               b"Content-Transfer-Encoding: 8bit\n"
    else:
        return None
    lines = [head.decode()]
    seen = {"content-type", "mime-version", "content-transfer-encoding"}
    headers = header_pairs(row, settings, row.subject)
    for name, value in headers:
        if not value or name.lower() in seen:
            continue
        value = str(value)
        if (len(name) + 2 + len(value) > FAST_HEADER_MAX or not value.isascii()
                or "\n" in value or "\r" in value or value != value.strip()):
            return None
        seen.add(name.lower())
        lines.append(f"{name}: {value}\n")
    lines.append("\n")
    try:
        return "".join(lines).encode("ascii") + body.encode("utf-8")
    except UnicodeError:
        return None


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


# a plain dot-atom address, which SMTP takes as "<address>" without any quoting
PLAIN_ADDRESS = re.compile(
    r"[A-Za-z0-9_+=-]+(?:\.[A-Za-z0-9_+=-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*"
)


async def transmit(client: aiosmtplib.SMTP, sender: str, recipient: str, data: bytes,
                   options: list[str]) -> None:
    """``client.sendmail(sender, [recipient], data, mail_options=options)`` for plain
    addresses, without aiosmtplib's address parsing (which costs more than the rest of the
    dialogue); the same exceptions, and the envelope reset after a refusal."""
    if (PLAIN_ADDRESS.fullmatch(sender) is None or PLAIN_ADDRESS.fullmatch(recipient) is None
            or not client.is_connected or client.is_ehlo_or_helo_needed):
        await client.sendmail(sender, [recipient], data, mail_options=options)
        return
    try:
        response = await client.execute_command(
            b"MAIL", b"FROM:<" + sender.encode() + b">", *(o.encode() for o in options))
        if response.code != SMTPStatus.completed:
            raise aiosmtplib.SMTPSenderRefused(response.code, response.message, sender)
        response = await client.execute_command(b"RCPT", b"TO:<" + recipient.encode() + b">")
        if response.code not in (SMTPStatus.completed, SMTPStatus.will_forward):
            raise aiosmtplib.SMTPRecipientsRefused([aiosmtplib.SMTPRecipientRefused(
                response.code, response.message, recipient)])
        await client.data(data)
    except (aiosmtplib.SMTPResponseException, aiosmtplib.SMTPRecipientsRefused):
        with contextlib.suppress(ConnectionError, aiosmtplib.SMTPResponseException):
            await client.rset()
        raise


# a relay connection left open between rounds is reused for this long, then closed
KEEP_IDLE_SECONDS = 5.0


class Sender:
    def __init__(self, db: Database, settings: Settings,
                 now: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.db = db
        self.settings = settings
        self.now = now
        # connections kept open between rounds: (client, time.monotonic() when last used)
        self._idle: list[tuple[aiosmtplib.SMTP, float]] = []

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
            mark_outbound_sent(session, [row.id for row in rows], when)

    def _due(self) -> list[OutboundMail]:
        with self.db.session() as session:
            return due_outbound_rows(session, self.now(), limit=200)

    def _due_or_next(self, sent: list[OutboundMail] | None = None,
                     ) -> tuple[list[OutboundMail], datetime | None]:
        """One transaction: mark ``sent`` as sent, then read the rows due now or, when there
        are none, when the next one will be."""
        with self.db.session() as session:
            when = self.now()
            if sent:
                mark_outbound_sent(session, [row.id for row in sent], when)
            rows = due_outbound_rows(session, when, limit=200)
            return rows, (None if rows else next_due_time(session))

    async def send_due(self) -> int:
        """Send every row that is due; returns how many reached the relay."""
        rows = await asyncio.to_thread(self._due)
        sent: list[OutboundMail] = []
        try:
            await self._send_rows(rows, sent)
        finally:
            if sent:
                await asyncio.to_thread(self._sent, sent)
        return len(sent)

    async def _send_rows(self, rows: list[OutboundMail], sent: list[OutboundMail]) -> None:
        """Send ``rows``, adding each one the relay accepted to ``sent`` (the caller marks
        them sent, in one transaction for the round)."""
        if not rows:
            return
        # a few connections in parallel: one SMTP dialogue is mostly waiting for the relay
        lanes = max(1, min(self.settings.smtp_connections, len(rows)))
        results = await asyncio.gather(
            *(self._send_batch(rows[i::lanes], sent) for i in range(lanes)),
            return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException):
                raise result

    async def _connection(self) -> tuple[aiosmtplib.SMTP, bool]:
        """A connected client, kept from an earlier round if one is fresh; (client, reused)."""
        while self._idle:
            client, last = self._idle.pop()
            if client.is_connected and time.monotonic() - last < KEEP_IDLE_SECONDS:
                return client, True
            await self._close(client)
        client = smtp_client(self.settings)
        await client.connect()
        return client, False

    @staticmethod
    async def _close(client: aiosmtplib.SMTP) -> None:
        with contextlib.suppress(Exception):
            if client.is_connected:
                await client.quit()
        with contextlib.suppress(Exception):
            client.close()

    async def close(self) -> None:
        """Close the connections kept for the next round."""
        idle, self._idle = self._idle, []
        for client, _ in idle:
            await self._close(client)

    async def _send_batch(self, rows: list[OutboundMail], sent: list[OutboundMail]) -> None:
        try:
            client, reused = await self._connection()
        except TRANSIENT + (aiosmtplib.SMTPException,) as exc:
            for row in rows:
                await asyncio.to_thread(self._fail, row, f"relay unreachable: {exc}", False)
            return
        keep = False
        try:
            index = 0
            while index < len(rows):
                row = rows[index]
                # a connection that has already served (kept from an earlier round, or used
                # for an earlier row) and that the relay has closed meanwhile (idle timeout,
                # a per-connection message limit) is not the message's fault: reconnect once
                # without counting a try
                ok = await self._send_one(client, row, count_lost=not reused)
                if ok == "stale":
                    await self._close(client)
                    reused = False
                    try:
                        client = smtp_client(self.settings)
                        await client.connect()
                    except TRANSIENT + (aiosmtplib.SMTPException,) as exc:
                        for rest in rows[index:]:
                            await asyncio.to_thread(self._fail, rest,
                                                    f"relay unreachable: {exc}", False)
                        return
                    continue
                if ok is None:
                    break  # connection lost: the rest waits for the next round
                if ok:
                    sent.append(row)
                reused = True  # the relay answered for this row: the connection has served
                index += 1
            else:
                keep = True
        finally:
            if keep and client.is_connected:
                self._idle.append((client, time.monotonic()))
            else:
                await self._close(client)

    async def _send_one(self, client: aiosmtplib.SMTP, row: OutboundMail,
                        count_lost: bool = True) -> bool | str | None:
        """True: sent. False: refused (recorded). None: connection lost (recorded).
        "stale": connection lost before anything was said about the row (not recorded;
        only when ``count_lost`` is False)."""
        try:
            if client.is_ehlo_or_helo_needed:
                # before looking at the extensions (aiosmtplib would greet only in sendmail)
                await client.ehlo()
            eight_bit = client.supports_extension("8bitmime")
            data = fast_message_bytes(row, self.settings, eight_bit)
            if data is None:
                data = message_bytes(build_message(row, self.settings, eight_bit))
            options = ["BODY=8BITMIME"] if eight_bit and not data.isascii() else []
            await transmit(client, self.settings.address, row.to_addr, data, options)
        except aiosmtplib.SMTPRecipientsRefused as exc:
            codes = [r.code for r in exc.recipients]
            lost = SMTPStatus.domain_unavailable in codes or not client.is_connected
            if lost and not count_lost:
                return "stale"
            permanent = all(500 <= c < 600 for c in codes)
            await asyncio.to_thread(self._fail, row, f"recipient refused: {exc}", permanent)
            return None if lost else False
        except aiosmtplib.SMTPResponseException as exc:
            # 421: the relay closes the connection (idle timeout, too many messages on one
            # connection, shutting down); the client has closed it too
            lost = (isinstance(exc, aiosmtplib.SMTPServerDisconnected | aiosmtplib.SMTPHeloError)
                    or exc.code == SMTPStatus.domain_unavailable or not client.is_connected)
            if lost and not count_lost:
                return "stale"
            permanent = 500 <= exc.code < 600
            await asyncio.to_thread(self._fail, row, f"{exc.code} {exc.message}", permanent)
            return None if lost else False
        except TRANSIENT as exc:
            if not count_lost:
                return "stale"
            await asyncio.to_thread(self._fail, row, f"connection lost: {exc!r}", False)
            return None
        except (ValueError, TypeError, KeyError) as exc:
            # a row that cannot even be built will never send
            await asyncio.to_thread(self._fail, row, f"bad message: {exc!r}", True)
            return False
        return True

    async def run(self, wake: asyncio.Event, stopping: asyncio.Event) -> None:
        try:
            await self._run(wake, stopping)
        finally:
            await self.close()

    async def _run(self, wake: asyncio.Event, stopping: asyncio.Event) -> None:
        rows: list[OutboundMail] | None = None  # None: not looked yet
        nxt: datetime | None = None
        while not stopping.is_set():
            try:
                if rows is None:
                    wake.clear()  # before looking, so a wake during the look is not lost
                    rows, nxt = await asyncio.to_thread(self._due_or_next)
                if rows:
                    sent: list[OutboundMail] = []
                    try:
                        await self._send_rows(rows, sent)
                    finally:
                        rows = None
                        # one commit for the round: a crash before it resends these with
                        # the same Message-IDs, which receivers can recognise. The same
                        # transaction reads what is due next (more may have come meanwhile).
                        wake.clear()
                        rows, nxt = await asyncio.to_thread(self._due_or_next, sent)
                    continue
            except Exception:
                log.exception("outbox sender error")
                nxt = None
            rows = None
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
