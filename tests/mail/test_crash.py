"""Kill -9 the server while 500 mails arrive: nothing lost, nothing handled twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

import pytest
from sqlalchemy import func, select

from judge.storage import Database
from judge.storage.models import InboundMail, OutboundMail

from .peers import CapturingRelay, deliver, free_port, make_mail, wait_port

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

MAILS = 500
KILLS_AT = (75, 175, 275, 375)


class Server:
    def __init__(self, env: dict[str, str], port: int, log: Path) -> None:
        self.env, self.port, self.log = env, port, log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "judge.cli_mail", "serve"],
                                         env=self.env, stdout=out, stderr=out)
        wait_port(self.port, timeout=30)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def terminate(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=30)


def _deliver_all(port: int, acked: list[str], stop: threading.Event) -> None:
    for n in range(MAILS):
        mid = f"<crash-{n}@example.org>"
        raw = make_mail("HELP\n", message_id=mid, sender=f"p{n % 40}@example.org")
        while not stop.is_set():
            try:
                if deliver(port, raw, sender=f"p{n % 40}@example.org") == 250:
                    acked.append(mid)
                    break
            except OSError:
                pass  # server down or killed mid-session: send the same mail again
            time.sleep(0.02)


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
def test_sigkill_during_delivery(database_url: str, relay: CapturingRelay, tmp_path: Path) -> None:
    port = free_port()
    env = dict(os.environ, JUDGE_DATABASE_URL=database_url, JUDGE_ADDRESS="judge@example.org",
               JUDGE_LMTP_PORT=str(port), JUDGE_SMTP_LISTEN_PORT="0",
               JUDGE_SMTP_HOST="127.0.0.1", JUDGE_SMTP_PORT=str(relay.port),
               JUDGE_RETRY_BASE_SECONDS="0.2", JUDGE_RETRY_MAX_SECONDS="1",
               JUDGE_DRAIN_POLL_SECONDS="0.5", JUDGE_REPLIES_PER_ADDRESS_PER_DAY="1000",
               JUDGE_ANONYMOUS_REPLIES_PER_ADDRESS_PER_DAY="1000",
               JUDGE_UNREAD_REPLIES_PER_ADDRESS_PER_DAY="1000",
               JUDGE_LOG_LEVEL="WARNING", JUDGE_IMAP_HOST="", JUDGE_WEB_PORT=str(free_port()))
    env.pop("JUDGE_CONFIG", None)
    server = Server(env, port, tmp_path / "serve.log")
    server.start()
    acked: list[str] = []
    stop = threading.Event()
    client = threading.Thread(target=_deliver_all, args=(port, acked, stop), daemon=True)
    client.start()
    kills = 0
    try:
        for mark in KILLS_AT:
            while len(acked) < mark and client.is_alive():
                time.sleep(0.01)
            server.kill()
            kills += 1
            server.start()
        client.join(timeout=120)
        assert not client.is_alive(), "delivery did not finish"
        db = Database(database_url)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            with db.session() as s:
                waiting = s.scalar(select(func.count()).select_from(InboundMail)
                                   .where(InboundMail.status != "done"))
                unsent = s.scalar(select(func.count()).select_from(OutboundMail)
                                  .where(OutboundMail.status != "sent"))
            if not waiting and not unsent:
                break
            time.sleep(0.2)
        assert server.terminate() == 0  # SIGTERM: a clean stop
    finally:
        stop.set()
        if server.proc and server.proc.poll() is None:
            server.kill()
    assert kills == len(KILLS_AT)
    assert len(acked) == len(set(acked)) == MAILS
    with db.session() as s:
        inbound = {row.message_id: row for row in s.scalars(select(InboundMail))}
        outbound = list(s.scalars(select(OutboundMail)))
    db.dispose()
    # every acknowledged mail stored once and handled
    assert set(inbound) == set(acked)
    assert {row.status for row in inbound.values()} == {"done"}
    # handled exactly once: one reply per mail
    per_mail: dict[int | None, int] = defaultdict(int)
    for row in outbound:
        per_mail[row.inbound_id] += 1
    assert set(per_mail) == {row.id for row in inbound.values()}
    assert set(per_mail.values()) == {1}
    assert {row.status for row in outbound} == {"sent"}
    # every reply reached the relay; a resend after a kill carries the same Message-ID
    at_relay: dict[str, set[str]] = defaultdict(set)
    for got in relay.messages:
        at_relay[got.message["In-Reply-To"]].add(got.message["Message-ID"])
    assert {row.message_id for row in outbound} == set().union(*at_relay.values())
    assert set(at_relay) == set(acked)
    assert all(len(ids) == 1 for ids in at_relay.values())
