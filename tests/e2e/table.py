"""The game table of an end-to-end test: mail clients for the GM and the players, a clock the
test moves, and the mail the judge sent, read back from the capturing relay."""

from __future__ import annotations

import asyncio
import email.policy
from dataclasses import dataclass
from datetime import datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage

from sqlalchemy import select

from judge.app import AppContext
from judge.service import wakeups
from judge.service.confirm import token_in_subject
from judge.storage.models import Game, InboundMail, OutboundMail
from tests.mail.peers import CapturingRelay, deliver, make_mail


class Clock:
    """``now`` for the whole judge: only the test moves it."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> datetime:
        self.now += delta
        return self.now


@dataclass
class Mail:
    to: str
    subject: str
    body: str
    headers: str  # every header line, for the address checks

    @property
    def text(self) -> str:
        return self.headers + "\n" + self.body


class Table:
    def __init__(self, ctx: AppContext, relay: CapturingRelay, clock: Clock) -> None:
        self.ctx = ctx
        self.relay = relay
        self.clock = clock
        self.settings = ctx.settings
        self.db = ctx.db

    # ------------------------------------------------------------------ sending

    async def send(self, sender: str, body: str, subject: str = "orders",
                   cc: tuple[str, ...] = (), to: str | None = None) -> None:
        """One mail from ``sender`` to the judge (or one of its anonymous addresses), then
        wait until it is handled and answered."""
        before = len(self.relay.messages)
        await self._deliver(sender, body, subject, cc, to)
        # a new address is asked to confirm: the player answers, as a person would
        for captured in self.relay.messages[before:]:
            msg = message_from_bytes(captured.raw)
            token = token_in_subject(str(msg.get("Subject", "")))
            if token and sender in captured.rcpt_tos:
                await self._deliver(sender, f"CONFIRM {token}\n", f"Re: confirm {token}", (),
                                    None)

    async def _deliver(self, sender: str, body: str, subject: str, cc: tuple[str, ...],
                       to: str | None) -> None:
        extra = f"Cc: {', '.join(cc)}\r\n" if cc else ""
        rcpt = to or self.settings.address
        raw = make_mail(body, sender=sender, to=rcpt, subject=subject, extra_headers=extra)
        code = await asyncio.to_thread(deliver, self.ctx.ports["lmtp"], raw, sender, rcpt)
        assert code == 250
        await self.settle()

    async def settle(self, timeout: float = 30.0) -> None:
        """Wait until every stored mail is handled and every queued mail has left."""
        for _ in range(int(timeout / 0.05)):
            busy, failed = await asyncio.to_thread(self._busy)
            assert not failed, f"mail handling failed:\n{failed}"
            if not busy:
                return
            self.ctx.wake_outbox()
            await asyncio.sleep(0.05)
        raise AssertionError("the judge did not finish its mail in time")

    def _busy(self) -> tuple[bool, str]:
        with self.db.session() as s:
            inbound = list(s.scalars(select(InboundMail.status)))
            failed = "\n".join(e for e in s.scalars(
                select(InboundMail.error).where(InboundMail.status == "failed")) if e)
            # mail held back on purpose (grey press waits for its hourly batch) is not due yet
            # "rendering": a results bulletin whose map is being drawn after its turn's commit
            pending = s.scalars(select(OutboundMail.id).where(
                OutboundMail.status.in_(("rendering", "pending", "sending")),
                OutboundMail.next_attempt_at <= self.clock.now)).first()
        return ("new" in inbound or "processing" in inbound or pending is not None), failed

    # ------------------------------------------------------------------ the clock

    async def at(self, when: datetime) -> None:
        """Move the clock and let the deadline machinery do what is due."""
        self.clock.now = when
        await asyncio.to_thread(wakeups.wake, self.db, self.settings, when)
        self.ctx.wake_outbox()
        await self.settle()

    async def later(self, delta: timedelta) -> None:
        await self.at(self.clock.now + delta)

    def deadline(self, name: str) -> datetime:
        with self.db.session() as s:
            game = s.scalar(select(Game).where(Game.name == name))
            assert game is not None and game.deadline is not None
            return game.deadline

    def game(self, name: str) -> Game:
        with self.db.session() as s:
            game = s.scalar(select(Game).where(Game.name == name))
            assert game is not None
            return game

    # ------------------------------------------------------------------ reading

    def mails(self) -> list[Mail]:
        found = []
        for captured in self.relay.messages:
            msg = message_from_bytes(captured.raw, policy=email.policy.default)
            assert isinstance(msg, EmailMessage)
            part = msg.get_body(preferencelist=("plain",))
            body = part.get_content().replace("\r\n", "\n") if part is not None else ""
            headers = "\n".join(f"{k}: {v}" for k, v in msg.items())
            for rcpt in captured.rcpt_tos:
                found.append(Mail(rcpt.lower(), str(msg.get("Subject", "")), body, headers))
        return found

    def mails_to(self, address: str) -> list[Mail]:
        return [m for m in self.mails() if m.to == address.lower()]

    def last_to(self, address: str, subject_part: str) -> Mail:
        matching = [m for m in self.mails_to(address) if subject_part in m.subject]
        assert matching, f"no mail to {address} about {subject_part!r}: " + repr(
            [m.subject for m in self.mails_to(address)])
        return matching[-1]
