"""Database bytes per processed game-year, before and after pruning sent mail (issue 16).

N games are played for Y years through the service: random legal orders for every power
(``judge.adjudicator.possible.random_orders``), each phase processed by ``turns.process``
(the map drawn and the bulletins queued by the render job after the commit), the outbox sent
by the real ``OutboxRunner`` over SMTP to an aiosmtpd sink in this process. The database is
measured (SQLite: VACUUM, then the file's size and ``dbstat`` per table) after the games are
created, after they are played, and after ``prune_sent`` has emptied the mail sent more than
``sent_mail_retention_days`` ago. The peer figure is what the same bulletins cost in the old
layout (the map inline, base64, in every message), computed from the rows just sent.
Prints numbers, asserts nothing.

    python benchmarks/db_size.py [--games 4] [--years 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import sqlite3
import tempfile
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from aiosmtpd.controller import Controller
from sqlalchemy import func, select

from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.jsonio import position_from_json, position_to_json
from judge.adjudicator.possible import random_orders
from judge.mail.outbox import OutboxRunner
from judge.service import deadlines, inbox, turns
from judge.settings import Settings
from judge.storage import Database
from judge.storage.gamerepo import account_for, submit_orders
from judge.storage.guardrepo import confirm_account
from judge.storage.models import Blob, Game, OutboundMail, Seat, default_game_options

STANDARD = installed_variant("standard")

START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


class Sink:
    """An SMTP server that takes every message and keeps only counts."""

    def __init__(self) -> None:
        self.messages = 0
        self.bytes = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages += 1
        self.bytes += len(envelope.content)
        return "250 OK"


def create_games(db: Database, count: int) -> list[int]:
    ids = []
    with db.session() as s:
        gm = account_for(s, "gm@players.test", START)
        confirm_account(s, "gm@players.test", START)
        for i in range(count):
            game = Game(name=f"size{i:03d}", language="en", options=default_game_options(),
                        gm_account_id=gm.id, status="active", phase="S1901M",
                        position=position_to_json(STANDARD.initial_position()), created=START)
            s.add(game)
            s.flush()
            for power in STANDARD.powers:
                address = f"{power.lower()}{i}@players.test"
                account = account_for(s, address, START)
                confirm_account(s, address, START)
                s.add(Seat(game_id=game.id, power=power, account_id=account.id))
            s.flush()
            deadlines.schedule(s, game, "S1901M",
                               deadlines.next_deadline(game, "S1901M", START), START)
            ids.append(game.id)
    return ids


def play_phase(db: Database, settings: Settings, game_id: int, now: datetime,
               rng: random.Random) -> str:
    with db.session() as s:
        game = s.get(Game, game_id)
        assert game is not None
        position = position_from_json(game.position)
        for power in STANDARD.powers:
            orders = [str(o) for o in random_orders(position, power, rng)]
            submit_orders(s, game_id, game.phase, power, orders, now)
    with db.session() as s:
        game = s.get(Game, game_id)
        assert game is not None
        report = turns.process(s, game, now, settings, force=True)
        return report.next_phase or game.phase


def send_all(loop: asyncio.AbstractEventLoop, runner: OutboxRunner) -> int:
    """The outbox sent to the sink (one loop for the whole run: the SMTP connection stays)."""
    async def go() -> int:
        total = 0
        while sent := await runner.send_due():
            total += sent
        return total
    return loop.run_until_complete(go())


def measure(path: str) -> tuple[int, dict[str, int]]:
    """(bytes in use, bytes per table and index) after a VACUUM."""
    conn = sqlite3.connect(path)
    conn.execute("VACUUM")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # WAL mode: the vacuumed file lands here
    tables: dict[str, int] = {}
    try:
        for name, size in conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
            tables[name] = int(size)
    except sqlite3.OperationalError:
        pass  # SQLite built without dbstat: the file size only
    conn.close()
    return (sum(tables.values()) if tables else os.path.getsize(path)), tables


def top(tables: dict[str, int], before: dict[str, int], game_years: int) -> str:
    grown = {k: v - before.get(k, 0) for k, v in tables.items()}
    best = sorted(grown.items(), key=lambda kv: -kv[1])[:6]
    return ", ".join(f"{k} {v / game_years / 1024:.1f}" for k, v in best if v > 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--years", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sink = Sink()
    with socket.socket() as probe:  # a free port (the controller's port 0 is not read back)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "size.db")
        settings = Settings(address="judge@bench.test", database_url=f"sqlite:///{path}",
                            smtp_host="127.0.0.1", smtp_port=port, smtp_security="none")
        db = Database(settings.database_url)
        db.migrate()
        ids = create_games(db, args.games)
        empty, empty_tables = measure(path)
        loop = asyncio.new_event_loop()
        runner = OutboxRunner(db, settings, now=lambda: now)
        now = START + timedelta(hours=1)
        last = f"S{1901 + args.years}M"
        phases = 0
        started = time.perf_counter()
        live = list(ids)
        while live:
            for game_id in list(live):
                phase = play_phase(db, settings, game_id, now, rng)
                phases += 1
                if phase == last or not phase:
                    live.remove(game_id)
            send_all(loop, runner)
            now += timedelta(days=1)
        elapsed = time.perf_counter() - started
        with db.session() as s:
            sent = s.scalar(select(func.count(OutboundMail.id))
                            .where(OutboundMail.status == "sent")) or 0
            carrying = list(s.execute(select(func.length(Blob.data), func.count(OutboundMail.id))
                                      .join(OutboundMail, OutboundMail.blob_sha256 == Blob.sha256)
                                      .group_by(Blob.sha256)))
        played, played_tables = measure(path)
        game_years = args.games * args.years
        # the old layout: each message held its own base64 copy of the map (4/3 the bytes)
        inline = sum(size * 4 // 3 * rows for size, rows in carrying)
        stored = sum(size for size, _ in carrying)
        later = now + timedelta(days=settings.sent_mail_retention_days + 1)
        rows, blobs = inbox.prune_sent(db, settings, later)
        loop.run_until_complete(runner.close())
        loop.close()
        pruned, pruned_tables = measure(path)
        db.dispose()
    controller.stop()
    print(f"uptime: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1 and 5 min load)")
    print(f"games {args.games} x years {args.years} = {game_years} game-years, {phases} phases "
          f"in {elapsed:.1f} s ({elapsed / phases * 1000:.0f} ms a phase, map included); "
          f"{sent} messages sent, {sink.messages} at the sink")
    print(f"maps: {len(carrying)} stored once each, {stored / 1024:.0f} KiB; the old layout "
          f"(inline base64 per message) would hold {inline / 1024:.0f} KiB: "
          f"{inline / max(1, stored):.1f}x")
    print(f"bytes per game-year before pruning: {(played - empty) / game_years:,.0f}  "
          f"(KiB by table: {top(played_tables, empty_tables, game_years)})")
    print(f"pruned {rows} sent messages, {blobs} maps")
    print(f"bytes per game-year after pruning:  {(pruned - empty) / game_years:,.0f}  "
          f"(KiB by table: {top(pruned_tables, empty_tables, game_years)})")
    print(f"old layout estimate per game-year:  {(played - empty - stored + inline) / game_years:,.0f}"
          " (never pruned)")


if __name__ == "__main__":
    main()
