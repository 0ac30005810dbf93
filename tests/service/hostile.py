"""A judge fed raw mail the way the listeners feed it: stored inbound rows, handled by the
inbox drain with the real decoder, on a real database. What it sends is read back from the
outbox, per inbound mail."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime, timedelta

from judge.mail.decoding import decode
from judge.service import confirm, inbox
from judge.settings import Settings
from judge.storage import Database, guardrepo, mailrepo
from judge.storage.models import InboundMail, OutboundMail
from tests.service.commands_harness import DOMAIN, START

JUDGE = f"judge@{DOMAIN}"


def raw_mail(sender: str, body: str, subject: str = "orders", headers: str = "",
             from_header: str | None = None, to: str = JUDGE) -> bytes:
    mid = f"<{os.urandom(8).hex()}@example.org>"
    head = (f"From: {from_header if from_header is not None else sender}\r\nTo: {to}\r\n"
            f"Subject: {subject}\r\nMessage-ID: {mid}\r\n{headers}"
            "Content-Type: text/plain; charset=utf-8\r\n")
    return (head + "\r\n" + body.replace("\n", "\r\n")).encode("utf-8")


@dataclass
class Out:
    id: int
    to: str
    subject: str
    body: str
    kind: str
    headers: dict[str, str]
    in_reply_to: str | None


@dataclass
class Judge:
    db: Database
    settings: Settings
    now: datetime = START

    @classmethod
    def on(cls, db: Database, **settings: object) -> Judge:
        values: dict[str, object] = {"address": JUDGE, **settings}
        return cls(db, Settings(**values))  # type: ignore[arg-type]

    def receive(self, raw: bytes, envelope_from: str = "") -> list[Out]:
        """Store one raw mail, drain the inbox (held mails confirmed meanwhile included),
        return what was queued since."""
        before = self.last_outbound()
        with self.db.session() as session:
            row = mailrepo.store_inbound(
                session, raw=raw, message_id="", envelope_from=envelope_from,
                envelope_to=[JUDGE], source="lmtp", now=self.now,
                max_bytes=self.settings.max_message_bytes)
            assert row is not None
        self.drain()
        self.now += timedelta(minutes=1)
        return self.outbound_after(before)

    def send(self, sender: str, body: str, **kw: object) -> list[Out]:
        return self.receive(raw_mail(sender, body, **kw), envelope_from=sender)  # type: ignore[arg-type]

    def drain(self) -> None:
        while inbox.process_one(self.db, self.settings, decode, now=lambda: self.now):
            pass

    def last_outbound(self) -> int:
        with self.db.session() as session:
            rows = mailrepo.list_outbound(session, limit=1)
            return max((r.id for r in rows), default=0)

    def outbound_after(self, after: int) -> list[Out]:
        with self.db.session() as session:
            rows = [r for r in mailrepo.list_outbound(session, limit=100_000) if r.id > after]
            return [Out(r.id, r.to_addr, r.subject, r.body, r.kind, dict(r.headers or {}),
                        r.in_reply_to) for r in sorted(rows, key=lambda r: r.id)]

    def outbox(self) -> list[OutboundMail]:
        with self.db.session() as session:
            return list(mailrepo.list_outbound(session, limit=100_000))

    def inbound(self) -> list[InboundMail]:
        with self.db.session() as session:
            return list(mailrepo.list_inbound(session))

    def confirm(self, sent: list[Out], address: str, extra: str = "") -> list[Out]:
        """``address`` answers the confirmation among ``sent`` by replying to it with the
        ``CONFIRM <token>`` line (a reply that only keeps the subject confirms nothing)."""
        token = next(confirm.token_in_subject(m.subject) for m in sent
                     if m.to == address and confirm.token_in_subject(m.subject))
        body = f"CONFIRM {token} {extra}".strip() + "\n\n> quoted text\n"
        return self.send(address, body, subject=f"Re: confirm {token}")

    def confirmed(self, *addresses: str) -> None:
        with self.db.session() as session:
            for address in addresses:
                guardrepo.confirm_account(session, address, self.now)
