"""Work caused by one hostile mail, handled by the inbox drain on a real database.

For each hostile mail of issue 10 (points 1 and 2) prints the seconds its handling took, the
mails it made the judge queue, how many distinct addresses they went to, and the size of the
reply. Nothing is asserted; the tests check the bounds, this shows the cost.

    python benchmarks/hostile_work.py [--database-url URL]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from judge.mail.decoding import decode
from judge.service import inbox
from judge.service.commands.session import MailSession
from judge.service.dispatch import dispatch
from judge.service.uow import IncomingMail
from judge.settings import Settings
from judge.storage import Database, guardrepo, mailrepo

JUDGE = "judge@bench.example"
GM = "gm@bench.example"
PLAYERS = [f"p{i}@bench.example" for i in range(1, 8)]
NOW = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)


def _direct(db: Database, settings: Settings, sender: str, body: str) -> None:
    mail = IncomingMail(from_addr=sender, to=(JUDGE,), subject="setup",
                        lines=tuple(body.splitlines()), text=body)
    with db.session() as session:
        dispatch(MailSession(mail=mail, settings=settings, now=NOW, session=session))


def setup(db: Database, settings: Settings) -> str:
    """A started game; returns the address that plays France."""
    with db.session() as session:
        for address in (GM, *PLAYERS):
            guardrepo.confirm_account(session, address, NOW)
    _direct(db, settings, GM, "CREATE bench gmpass")
    for i, player in enumerate(PLAYERS, start=1):
        _direct(db, settings, player, f"JOIN bench pw{i}")
    _direct(db, settings, GM, "SIGNON GM bench gmpass\nSTART")
    with db.session() as session:
        from judge.storage import gamerepo
        game = gamerepo.game_by_name(session, "bench")
        assert game is not None
        for seat in gamerepo.seats(session, game.id):
            if seat.power == "FRANCE":
                account = session.get(type(guardrepo.account_by_address(session, GM)),
                                      seat.account_id)
                assert account is not None
                return str(account.address)
    raise RuntimeError("no France")


def run_one(db: Database, settings: Settings, sender: str, body: str, when: datetime
            ) -> tuple[float, int, int, int]:
    raw = (f"From: {sender}\r\nTo: {JUDGE}\r\nSubject: x\r\nMessage-ID: <{when.timestamp()}@b>"
           "\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body.replace("\n", "\r\n")
           ).encode()
    with db.session() as session:
        before = max((r.id for r in mailrepo.list_outbound(session, limit=1)), default=0)
        mailrepo.store_inbound(session, raw=raw, message_id="", envelope_from=sender,
                               envelope_to=[JUDGE], source="lmtp", now=when,
                               max_bytes=settings.max_message_bytes)
    started = time.perf_counter()
    inbox.process_one(db, settings, decode, now=lambda: when)
    took = time.perf_counter() - started
    with db.session() as session:
        rows = [r for r in mailrepo.list_outbound(session, limit=100_000) if r.id > before]
    reply = max((len(r.body) for r in rows if r.to_addr == sender), default=0)
    return took, len(rows), len({r.to_addr for r in rows}), reply


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="judge-hostile-"))
    url = args.database_url or f"sqlite:///{folder / 'judge.db'}"
    settings = Settings(address=JUDGE, database_url=url)
    db = Database(url)
    db.migrate()
    france = setup(db, settings)
    # a stranger signs on from a new address: sign-on works from anywhere
    cases = {
        "stranger CREATE + 1500 SET ADDRESS": ("stranger@evil.example", "CREATE evil pw\n" + "".join(
            f"SET ADDRESS victim{i}@innocent.example\n" for i in range(1500))),
        "1000 SIGNON FRANCE wrongN": ("stranger@evil.example", "".join(
            f"SIGNON FRANCE bench wrong{i}\n" for i in range(1000))),
        "1500 A PAR - BUR / STATUS pairs": (
            france, f"SIGNON FRANCE bench pw{PLAYERS.index(france) + 1}\n"
            + "A PAR - BUR\nSTATUS\n" * 1500),
        "forged OBSERVE": ("victim@innocent.example", "OBSERVE bench\n"),
    }
    print(f"database: {url.split(':')[0]}")
    print(f"{'mail':38} {'seconds':>8} {'queued':>7} {'addresses':>10} {'reply bytes':>12}")
    when = NOW
    for name, (sender, body) in cases.items():
        when += timedelta(minutes=1)
        took, queued, addresses, reply = run_one(db, settings, sender, body, when)
        print(f"{name:38} {took:8.2f} {queued:7d} {addresses:10d} {reply:12d}")
    db.dispose()


if __name__ == "__main__":
    main()
