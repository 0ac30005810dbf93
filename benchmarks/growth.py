"""LIST and the archive index with many games in the database (issue 16): server time.

Fills a database with N games (default 10,000: forming, active, paused and finished, seven
seats each, one processed turn each for the started ones), then times in this process:
  - LIST: one mail handled as the drain handles it (dispatch inside one transaction, the
    reply rendered), first page and a far page;
  - the archive index page ``/`` and ``/index.json`` (``ArchiveApp.route``), first page and
    a far page;
  - the peer: the old way of the index, a query per game (``_game_row`` for every game), on
    ``--peer-games`` of the games, and what that would be for all of them.
Targets (issue 16): LIST under 50 ms, index under 100 ms with 10,000 games. Prints numbers
(median of ``--rounds``), asserts nothing.

    python benchmarks/growth.py [--games 10000] [--rounds 7] [--database URL]

``--database``: an EMPTY database to fill (default: a temporary SQLite file), e.g.
``postgresql+psycopg://127.0.0.1/bench`` after ``createdb bench``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import event, insert, select

from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.jsonio import position_to_json
from judge.archive.webapp import ArchiveApp
from judge.service.commands.session import MailSession
from judge.service.dispatch import dispatch
from judge.service.uow import IncomingMail
from judge.settings import Settings
from judge.storage import Database
from judge.storage.archive_queries import _game_row
from judge.storage.guardrepo import confirm_account
from judge.storage.models import Account, Game, Seat, Turn, default_game_options

STANDARD = installed_variant("standard")

NOW = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
STATUSES = ("active", "active", "forming", "finished", "paused")
STRANGER = "reader@example.net"


def fill(db: Database, games: int) -> None:
    position = position_to_json(STANDARD.initial_position())
    options = default_game_options()
    with db.session() as s:
        s.execute(insert(Account), [{"address": f"p{i}@players.test", "display_name": f"P {i}",
                                     "language": "en", "created": NOW}
                                    for i in range(1, 1001)])
        accounts = list(s.scalars(select(Account.id).order_by(Account.id)))
        step = 2000
        for first in range(0, games, step):
            rows = [{"name": f"g{i:05d}", "variant": "standard",
                     "status": STATUSES[i % len(STATUSES)], "language": "en",
                     "options": {**options, "blind": i % 11 == 0}, "password_hash": "",
                     "gm_account_id": accounts[i % len(accounts)], "phase": "F1901M",
                     "position": position, "created": NOW}
                    for i in range(first, min(games, first + step))]
            s.execute(insert(Game), rows)
        ids = list(s.execute(select(Game.id, Game.status)))
        for first in range(0, len(ids), step):
            chunk = ids[first:first + step]
            s.execute(insert(Seat), [{"game_id": gid, "power": power,
                                      "account_id": accounts[(gid * 7 + k) % len(accounts)],
                                      "preferences": []}
                                     for gid, _ in chunk for k, power in enumerate(STANDARD.powers)])
            s.execute(insert(Turn), [{"game_id": gid, "phase": "S1901M",
                                      "position_before": position, "position_after": position,
                                      "orders_submitted": {}, "orders_generated": {},
                                      "orders_illegal": {}, "outcomes": {}, "bulletins": {},
                                      "created": NOW}
                                     for gid, status in chunk if status != "forming"])
        confirm_account(s, STRANGER, NOW)


def timed(work: Callable[[], Any], rounds: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds of ``work`` over ``rounds`` (after a warm-up call).
    CPU time (this process, every thread) is the figure a loaded machine distorts least."""
    work()
    walls, cpus = [], []
    for _ in range(rounds):
        start, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append((time.perf_counter() - start) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return statistics.median(walls), statistics.median(cpus)


def list_mail(db: Database, settings: Settings, text: str) -> str:
    incoming = IncomingMail(from_addr=STRANGER, to=(settings.address,), subject="list",
                            message_id="<list@bench>", text=text, lines=(text,))
    with db.session() as session:
        ctx = MailSession(mail=incoming, settings=settings, now=NOW, session=session)
        dispatch(ctx)
        body = ctx.queued[0].body if ctx.queued else ""
        session.rollback()  # the same mail again next round (no reply cap, no stored row)
    return body


class Counter:
    def __init__(self, db: Database) -> None:
        self.count = 0
        event.listen(db.engine, "before_cursor_execute", self.note)

    def note(self, *_args: Any) -> None:
        self.count += 1

    def during(self, work: Callable[[], Any]) -> int:
        before = self.count
        work()
        return self.count - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--peer-games", type=int, default=500)
    parser.add_argument("--database", default="")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database or f"sqlite:///{os.path.join(tmp, 'growth.db')}"
        settings = Settings(address="judge@bench.test", database_url=url,
                            replies_per_address_per_day=10**9,
                            anonymous_replies_per_address_per_day=10**9,
                            unread_replies_per_address_per_day=10**9)
        db = Database(url)
        db.migrate()
        start = time.perf_counter()
        fill(db, args.games)
        print(f"uptime: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1 and 5 min load); "
              f"{db.engine.dialect.name}; {args.games:,} games filled in "
              f"{time.perf_counter() - start:.1f} s")
        app = ArchiveApp(db)
        counter = Counter(db)
        far = max(1, args.games // 100)

        loop = asyncio.new_event_loop()  # one loop, as in ``judge serve``

        def index(path: str, query: str = "") -> Callable[[], Any]:
            return lambda: loop.run_until_complete(app.route(path, query))

        cases: list[tuple[str, Callable[[], Any], float]] = [
            ("LIST (page 1)", lambda: list_mail(db, settings, "LIST"), 50),
            (f"LIST {far}", lambda: list_mail(db, settings, f"LIST {far}"), 50),
            ("index /", index("/"), 100),
            ("index /index.json", index("/index.json"), 100),
            (f"index /?page={far}", index("/", f"page={far}"), 100),
        ]
        for name, work, target in cases:
            ms, cpu = timed(work, args.rounds)
            queries = counter.during(work)
            print(f"{name:<22} {ms:8.1f} ms wall {cpu:8.1f} ms CPU  (target < {target:.0f} ms)"
                  f"  {queries} queries")
        # the peer: the index as it was, a query per game, on a slice of the games
        with db.reading() as session:
            games = list(session.scalars(select(Game).where(Game.status != "forming")
                                         .order_by(Game.id.desc()).limit(args.peer_games)))

            def old_index() -> None:
                for g in games:
                    _game_row(session, g)

            ms, cpu = timed(old_index, max(1, args.rounds // 3))
            queries = counter.during(old_index)
        total = sum(1 for i in range(args.games) if STATUSES[i % len(STATUSES)] != "forming")
        per_game = cpu / max(1, len(games))
        _, index_cpu = timed(index("/"), args.rounds)
        print(f"peer: a query per game, {len(games)} games: {ms:.1f} ms wall {cpu:.1f} ms CPU, "
              f"{queries} queries; all {total:,} started games that way: "
              f"~{per_game * total:,.0f} ms CPU, "
              f"{per_game * total / max(index_cpu, 0.001):,.0f}x the paginated index page")
        loop.close()
        db.dispose()


if __name__ == "__main__":
    main()
