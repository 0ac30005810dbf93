"""How an outgoing message reaches the relay: a small interface and its SMTP implementation.

The outbox runner (``judge.mail.outbox``) owns the policy (what is due, retries, dead
letters, recording "sent"); a transport only carries one message and says how it went:
it returns once the relay has accepted it (its 250 to DATA) and raises ``SendFailure``
otherwise. The SMTP transport speaks through aiosmtplib's public API only (``connect``,
``ehlo``, ``sendmail``, ``quit``) and keeps its connection open between messages.
"""

from __future__ import annotations

import contextlib
import ssl
import time
from collections.abc import Callable
from typing import Protocol

import aiosmtplib
from aiosmtplib.typing import SMTPStatus

from judge.settings import Settings

#: builds the message's bytes; its argument says whether the relay takes 8BITMIME
Build = Callable[[bool], bytes]


class SendFailure(Exception):
    """The relay did not take the message. ``permanent``: it never will (a 5xx)."""

    def __init__(self, text: str, permanent: bool) -> None:
        super().__init__(text)
        self.text = text
        self.permanent = permanent


class Transport(Protocol):
    async def send(self, mail_from: str, rcpt: str, build: Build) -> None:
        """Hand one message to the relay; returns after its acceptance, else raises
        ``SendFailure`` (an exception raised by ``build`` passes through unchanged)."""

    async def close(self) -> None:
        """Close whatever connection is kept."""


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


# connection-level trouble: the relay never judged the message
CONNECTION_ERRORS = (
    aiosmtplib.SMTPConnectError,
    aiosmtplib.SMTPServerDisconnected,
    aiosmtplib.SMTPTimeoutError,
    aiosmtplib.SMTPHeloError,
    OSError,
)

# a kept connection unused for longer than this is closed rather than reused
KEEP_IDLE_SECONDS = 5.0


class _Stale(Exception):
    """A kept connection turned out closed before the relay said anything about the message."""


class SmtpTransport:
    """One SMTP connection (aiosmtplib), opened on first use and kept between messages.

    A connection that has already served and that the relay closed meanwhile (its idle
    timeout, a per-connection message limit: a 421 or a silent close at the next command)
    is not the message's fault: it is reopened once without a failure being reported.
    """

    def __init__(self, settings: Settings,
                 client_factory: Callable[[Settings], aiosmtplib.SMTP] = smtp_client) -> None:
        self.settings = settings
        self.client_factory = client_factory
        self.client: aiosmtplib.SMTP | None = None
        self.served = False  # the kept client has carried a message (or been answered)
        self.last_used = 0.0

    async def _open(self) -> aiosmtplib.SMTP:
        await self.close()
        client = self.client_factory(self.settings)
        try:
            await client.connect()
        except (*CONNECTION_ERRORS, aiosmtplib.SMTPException) as exc:
            with contextlib.suppress(Exception):
                client.close()
            raise SendFailure(f"relay unreachable: {exc}", permanent=False) from exc
        self.client, self.served = client, False
        return client

    async def send(self, mail_from: str, rcpt: str, build: Build) -> None:
        client = self.client
        if (client is None or not client.is_connected
                or time.monotonic() - self.last_used >= KEEP_IDLE_SECONDS):
            client = await self._open()
        try:
            await self._send_on(client, mail_from, rcpt, build, may_be_stale=self.served)
        except _Stale:
            client = await self._open()
            await self._send_on(client, mail_from, rcpt, build, may_be_stale=False)
        self.last_used = time.monotonic()

    async def _send_on(self, client: aiosmtplib.SMTP, mail_from: str, rcpt: str, build: Build,
                       may_be_stale: bool) -> None:
        try:
            if client.is_ehlo_or_helo_needed:
                await client.ehlo()  # before looking at the extensions
            eight_bit = client.supports_extension("8bitmime")
            data = build(eight_bit)
            options = ["BODY=8BITMIME"] if eight_bit and not data.isascii() else []
            await client.sendmail(mail_from, [rcpt], data, mail_options=options)
        except aiosmtplib.SMTPRecipientsRefused as exc:
            self.served = True
            first = exc.recipients[0] if exc.recipients else None
            code = first.code if first is not None else 550
            message = first.message if first is not None else str(exc)
            raise SendFailure(f"{code} {message}", permanent=500 <= code < 600) from exc
        except aiosmtplib.SMTPResponseException as exc:
            lost = (isinstance(exc, aiosmtplib.SMTPServerDisconnected | aiosmtplib.SMTPHeloError)
                    or exc.code == SMTPStatus.domain_unavailable or not client.is_connected)
            if lost:
                await self.close()
                if may_be_stale:
                    raise _Stale() from exc
            else:
                self.served = True
            raise SendFailure(f"{exc.code} {exc.message}",
                              permanent=500 <= exc.code < 600) from exc
        except CONNECTION_ERRORS as exc:
            await self.close()
            if may_be_stale:
                raise _Stale() from exc
            raise SendFailure(f"connection lost: {exc!r}", permanent=False) from exc
        except aiosmtplib.SMTPException as exc:  # e.g. SMTPUTF8 needed and not offered
            self.served = True
            raise SendFailure(f"not sent: {exc}", permanent=False) from exc
        self.served = True

    async def close(self) -> None:
        client, self.client = self.client, None
        if client is None:
            return
        with contextlib.suppress(Exception):
            if client.is_connected:
                await client.quit()
        with contextlib.suppress(Exception):
            client.close()
