"""Relay connections kept between rounds, and the plain-text fast message builder."""

from __future__ import annotations

import asyncio
import base64
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from judge.mail import transport as transport_module
from judge.mail.outbox import OutboxRunner
from judge.mail.sender import build_message, fast_message_bytes, message_bytes
from judge.service.uow import outbound_row
from judge.settings import Settings
from judge.storage import Database
from judge.storage.mailrepo import enqueue_outbound, list_outbound

from .peers import CapturingRelay, RelayHandler, free_port


@dataclass
class DroppingHandler(RelayHandler):
    """The capturing relay, able to drop connections: ``mail_script`` answers MAIL commands
    in turn ("ok", "421": say 421 and close, "drop": close without a word);
    ``per_connection``: 421 and close at the MAIL after that many messages on a connection
    (Exim's smtp_accept_max_per_connection)."""

    mail_script: list[str] = field(default_factory=list)
    per_connection: int = 0
    peers: list[Any] = field(default_factory=list)
    servers: list[SMTP] = field(default_factory=list)
    on_connection: Counter[Any] = field(default_factory=Counter)

    async def handle_MAIL(self, server: SMTP, session: Session, envelope: Envelope,
                          address: str, mail_options: list[str]) -> str:
        self.servers.append(server)
        action = self.mail_script.pop(0) if self.mail_script else "ok"
        if self.per_connection and self.on_connection[session.peer] >= self.per_connection:
            action = "421"
        assert server.transport is not None
        if action == "421":
            asyncio.get_running_loop().call_soon(server.transport.close)
            return "421 4.7.0 closing connection"
        if action == "drop":
            server.transport.abort()
            return "250 OK"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        answer = await super().handle_DATA(server, session, envelope)
        if answer.startswith("250"):
            self.peers.append(session.peer)
            self.on_connection[session.peer] += 1
        return answer


class DroppingRelay(CapturingRelay):
    def __init__(self) -> None:
        self.handler = DroppingHandler()
        self.port = free_port()
        self.controller = Controller(self.handler, hostname="127.0.0.1", port=self.port)

    def drop_all(self) -> None:
        """Close every open connection from the relay's side (idle timeout, restart)."""
        done = asyncio.Event()

        def close() -> None:
            for server in self.handler.servers:
                if server.transport is not None:
                    server.transport.close()

        self.controller.loop.call_soon_threadsafe(close)
        del done


@pytest.fixture
def dropping() -> Iterator[DroppingRelay]:
    relay = DroppingRelay().start()
    yield relay
    relay.stop()


@pytest.fixture
def sender_settings(settings: Settings, dropping: DroppingRelay) -> Settings:
    return replace(settings, smtp_port=dropping.port, smtp_connections=1)


@pytest.fixture
def db(sender_settings: Settings) -> Iterator[Database]:
    database = Database(sender_settings.database_url)
    database.migrate()
    yield database
    database.dispose()


def enqueue(db: Database, settings: Settings, count: int = 1) -> list[str]:
    ids = []
    with db.session() as s:
        for n in range(count):
            row = outbound_row(settings, datetime.now(UTC), to=f"p{n}@example.org",
                               subject="Bulletin", body=f"text {n}\n")
            enqueue_outbound(s, row)
            ids.append(row.message_id)
    return ids


def outbox(db: Database) -> list[Any]:
    with db.session() as s:
        return sorted(list_outbound(s), key=lambda r: r.id)


async def wait_closed(sender: OutboxRunner) -> None:
    """Until the client has seen the relay close its kept connection."""
    for _ in range(200):
        if not any(t.client is not None and t.client.is_connected for t in sender.transports):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the client never saw the connection close")


async def test_connection_is_kept_between_rounds(db: Database, sender_settings: Settings,
                                                 dropping: DroppingRelay) -> None:
    sender = OutboxRunner(db, sender_settings)
    try:
        enqueue(db, sender_settings)
        assert await sender.send_due() == 1
        enqueue(db, sender_settings)
        assert await sender.send_due() == 1
    finally:
        await sender.close()
    assert len(set(dropping.handler.peers)) == 1
    assert [(r.status, r.tries) for r in outbox(db)] == [("sent", 1), ("sent", 1)]


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
async def test_dropped_kept_connection_is_reopened_without_a_try(
    db: Database, sender_settings: Settings, dropping: DroppingRelay
) -> None:
    sender = OutboxRunner(db, sender_settings)
    try:
        enqueue(db, sender_settings)
        assert await sender.send_due() == 1
        dropping.drop_all()
        await wait_closed(sender)
        enqueue(db, sender_settings)
        assert await sender.send_due() == 1
    finally:
        await sender.close()
    assert len(set(dropping.handler.peers)) == 2
    assert [(r.status, r.tries, r.last_error) for r in outbox(db)] == [("sent", 1, None)] * 2


@pytest.mark.parametrize("action", ["421", "drop"])
async def test_kept_connection_lost_unnoticed_is_reopened_without_a_try(
    db: Database, sender_settings: Settings, dropping: DroppingRelay, action: str
) -> None:
    """The client still believes the kept connection open; the relay closes it at the next
    MAIL (421 as on an idle timeout, or without a word)."""
    sender = OutboxRunner(db, sender_settings)
    try:
        enqueue(db, sender_settings)
        assert await sender.send_due() == 1
        dropping.handler.mail_script.append(action)
        enqueue(db, sender_settings, 3)
        assert await sender.send_due() == 3
    finally:
        await sender.close()
    rows = outbox(db)
    assert [(r.status, r.tries, r.last_error) for r in rows] == [("sent", 1, None)] * 4
    assert len(dropping.messages) == 4
    assert len(set(dropping.handler.peers)) == 2


async def test_relay_closing_after_n_messages_per_connection(
    db: Database, sender_settings: Settings, dropping: DroppingRelay
) -> None:
    dropping.handler.per_connection = 2
    enqueue(db, sender_settings, 7)
    sender = OutboxRunner(db, sender_settings)
    try:
        assert await sender.send_due() == 7
    finally:
        await sender.close()
    assert [(r.status, r.tries, r.last_error) for r in outbox(db)] == [("sent", 1, None)] * 7
    assert sorted(Counter(dropping.handler.peers).values()) == [1, 2, 2, 2]


async def test_421_on_a_fresh_connection_counts_a_try(
    db: Database, sender_settings: Settings, dropping: DroppingRelay
) -> None:
    dropping.handler.mail_script.append("421")
    enqueue(db, sender_settings, 2)
    sender = OutboxRunner(db, sender_settings)
    try:
        await sender.send_due()
        rows = outbox(db)
        assert rows[0].status == "pending" and rows[0].tries == 1
        assert "421" in (rows[0].last_error or "")
        for _ in range(50):
            await sender.send_due()
            if all(r.status == "sent" for r in outbox(db)):
                break
            await asyncio.sleep(0.1)
    finally:
        await sender.close()
    assert [r.status for r in outbox(db)] == ["sent", "sent"]
    assert outbox(db)[0].tries == 2 and len(dropping.messages) == 2


async def test_idle_connection_past_its_time_is_replaced(
    db: Database, sender_settings: Settings, dropping: DroppingRelay,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transport_module, "KEEP_IDLE_SECONDS", 0.0)
    sender = OutboxRunner(db, sender_settings)
    try:
        for _ in range(2):
            enqueue(db, sender_settings)
            assert await sender.send_due() == 1
    finally:
        await sender.close()
    assert len(set(dropping.handler.peers)) == 2
    assert [r.tries for r in outbox(db)] == [1, 1]


# --- the fast message builder -----------------------------------------------------------

SETTINGS = Settings(address="judge@example.org")
WHEN = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
LONG = ("Armata Venezia - Trieste, Flotta Napoli - Ionio, Armata Roma - Venezia. " * 3).strip()

ROWS: dict[str, dict[str, Any]] = {
    "ascii reply": dict(to="p@example.org", subject="Re: orders", body="Orders received.\n",
                        kind="reply", in_reply_to="<a@b.org>", references="<z@b.org> <a@b.org>"),
    "ascii bulletin": dict(to="p@example.org", subject="alpha: S1901M results",
                           body="A PAR - BUR succeeds.\nF BRE - MAO succeeds.\n",
                           kind="bulletin", game="alpha"),
    "italian": dict(to="giocatore@example.it", subject="Re: ordini",
                    body="Perché l'Italia è già lì: Armata Venezia → Trieste.\nCiò è "
                         "così.\n", kind="reply", in_reply_to="<i@x.it>"),
    "french": dict(to="joueur@example.fr", subject="Re: ordres",
                   body="Ordres reçus : A Paris - Bourgogne réussit.\nÉtat : été 1901, "
                        "côte sud.\n", kind="reply"),
    "french bulletin": dict(to="joueur@example.fr", subject="partie-beta: P1901M",
                            body="Résultats du printemps 1901 — « Bourgogne ».\n",
                            kind="bulletin", game="partie-beta"),
    "long body lines": dict(to="p@example.org", subject="Re: long", kind="reply",
                            body=(LONG + "\n") * 3 + "x" * 990 + "\n"),
    "long accented lines": dict(to="p@example.org", subject="Re: long", kind="reply",
                                body=("è" * 400 + "\n") * 2),
    "no final newline": dict(to="p@example.org", subject="Re: x", body="HELP", kind="reply"),
    "empty body": dict(to="p@example.org", subject="Re: x", body="", kind="reply"),
    "subject 78": dict(to="p@example.org", subject="Re: " + "word " * 12 + "abcde",
                       body="x\n"),
    "subject 79": dict(to="p@example.org", subject="Re: " + "word " * 12 + "abcdef",
                       body="x\n"),
    "long subject": dict(to="p@example.org", subject="Re: " + LONG, body="x\n"),
    "accented subject": dict(to="p@example.org", subject="Re: État des unités",
                             body="x\n"),
    "long references": dict(to="p@example.org", subject="Re: x", body="x\n", kind="reply",
                            in_reply_to="<c@b.org>",
                            references=" ".join(f"<{n}{'m' * 20}@b.org>" for n in range(5))),
    "subject with commas": dict(to="p@example.org", subject="Re: a, b; c  d", body="x\n"),
    "attachments": dict(to="p@example.org", subject="alpha: map", body="Carte jointe.\n",
                        kind="bulletin", game="alpha",
                        attachments=[{"filename": "map.txt", "mime": "text/plain",
                                      "data_b64": base64.b64encode(b"map").decode()}]),
}

FAST = {"ascii reply", "ascii bulletin", "italian", "french", "french bulletin",
        "long body lines", "long accented lines", "no final newline", "empty body",
        "subject 78", "subject with commas"}


@pytest.mark.parametrize("eight_bit", [True, False])
@pytest.mark.parametrize("name", sorted(ROWS))
def test_fast_builder_is_byte_identical(name: str, eight_bit: bool) -> None:
    row = outbound_row(SETTINGS, WHEN, **ROWS[name])
    slow = message_bytes(build_message(row, SETTINGS, eight_bit))
    fast = fast_message_bytes(row, SETTINGS, eight_bit)
    takes_fast = name in FAST and (eight_bit or (row.body or "").isascii())
    assert (fast is not None) == takes_fast
    if fast is not None:
        assert fast == slow


def test_shared_body_builder_is_the_email_packages_bytes_but_the_boundary() -> None:
    """Rows carrying the same text and map share one built MIME body; each message is the
    email package's bytes for that row (its MIME boundary aside, one per shared body)."""
    import re

    from judge.mail.sender import shared_message_bytes

    parts: dict = {}
    rows = [outbound_row(SETTINGS, WHEN, **{**ROWS["attachments"], "to": f"p{n}@example.org"})
            for n in range(3)]
    built = [shared_message_bytes(row, SETTINGS, None, parts) for row in rows]
    assert len(parts) == 1  # built once for the three

    def unbounded(data: bytes) -> bytes:
        boundary = re.search(rb'boundary="([^"]+)"', data)
        assert boundary is not None
        return data.replace(boundary.group(1), b"BOUNDARY")

    for row, data in zip(rows, built, strict=True):
        assert data is not None and f"To: {row.to_addr}\r\n".encode() in data
        assert unbounded(data) == unbounded(message_bytes(build_message(row, SETTINGS)))
    # a map-sized attachment (encoded in one piece, not by the email package): the same bytes
    png = bytes(range(256)) * 400 + b"tail"
    big = {**ROWS["attachments"], "attachments": [
        {"filename": "map.png", "mime": "image/png", "data_b64": base64.b64encode(png).decode()}]}
    for body in ("Carte jointe.\n", "Résultats\n" * 40):
        row = outbound_row(SETTINGS, WHEN, **{**big, "body": body})
        data = shared_message_bytes(row, SETTINGS, None, parts)
        assert data is not None
        assert unbounded(data) == unbounded(message_bytes(build_message(row, SETTINGS)))
    # a header the email package must fold or encode: its way, not this one
    accented = outbound_row(SETTINGS, WHEN, **{**ROWS["attachments"], "subject": "État"})
    assert shared_message_bytes(accented, SETTINGS, None, parts) is None
