"""Drive the dispatcher like the inbox drain does, one mail per transaction, and keep what
each mail queued (replies, copies, press, notices) for the assertions."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from judge.service import confirm
from judge.service.commands.session import MailSession
from judge.service.dispatch import dispatch
from judge.service.uow import IncomingMail
from judge.settings import Settings
from judge.storage import Database, gamerepo, guardrepo, mailrepo
from judge.storage.models import Game, Seat

START = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
DOMAIN = "judge.example"
GM = "gm@example.org"
PLAYERS = [f"p{i}@example.org" for i in range(1, 8)]


@dataclass(frozen=True)
class Sent:
    to: str
    subject: str
    body: str
    kind: str
    headers: dict[str, Any]
    message_id: str = ""  # what a reply to it names in References


@dataclass
class Harness:
    db: Database
    settings: Settings = field(default_factory=lambda: Settings(address=f"judge@{DOMAIN}"))
    now: datetime = START
    outbox: list[Sent] = field(default_factory=list)
    # addresses that answered a confirmation before the test starts (the GM and players);
    # any other sender is a stranger whose JOIN/CREATE/OBSERVE is held until it confirms
    confirmed: tuple[str, ...] = (GM, *PLAYERS)

    def __post_init__(self) -> None:
        with self.db.session() as session:
            for address in self.confirmed:
                guardrepo.confirm_account(session, address, self.now)

    def mail(self, sender: str, body: str, to: tuple[str, ...] = (), cc: tuple[str, ...] = (),
             subject: str = "orders", references: tuple[str, ...] = ()) -> list[Sent]:
        incoming = IncomingMail(from_addr=sender, to=to or (self.settings.address,), cc=cc,
                                subject=subject, message_id=f"<{len(self.outbox)}@test>",
                                references=references, text=body,
                                lines=tuple(body.splitlines()))
        with self.db.session() as session:
            before = max((r.id for r in mailrepo.list_outbound(session, limit=1)), default=0)
            ctx = MailSession(mail=incoming, settings=self.settings, now=self.now,
                              session=session)
            dispatch(ctx)
            session.flush()
        # everything queued in this transaction, also by the turns code (bulletins), read
        # after the commit: a results bulletin is rendered then (judge.service.rendering)
        with self.db.session() as session:
            rows = [r for r in mailrepo.list_outbound(session, limit=10_000) if r.id > before]
            sent = [Sent(r.to_addr, r.subject, r.body, r.kind, dict(r.headers or {}),
                         r.message_id)
                    for r in sorted(rows, key=lambda r: r.id)]
        self.outbox.extend(sent)
        self.now += timedelta(minutes=1)
        return sent

    def confirm(self, address: str) -> None:
        """``address`` answered a confirmation earlier (what tests of other things assume)."""
        with self.db.session() as session:
            guardrepo.confirm_account(session, address, self.now)

    def answer_confirmation(self, sent: list[Sent], address: str, extra: str = "") -> list[Sent]:
        """Answer, from ``address``, the confirmation among ``sent`` mailed to it."""
        token = next(confirm.token_in_subject(m.subject) for m in sent
                     if m.to == address and confirm.token_in_subject(m.subject))
        return self.mail(address, f"CONFIRM {token} {extra}".strip(), subject="confirmed")

    def reply(self, sender: str, body: str, **kw: Any) -> str:
        """The answer to the sender (the first mail queued to them)."""
        sent = self.mail(sender, body, **kw)
        mine = [m for m in sent if m.to == sender and m.kind.startswith("reply")]
        assert mine, f"no reply to {sender}: {sent}"
        return mine[0].body

    def game(self, name: str) -> Game:
        with self.db.session() as session:
            game = gamerepo.game_by_name(session, name)
            assert game is not None
            return game

    def seats(self, name: str) -> dict[str, Seat]:
        with self.db.session() as session:
            game = gamerepo.game_by_name(session, name)
            assert game is not None
            return {s.power: s for s in gamerepo.seats(session, game.id)}

    def power_of(self, name: str, address: str) -> str:
        with self.db.session() as session:
            game = gamerepo.game_by_name(session, name)
            assert game is not None
            account = gamerepo.account_for(session, address, self.now)
            for seat in gamerepo.seats(session, game.id):
                if seat.account_id == account.id:
                    return seat.power
        raise AssertionError(f"{address} has no seat in {name}")

    def started_game(self, name: str = "alpha", options: str = "", lang: str = "en") -> dict[
            str, str]:
        """Create, fill and start a game; returns power -> player address."""
        create = {"en": "CREATE", "it": "CREA", "fr": "CREER"}[lang]
        join = {"en": "JOIN", "it": "ISCRIVI", "fr": "INSCRIRE"}[lang]
        self.mail(GM, f"{create} {name} gmpass\n{options}")
        for i, player in enumerate(PLAYERS, start=1):
            self.mail(player, f"{join} {name} pw{i}")
        self.mail(GM, f"SIGNON GM {name} gmpass\nSTART")
        return {self.power_of(name, p): p for p in PLAYERS}


def password_of(address: str) -> str:
    return f"pw{PLAYERS.index(address) + 1}"
