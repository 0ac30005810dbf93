"""Three ``judge serve`` nodes on one PostgreSQL database, a deadline storm, one node killed.

Issue 16 point 5: the nodes share inbox, outbox and deadlines with no coordinator of the
judge's own (row claims, ``FOR UPDATE SKIP LOCKED``). 300 games fall due at once; once about a
third are adjudicated one node is SIGKILLed with its turn workers (its whole process group).
Every game must be adjudicated exactly once (one turn, one set of bulletins), every bulletin
must reach the relay, at most one message twice (the one the dead node had in flight), and
mail delivered to each node meanwhile must be handled and answered.
"""

from __future__ import annotations

import email
import os
import signal
import smtplib
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import func, select, update

from benchmarks.storm import create_games, free_port, wait_port
from judge.storage import Database
from judge.storage.models import Deadline, Game, InboundMail, OutboundMail, Turn
from tests.dbfixtures import PostgresState, migrated_url

pytestmark = [pytest.mark.slow, pytest.mark.services]

GAMES = 300
NODES = 3


class Recorder:
    """The relay: every message's Message-ID, in arrival order (duplicates kept)."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        head = (envelope.original_content or b"").split(b"\r\n\r\n", 1)[0]
        message = email.message_from_bytes(head + b"\r\n\r\n")
        with self.lock:
            self.ids.append(str(message.get("Message-ID", "")).strip())
        return "250 2.0.0 OK"


@pytest.fixture
def pg_url(request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path,
           pg_state: PostgresState | None) -> str:
    return migrated_url(request, "postgresql", tmp_path, sqlite_template, pg_state)


@pytest.fixture
def recorder() -> Iterator[tuple[Recorder, int]]:
    handler = Recorder()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    yield handler, port
    controller.stop()


def start_node(url: str, relay_port: int, log: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = dict(os.environ, JUDGE_DATABASE_URL=url, JUDGE_ADDRESS="judge@judge.test",
               JUDGE_LMTP_PORT=str(port), JUDGE_SMTP_LISTEN_PORT="0",
               JUDGE_SMTP_HOST="127.0.0.1", JUDGE_SMTP_PORT=str(relay_port),
               JUDGE_REPLIES_PER_ADDRESS_PER_DAY="100000",
               JUDGE_ANONYMOUS_REPLIES_PER_ADDRESS_PER_DAY="100000",
               JUDGE_UNREAD_REPLIES_PER_ADDRESS_PER_DAY="100000", JUDGE_LOG_LEVEL="WARNING",
               JUDGE_IMAP_HOST="", JUDGE_WEB_PORT=str(free_port()),
               JUDGE_SCHEDULER_SWEEP_SECONDS="1", JUDGE_DRAIN_POLL_SECONDS="1",
               JUDGE_TURN_WORKERS="1")
    env.pop("JUDGE_CONFIG", None)
    # a session of its own: the node and its turn workers are killed together
    with log.open("wb") as out:  # the child keeps its own descriptor
        proc = subprocess.Popen([sys.executable, "-m", "judge.cli_mail", "serve"], env=env,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    return proc, port


def counts(db: Database) -> tuple[int, int, int]:
    """(storm turns, storm bulletins not yet sent (a dead node's unrendered ones too), inbound mail not yet handled)"""
    with db.reading() as s:
        turns = s.scalar(select(func.count(Turn.id))) or 0
        unsent = s.scalar(select(func.count(OutboundMail.id)).where(
            OutboundMail.status.in_(("rendering", "pending", "sending")))) or 0
        waiting = s.scalar(select(func.count(InboundMail.id)).where(
            InboundMail.status.in_(("new", "processing")))) or 0
    return int(turns), int(unsent), int(waiting)


def wait_for(what: str, check: Any, timeout: float, nodes: list[Any]) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        for proc, _ in nodes:
            assert proc.poll() is None or proc.returncode == -signal.SIGKILL, \
                f"a node exited with {proc.returncode}"
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def help_mail(n: int) -> bytes:
    return (f"From: asker{n}@stream.test\r\nTo: judge@judge.test\r\nSubject: help\r\n"
            f"Message-ID: <help{n}@stream.test>\r\n\r\nHELP\r\n").encode()


def test_three_nodes_share_a_storm_and_survive_a_kill(
        pg_url: str, recorder: tuple[Recorder, int], tmp_path: Path) -> None:
    relay, relay_port = recorder
    # due in three days for now: the storm starts once every node is up
    create_games(pg_url, GAMES, datetime.now(UTC) + timedelta(days=3), stream_games=0)
    db = Database(pg_url)
    nodes = [start_node(pg_url, relay_port, tmp_path / f"node{i}.log") for i in range(NODES)]
    try:
        for _, port in nodes:
            wait_port(port)
        with db.session() as s:  # every game due now
            now = datetime.now(UTC)
            s.execute(update(Game).values(deadline=now))
            s.execute(update(Deadline).where(Deadline.kind != "process").values(done=True))
            s.execute(update(Deadline).where(Deadline.kind == "process").values(due_at=now))
        # each node receives mail during the storm
        for n in range(6):
            lmtp = smtplib.LMTP("127.0.0.1", nodes[n % NODES][1])
            lmtp.sendmail(f"asker{n}@stream.test", ["judge@judge.test"], help_mail(n))
            lmtp.quit()
        wait_for("a third of the games", lambda: counts(db)[0] >= GAMES // 3, 600, nodes)
        victim, _ = nodes[1]
        os.killpg(victim.pid, signal.SIGKILL)
        victim.wait(timeout=30)
        survivors = [nodes[0], nodes[2]]
        lmtp = smtplib.LMTP("127.0.0.1", survivors[0][1])
        lmtp.sendmail("asker9@stream.test", ["judge@judge.test"], help_mail(9))
        lmtp.quit()
        wait_for("every game adjudicated, every mail handled and sent",
                 lambda: counts(db) == (GAMES, 0, 0), 900, survivors)
        time.sleep(1.0)  # a last send's 250 is recorded after the relay took it
    finally:
        for proc, _ in nodes:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc, _ in nodes:
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
    with db.reading() as s:
        turns = Counter(s.scalars(select(Turn.game_id)))
        phases = set(s.scalars(select(Game.phase)))
        rows = list(s.execute(select(OutboundMail.game_id, OutboundMail.message_id,
                                     OutboundMail.status, OutboundMail.kind)))
    db.dispose()
    # exactly once: one turn per game, every game in the next phase, one set of bulletins each
    assert len(turns) == GAMES and set(turns.values()) == {1}
    assert phases == {"F1901M"}
    per_game = Counter(game_id for game_id, _, _, kind in rows if game_id is not None)
    assert len(per_game) == GAMES and len(set(per_game.values())) == 1, per_game.most_common(3)
    # every message sent and at the relay; at most one twice (the dead node's one in flight)
    assert {status for _, _, status, _ in rows} == {"sent"}
    arrived = Counter(relay.ids)
    assert {mid for _, mid, _, _ in rows} <= set(arrived)
    twice = {mid: n for mid, n in arrived.items() if n > 1}
    assert sum(n - 1 for n in twice.values()) <= 1, twice
    # the help mails sent to every node were answered
    assert sum(1 for _, _, _, kind in rows if kind.startswith("reply")) >= 7
