"""LMTP and SMTP listeners (aiosmtpd) that answer 250 only once the mail is committed."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from email.parser import BytesHeaderParser
from typing import Any

from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session

from judge.settings import Settings
from judge.storage import Database
from judge.storage.mailrepo import store_received

log = logging.getLogger(__name__)

# the listener refuses (552) only far above the cap: between the two, the mail is kept
# truncated so the sender can be told why it was not read
HARD_LIMIT_FACTOR = 10


def message_id_of(raw: bytes) -> str:
    try:
        value = BytesHeaderParser().parsebytes(raw).get("Message-ID", "")
    except Exception:
        return ""
    return " ".join(str(value).split())


class StoringHandler:
    """aiosmtpd handler: commit the raw mail, then acknowledge."""

    def __init__(
        self,
        db: Database,
        settings: Settings,
        source: str,
        on_stored: Callable[[], None] = lambda: None,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.db = db
        self.settings = settings
        self.source = source
        self.on_stored = on_stored
        self.now = now
        self.in_flight = 0
        self.idle = asyncio.Event()
        self.idle.set()

    def _store(self, envelope: Envelope) -> bool:
        raw = envelope.original_content or b""
        return store_received(
            self.db,
            raw=raw,
            message_id=message_id_of(raw),
            envelope_from=envelope.mail_from or "",
            envelope_to=list(envelope.rcpt_tos),
            source=self.source,
            now=self.now(),
            max_bytes=self.settings.max_message_bytes,
        )

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.in_flight += 1
        self.idle.clear()
        try:
            stored = await asyncio.to_thread(self._store, envelope)
        except Exception:
            log.exception("could not store a mail from %s", envelope.mail_from)
            return self._per_recipient(envelope, "451 4.3.0 Cannot store the message now")
        finally:
            self.in_flight -= 1
            if not self.in_flight:
                self.idle.set()
        if stored:
            self.on_stored()
        else:
            log.info("duplicate mail from %s ignored", envelope.mail_from)
        return self._per_recipient(envelope, "250 2.0.0 Message accepted")

    def _per_recipient(self, envelope: Envelope, status: str) -> str:
        # LMTP answers DATA once per recipient (RFC 2033); SMTP once.
        count = max(1, len(envelope.rcpt_tos)) if self.source == "lmtp" else 1
        return "\r\n".join([status] * count)


class Listener:
    """One listening socket with its handler; ``stop`` waits for mail being stored."""

    def __init__(self, handler: StoringHandler, server: asyncio.Server,
                 protocols: list[SMTP]) -> None:
        self.handler = handler
        self.server = server
        self.protocols = protocols

    @property
    def port(self) -> int:
        return int(self.server.sockets[0].getsockname()[1])

    async def stop(self, grace: float = 10.0) -> None:
        self.server.close()
        try:
            await asyncio.wait_for(self.handler.idle.wait(), timeout=grace)
        except TimeoutError:
            log.warning("stopping with %d mail(s) still being stored", self.handler.in_flight)
        for proto in self.protocols:
            transport: Any = getattr(proto, "transport", None)
            if transport is not None:
                transport.close()


async def start_listener(
    handler: StoringHandler, host: str, port: int, lmtp: bool, settings: Settings
) -> Listener:
    protocols: list[SMTP] = []
    kind = LMTP if lmtp else SMTP
    hard_limit = settings.max_message_bytes * HARD_LIMIT_FACTOR

    def factory() -> SMTP:
        proto = kind(handler, data_size_limit=hard_limit, hostname=settings.domain,
                     ident="judge")
        protocols.append(proto)
        if len(protocols) > 256:
            # forget closed sessions so a long-running server does not keep them all
            protocols[:] = [p for p in protocols if getattr(p, "transport", None) is not None]
        return proto

    server = await asyncio.get_running_loop().create_server(factory, host=host, port=port)
    listener = Listener(handler, server, protocols)
    log.info("%s listener on %s:%d", "LMTP" if lmtp else "SMTP", host, listener.port)
    return listener
