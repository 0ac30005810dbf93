"""LMTP and SMTP listeners (aiosmtpd) that answer 250 only once the mail is committed."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from datetime import UTC, datetime
from email.parser import BytesHeaderParser
from typing import Any

from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session

from judge.clientcap import ClientCaps, client_key
from judge.settings import Settings
from judge.storage import Database
from judge.storage.mailrepo import store_received_many

log = logging.getLogger(__name__)

# the listener refuses (552) only far above the cap: between the two, the mail is kept
# truncated so the sender can be told why it was not read
HARD_LIMIT_FACTOR = 10


# "<local@domain>" with a plain dot-atom address: the common case of MAIL FROM / RCPT TO.
# Only spaces and tabs before it: aiosmtpd refuses a path led by other white space (\f, \v,
# U+00A0...) unless a space or tab comes first
SIMPLE_PATH = re.compile(
    r"[ \t]*<([A-Za-z0-9_+=-]+(?:\.[A-Za-z0-9_+=-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)>[ \t]*"
)


class QuickPaths:
    """Mixin for aiosmtpd's SMTP/LMTP: a plain ``<local@domain>`` path is read with a regular
    expression, everything else by aiosmtpd's own parser (the email package's header
    parser, which costs more than the rest of the session together).

    ``_getaddr`` is private to aiosmtpd: the dependency is pinned below 1.5 in
    pyproject.toml and tests/mail/test_quick_parsing.py checks the override gives what
    aiosmtpd's own gives."""

    local_part_limit: int

    def _getaddr(self, arg: str) -> tuple[str | None, str | None]:
        found = SIMPLE_PATH.match(arg)
        if found is None or arg[found.end():].startswith("("):
            return super()._getaddr(arg)  # type: ignore[misc]
        address = found.group(1)
        if self.local_part_limit and len(address.rpartition("@")[0]) > self.local_part_limit:
            return None, None
        return address, arg[found.end():]


class ConnectionGate(ClientCaps):
    """The caps on open LMTP/SMTP sessions, in all and per client address, shared by the
    listeners (0: no cap)."""


TOO_MANY = b"421 4.7.0 Too many connections, try again later\r\n"


class Gated:
    """Mixin: gives the session's place back to the gate when the connection ends."""

    gate: ConnectionGate | None = None
    gate_key = ""

    def connection_lost(self, exc: Exception | None) -> None:
        try:
            super().connection_lost(exc)  # type: ignore[misc]
        finally:
            if self.gate is not None:
                self.gate.release(self.gate_key)
                self.gate = None


class QuickLMTP(Gated, QuickPaths, LMTP):
    pass


class QuickSMTP(Gated, QuickPaths, SMTP):
    pass


class MailDoor(asyncio.Protocol):
    """What a new connection talks to first: admitted by its client address, it is handed to
    a new aiosmtpd session; refused, it is told 421 (RFC 5321 4.3.2) and closed at once.

    A door rather than a check in the protocol factory: asyncio calls the factory before the
    peer's address is known, and a refused connection must cost no aiosmtpd session."""

    def __init__(self, gate: ConnectionGate,
                 open_session: Callable[[], QuickLMTP | QuickSMTP]) -> None:
        self.gate = gate
        self.open_session = open_session

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        key = client_key(transport.get_extra_info("peername"))
        if not self.gate.admit(key):
            log.warning("mail connection refused: %d sessions open, %d from %s (the caps)",
                        self.gate.open, self.gate.held_by(key), key)
            transport.write(TOO_MANY)
            transport.close()
            return
        session = self.open_session()
        session.gate, session.gate_key = self.gate, key
        transport.set_protocol(session)
        session.connection_made(transport)


HEADER_NAME = re.compile(rb"[!-9;-~]+:")


def quick_message_id(raw: bytes) -> str | None:
    """The Message-ID as ``message_id_of`` reads it, for a plain ASCII header block; None
    when the header block holds anything the email package might read differently."""
    end = raw.find(b"\r\n\r\n")
    if end < 0:
        return None
    lines = raw[:end].split(b"\r\n")
    parts: list[bytes] = []
    state = 0  # 0: not seen yet, 1: reading its lines, 2: read
    for number, line in enumerate(lines):
        if not line.isascii() or b"\r" in line or b"\n" in line:
            return None
        if line[:1] in (b" ", b"\t"):
            if number == 0:
                return None
            if state == 1:
                parts.append(line)
            continue
        if HEADER_NAME.match(line) is None:
            return None
        if state == 1:
            state = 2
        elif state == 0 and line[:11].lower() == b"message-id:":
            parts.append(line[11:])
            state = 1
    return " ".join(b" ".join(parts).decode("ascii").split())


def message_id_of(raw: bytes) -> str:
    quick = quick_message_id(raw)
    if quick is not None:
        return quick
    try:
        value = BytesHeaderParser().parsebytes(raw).get("Message-ID", "")
    except Exception:
        return ""
    return " ".join(str(value).split())


# pending connections the kernel keeps for the listeners (asyncio's default is 100)
BACKLOG = 1024

# at most this many mails received at the same time are committed in one transaction
GROUP_COMMIT_MAX = 64


class StoringHandler:
    """aiosmtpd handler: commit the raw mail, then acknowledge.

    Group commit: mails whose DATA ends while an earlier commit is running wait for it and
    are then committed together in ONE transaction; each session gets its 250 only once the
    transaction holding its mail has committed (451 if it failed).
    """

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
        self._waiting: list[tuple[dict[str, Any], asyncio.Future[bool]]] = []
        self._committer: asyncio.Task[None] | None = None

    def _fields(self, envelope: Envelope) -> dict[str, Any]:
        raw = envelope.original_content or b""
        return {
            "raw": raw,
            "message_id": message_id_of(raw),
            "envelope_from": envelope.mail_from or "",
            "envelope_to": list(envelope.rcpt_tos),
            "source": self.source,
            "now": self.now(),
            "max_bytes": self.settings.max_message_bytes,
        }

    async def _store(self, envelope: Envelope) -> bool:
        """Queue the mail for the next group commit and wait until it is committed."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.append((self._fields(envelope), done))
        if self._committer is None or self._committer.done():
            self._committer = asyncio.create_task(self._commit_waiting())
        return await done

    async def _commit_waiting(self) -> None:
        while self._waiting:
            batch = self._waiting[:GROUP_COMMIT_MAX]
            del self._waiting[:GROUP_COMMIT_MAX]
            try:
                stored = await asyncio.to_thread(store_received_many, self.db,
                                                 [fields for fields, _ in batch])
            except BaseException as exc:
                for _, done in batch:
                    if not done.done():
                        done.set_exception(exc if isinstance(exc, Exception)
                                           else RuntimeError("storing interrupted"))
                if not isinstance(exc, Exception):
                    # cancelled (shutdown): the mails still waiting get their 451 too
                    for _, done in self._waiting:
                        if not done.done():
                            done.set_exception(RuntimeError("storing interrupted"))
                    del self._waiting[:]
                    raise
                continue
            for (_, done), new in zip(batch, stored, strict=True):
                if done.done():
                    continue
                if isinstance(new, Exception):
                    done.set_exception(new)  # this mail only: 451, the others are stored
                else:
                    done.set_result(new)

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.in_flight += 1
        self.idle.clear()
        try:
            stored = await self._store(envelope)
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
    handler: StoringHandler, host: str, port: int, lmtp: bool, settings: Settings,
    gate: ConnectionGate | None = None,
) -> Listener:
    """Listen on ``host:port``; ``gate`` caps the sessions open on this and the other
    listeners sharing it, in all and per client address (default: caps of
    ``max_mail_connections`` and ``max_mail_connections_per_client`` for this one)."""
    protocols: list[SMTP] = []
    kind = QuickLMTP if lmtp else QuickSMTP
    hard_limit = settings.max_message_bytes * HARD_LIMIT_FACTOR
    gate = gate if gate is not None else ConnectionGate(
        settings.max_mail_connections, settings.max_mail_connections_per_client)

    def open_session() -> QuickLMTP | QuickSMTP:
        proto = kind(handler, data_size_limit=hard_limit, hostname=settings.domain,
                     ident="judge", timeout=settings.mail_idle_seconds)
        protocols.append(proto)
        if len(protocols) > 256:
            # forget closed sessions so a long-running server does not keep them all
            protocols[:] = [p for p in protocols if getattr(p, "transport", None) is not None]
        return proto

    # a backlog for a burst: past it the kernel drops connection attempts, and each is
    # retried by its client a second or more later, however free the judge is
    server = await asyncio.get_running_loop().create_server(
        lambda: MailDoor(gate, open_session), host=host, port=port, backlog=BACKLOG)
    listener = Listener(handler, server, protocols)
    log.info("%s listener on %s:%d", "LMTP" if lmtp else "SMTP", host, listener.port)
    return listener
