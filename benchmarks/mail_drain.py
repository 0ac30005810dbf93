"""Where the inbox drain's time goes on real order mails: CPU per mail by kind of work and SQL
statements per mail, in process (no LMTP, no relay), beside the same mails handled one per
transaction (the peer: the drain without group commit).

    python benchmarks/mail_drain.py [--mails 300] [--statements]

The mails are those of ``mail_throughput.py --scenario signon``: each player of a started game
sends ``SIGNON`` with his password (production scrypt cost) and three orders. Prints numbers,
asserts nothing. The breakdown wraps the functions that do each kind of work (decoding, command
and order parsing, scrypt, SQL through the session, reply rendering, outbox rows, masking the
raw copy) with a thread-CPU timer, time counted to the innermost kind; "other" is the rest
(the handlers' own logic, building statements, ORM objects). ``--statements`` lists every
statement per mail with the judge functions that issued it.
"""

from __future__ import annotations

import argparse
import collections
import functools
import hashlib
import sys
import tempfile
import time
import traceback
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import mail_throughput  # noqa: E402  (the signon scenario's game and mails)
from sqlalchemy import event  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from judge.mail.decoding import decode  # noqa: E402
from judge.service import inbox  # noqa: E402
from judge.settings import Settings  # noqa: E402
from judge.storage import Database  # noqa: E402
from judge.storage.mailrepo import store_received_many  # noqa: E402


class Clock:
    """Thread CPU time per kind of work, each moment counted to the innermost kind."""

    def __init__(self) -> None:
        self.spent: collections.Counter[str] = collections.Counter()
        self.stack: list[list[Any]] = []  # [kind, start, time of nested kinds]

    def wrap(self, owner: Any, name: str, kind: str) -> None:
        original = getattr(owner, name)
        setattr(owner, name, self.timed(original, kind))

    def timed(self, fn: Callable[..., Any], kind: str) -> Callable[..., Any]:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if self.stack and self.stack[-1][0] == kind:
                return fn(*args, **kwargs)
            self.stack.append([kind, time.thread_time(), 0.0])
            try:
                return fn(*args, **kwargs)
            finally:
                _, start, nested = self.stack.pop()
                total = time.thread_time() - start
                self.spent[kind] += total - nested
                if self.stack:
                    self.stack[-1][2] += total
        return timed


def instrument(clock: Clock) -> Callable[..., Any]:
    """Wrap the functions of each kind of work; returns the timed decoder for the drain."""
    import judge.parsing.commands as parsing
    import judge.parsing.report as report
    import judge.service.commands as commands
    import judge.service.commands.order_commands as order_commands
    import judge.service.commands.reply_text as reply_text
    import judge.service.uow as uow
    import judge.service.usecases as usecases

    clock.wrap(parsing, "parse_mail", "parsing (commands, orders)")
    clock.wrap(commands, "parse_mail", "parsing (commands, orders)")
    for module in (report, usecases, order_commands):
        if hasattr(module, "parse_orders"):
            clock.wrap(module, "parse_orders", "parsing (commands, orders)")
    clock.wrap(hashlib, "scrypt", "scrypt")
    clock.wrap(reply_text, "page", "reply rendering")
    clock.wrap(reply_text, "message", "reply rendering")
    clock.wrap(order_commands, "_notation", "reply rendering")
    clock.wrap(uow, "outbound_row", "outbox rows")
    clock.wrap(inbox, "insert_outbound", "outbox rows")
    clock.wrap(inbox, "_masked", "masking the raw copy")
    for name in ("execute", "scalar", "scalars", "get", "flush", "commit"):
        clock.wrap(Session, name, "SQL (session, ORM loading)")
    return clock.timed(decode, "decoding (MIME)")


def stored_mails(url: str, settings: Settings, n: int) -> Database:
    mail_throughput.setup_game(url)
    db = Database(url)
    now = datetime.now(UTC)
    mails = []
    for i in range(n):
        mid = f"<{uuid.uuid4().hex}@bench>"
        sender, raw = mail_throughput.orders_mail(mid, i)
        mails.append({"raw": raw, "message_id": mid, "envelope_from": sender,
                      "envelope_to": ["judge@example.org"], "source": "lmtp", "now": now,
                      "max_bytes": settings.max_message_bytes})
    for start in range(0, n, 16):
        store_received_many(db, mails[start:start + 16])
    return db


def drain(db: Database, settings: Settings, decoder: Callable[..., Any], batch: int,
          ) -> tuple[int, float, float]:
    """Handle every stored mail; (mails, CPU s, wall s). The first round (the players'
    first SIGNONs: scrypt, then remembered matches) is not counted."""
    ahead = inbox.PreparedAhead()
    first = inbox.drain_some(db, settings, decoder, limit=batch, ahead=ahead)
    cpu, wall, done = time.thread_time(), time.monotonic(), 0
    while got := inbox.drain_some(db, settings, decoder, limit=batch, ahead=ahead):
        done += len(got)
    assert first, "nothing to drain"
    return done, time.thread_time() - cpu, time.monotonic() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=300)
    parser.add_argument("--statements", action="store_true",
                        help="list the statements per mail and where they come from")
    args = parser.parse_args()
    settings = Settings(address="judge@example.org",
                        replies_per_address_per_day=args.mails + 10,
                        anonymous_replies_per_address_per_day=args.mails + 10,
                        unread_replies_per_address_per_day=args.mails + 10)
    from judge.service.commands import reply_text

    reply_text.warm()
    with tempfile.TemporaryDirectory() as tmp:
        # the peer first, uninstrumented: one mail per transaction, then batches of 16
        db = stored_mails(f"sqlite:///{tmp}/one.db", settings, args.mails)
        one, one_cpu, one_wall = drain(db, settings, decode, 1)
        db.dispose()
        db = stored_mails(f"sqlite:///{tmp}/batch.db", settings, args.mails)
        many, many_cpu, many_wall = drain(db, settings, decode, inbox.DRAIN_BATCH)
        db.dispose()
        # then instrumented (slower: the timers themselves cost)
        clock = Clock()
        db = stored_mails(f"sqlite:///{tmp}/timed.db", settings, args.mails)
        statements: collections.Counter[str] = collections.Counter()

        def seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
            key = " ".join(statement.split())[:60]
            if args.statements:
                where = [f"{f.name}:{f.lineno}" for f in traceback.extract_stack()[:-1]
                         if "/judge/" in f.filename]
                key = f"{key:60}  <- {' < '.join(reversed(where[-4:]))}"
            statements[key] += 1

        timed_decode = instrument(clock)
        event.listen(db.engine, "before_cursor_execute", seen)
        # the first round is not counted: forget what it did
        ahead = inbox.PreparedAhead()
        inbox.drain_some(db, settings, timed_decode, limit=inbox.DRAIN_BATCH, ahead=ahead)
        clock.spent.clear()
        statements.clear()
        cpu, timed = time.thread_time(), 0
        while got := inbox.drain_some(db, settings, timed_decode, limit=inbox.DRAIN_BATCH,
                                      ahead=ahead):
            timed += len(got)
        cpu = time.thread_time() - cpu
        db.dispose()
    print(f"inbox drain, SQLite, SIGNON + three orders per mail ({args.mails} mails; the "
          f"first round, with the scrypt checks, not counted)")
    print(f"  batches of {inbox.DRAIN_BATCH}: {many / many_cpu:7.1f} mails per CPU second, "
          f"{many / many_wall:7.1f} mails/s, {many_cpu / many * 1000:.2f} ms CPU per mail")
    print(f"  one per transaction: {one / one_cpu:7.1f} mails per CPU second, "
          f"{one / one_wall:7.1f} mails/s, {one_cpu / one * 1000:.2f} ms CPU per mail")
    print(f"  ratio (batches / one per transaction), mails per CPU second: "
          f"{(many / many_cpu) / (one / one_cpu):.2f}")
    print(f"SQL statements per mail: {sum(statements.values()) / timed:.1f}")
    print(f"CPU per mail by kind of work (instrumented: {cpu / timed * 1000:.2f} ms in all):")
    for kind, spent in clock.spent.most_common():
        print(f"  {kind:32} {spent / timed * 1000:6.2f} ms")
    rest = cpu - sum(clock.spent.values())
    print(f"  {'other (handlers, statements, ORM)':32} {rest / timed * 1000:6.2f} ms")
    if args.statements:
        for statement, count in statements.most_common():
            print(f"  {count / timed:5.2f}  {statement}")


if __name__ == "__main__":
    main()
