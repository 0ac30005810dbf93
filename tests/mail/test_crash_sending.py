"""Kill -9 the server while it sends 300 queued messages: each is recorded sent in its own
commit after the relay's 250, so a kill re-sends at most the one message in flight."""

from __future__ import annotations

import os
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from judge.service.uow import outbound_row
from judge.settings import Settings
from judge.storage import Database
from judge.storage.mailrepo import insert_outbound
from judge.storage.models import OutboundMail

from .peers import CapturingRelay, free_port, wait_port
from .test_crash import Server as CrashServer

pytestmark = [pytest.mark.slow, pytest.mark.timeout(480)]

class Server(CrashServer):
    def start(self) -> None:
        try:
            super().start()
        except TimeoutError:
            wait_port(self.port, timeout=90)  # a loaded machine starts Python slowly


MESSAGES = 300
KILLS_AT = (40, 110, 180, 250)


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
def test_sigkill_while_sending(database_url: str, relay: CapturingRelay, tmp_path: Path) -> None:
    db = Database(database_url)
    db.migrate()
    settings = Settings(address="judge@example.org")
    now = datetime.now(UTC)
    with db.session() as s:
        insert_outbound(s, [outbound_row(settings, now, to=f"p{n}@example.org",
                                         subject=f"bulletin {n}", body=f"text {n}\n",
                                         kind="bulletin", game="alpha")
                            for n in range(MESSAGES)])
    port = free_port()
    env = dict(os.environ, JUDGE_DATABASE_URL=database_url, JUDGE_ADDRESS="judge@example.org",
               JUDGE_LMTP_PORT=str(port), JUDGE_SMTP_LISTEN_PORT="0",
               JUDGE_SMTP_HOST="127.0.0.1", JUDGE_SMTP_PORT=str(relay.port),
               JUDGE_RETRY_BASE_SECONDS="0.2", JUDGE_RETRY_MAX_SECONDS="1",
               JUDGE_DRAIN_POLL_SECONDS="0.5", JUDGE_LOG_LEVEL="WARNING", JUDGE_IMAP_HOST="",
               JUDGE_WEB_PORT=str(free_port()))
    env.pop("JUDGE_CONFIG", None)
    server = Server(env, port, tmp_path / "serve.log")
    kills = 0
    try:
        server.start()
        for mark in KILLS_AT:
            relay.wait_for(mark, timeout=120)
            server.kill()
            kills += 1
            server.start()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with db.session() as s:
                unsent = s.scalar(select(func.count()).select_from(OutboundMail)
                                  .where(OutboundMail.status != "sent"))
            if not unsent:
                break
            time.sleep(0.2)
        assert server.terminate() == 0
    finally:
        if server.proc and server.proc.poll() is None:
            server.kill()
    with db.session() as s:
        stored = {r.message_id: r for r in s.scalars(select(OutboundMail))}
    db.dispose()
    assert kills == len(KILLS_AT)
    assert {r.status for r in stored.values()} == {"sent"}
    at_relay = Counter(m.message["Message-ID"] for m in relay.messages)
    assert set(at_relay) == set(stored)  # nothing lost
    twice = [mid for mid, n in at_relay.items() if n > 1]
    assert all(at_relay[mid] == 2 for mid in twice)
    assert len(twice) <= kills  # at most the one in flight per kill
