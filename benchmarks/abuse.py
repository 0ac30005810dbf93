"""Hostile senders and crashes against a real ``judge serve`` on loopback; prints figures.

    python benchmarks/abuse.py [--database-url URL] [--kills 4]

Starts ``judge serve`` as a subprocess (SQLite in a temporary folder unless a URL is given)
with an aiosmtpd relay in this process, then:

1. sends the hostile-mail corpus (tests/mail/hostile.py) and a few big hostile mails from
   strangers, and prints how many were answered, dropped with a reason and failed (must be
   0), and the most outgoing mails caused by one stranger's mail;
2. times an innocent HELP sent right behind each of the worst mails (until its reply is at
   the relay);
3. SIGKILLs the judge repeatedly during an inbound burst, during deadline processing and
   during sending, and prints lost mails, mails handled twice and messages sent twice.

Bounded: a few hundred mails, only 127.0.0.1.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import func, select  # noqa: E402
from sqlalchemy.exc import OperationalError  # noqa: E402

from judge.service.uow import outbound_row  # noqa: E402
from judge.settings import Settings  # noqa: E402
from judge.storage import Database  # noqa: E402
from judge.storage.mailrepo import insert_outbound  # noqa: E402
from judge.storage.models import Game, InboundMail, OutboundMail, Turn  # noqa: E402
from tests.mail.hostile import corpus  # noqa: E402
from tests.mail.peers import CapturingRelay, deliver, free_port, make_mail, wait_port  # noqa: E402
from tests.service.games import START, new_game, send  # noqa: E402
from tests.service.sample_game import SPRING_1901  # noqa: E402

ADDRESS = "judge@example.org"
LOCKED_WAITS: list[float] = []  # times this script waited 30 s for SQLite's write lock


class Judge:
    def __init__(self, url: str, relay_port: int, log: Path) -> None:
        self.port = free_port()
        self.log = log
        self.env = dict(os.environ, JUDGE_DATABASE_URL=url, JUDGE_ADDRESS=ADDRESS,
                        JUDGE_LMTP_PORT=str(self.port), JUDGE_SMTP_LISTEN_PORT="0",
                        JUDGE_SMTP_HOST="127.0.0.1", JUDGE_SMTP_PORT=str(relay_port),
                        JUDGE_RETRY_BASE_SECONDS="0.2", JUDGE_RETRY_MAX_SECONDS="1",
                        JUDGE_DRAIN_POLL_SECONDS="0.5", JUDGE_LOG_LEVEL="WARNING",
                        JUDGE_IMAP_HOST="", JUDGE_WEB_PORT=str(free_port()),
                        JUDGE_REPLIES_PER_ADDRESS_PER_DAY="1000",
                        JUDGE_ANONYMOUS_REPLIES_PER_ADDRESS_PER_DAY="1000",
                        JUDGE_UNREAD_REPLIES_PER_ADDRESS_PER_DAY="1000")
        self.env.pop("JUDGE_CONFIG", None)
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "judge.cli_mail", "serve"],
                                         env=self.env, stdout=out, stderr=out, cwd=ROOT)
        wait_port(self.port, timeout=120)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=60)


def settle(db: Database, timeout: float = 180.0) -> None:
    """Until nothing inbound is waiting and nothing outbound is pending."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with db.session() as s:
                waiting = s.scalar(select(func.count()).select_from(InboundMail)
                                   .where(InboundMail.status.in_(("new", "processing"))))
                unsent = s.scalar(select(func.count()).select_from(OutboundMail)
                                  .where(OutboundMail.status.in_(("pending", "sending"))))
        except OperationalError:  # SQLite: the judge has held the write lock for 30 s
            LOCKED_WAITS.append(time.monotonic())
            continue
        if not waiting and not unsent:
            return
        time.sleep(0.2)


def big_mails() -> list[tuple[str, bytes]]:
    """The worst mails seen: many password checks, many orders, many addresses."""
    signons = "".join(f"SIGNON FRANCE g1 wrong{n}\n" for n in range(1000))
    orders = "".join("A PAR - BUR\nSTATUS\n" for _ in range(1500))
    amplifier = "CREATE zz pw\n" + "".join(f"SET ADDRESS victim{n}@example.com\n"
                                          for n in range(1500))
    junk = "HELP " + "x" * 900_000 + "\n"
    return [(name, make_mail(body, sender="stranger@example.net",
                             message_id=f"<big-{name}@example.net>"))
            for name, body in (("signons", signons), ("orders", orders),
                               ("amplifier", amplifier), ("one-megabyte", junk))]


def hostile(db: Database, judge: Judge, relay: CapturingRelay) -> dict[str, object]:
    mails = corpus() + big_mails()
    first = len(relay.messages)
    for _name, raw in mails:
        deliver(judge.port, raw, "stranger@example.net")
    settle(db)
    with db.session() as s:
        rows = list(s.scalars(select(InboundMail)))
        per_mail = Counter(r.inbound_id for r in s.scalars(select(OutboundMail))
                           if r.inbound_id is not None)
    answered = sum(1 for r in rows if per_mail[r.id])
    dropped = sum(1 for r in rows if not per_mail[r.id] and r.status == "done"
                  and (r.note or "").startswith(("no reply", "dropped", "reply dropped")))
    failed = sum(1 for r in rows if r.status == "failed")
    return {"hostile mails tried": len(mails), "stored": len(rows), "answered": answered,
            "dropped with a reason": dropped, "handling failures": failed,
            "unaccounted": len(rows) - answered - dropped - failed,
            "most outgoing mails per stranger's mail": max(per_mail.values(), default=0),
            "outgoing mails at the relay": len(relay.messages) - first}


def innocent_delay(db: Database, judge: Judge, relay: CapturingRelay) -> dict[str, object]:
    worst = 0.0
    which = ""
    for name, raw in big_mails():
        raw = raw.replace(b"<big-", b"<again-big-")
        mid = f"<innocent-{name}-{time.time_ns()}@example.org>"
        threading.Thread(target=deliver, args=(judge.port, raw, "stranger@example.net"),
                         daemon=True).start()
        time.sleep(0.05)  # the hostile mail first
        started = time.monotonic()
        deliver(judge.port, make_mail("HELP\n", sender="innocent@example.org", message_id=mid),
                "innocent@example.org")
        while time.monotonic() - started < 300:
            if any(m.message["In-Reply-To"] == mid for m in relay.messages):
                break
            time.sleep(0.02)
        delay = time.monotonic() - started
        if delay > worst:
            worst, which = delay, name
    settle(db)
    return {"innocent reply delay behind the worst mail (s)": round(worst, 2),
            "worst mail": which}


def burst_kills(db: Database, judge: Judge, relay: CapturingRelay, kills: int
                ) -> dict[str, object]:
    count = 400
    acked: list[str] = []
    stop = threading.Event()

    def send_all() -> None:
        for n in range(count):
            mid = f"<burst-{n}-{time.time_ns()}@example.org>"
            raw = make_mail("HELP\n", message_id=mid, sender=f"p{n % 40}@example.org")
            while not stop.is_set():
                try:
                    if deliver(judge.port, raw, f"p{n % 40}@example.org") == 250:
                        acked.append(mid)
                        break
                except OSError:
                    pass
                time.sleep(0.02)

    client = threading.Thread(target=send_all, daemon=True)
    client.start()
    for k in range(kills):
        while len(acked) < (k + 1) * count // (kills + 1) and client.is_alive():
            time.sleep(0.01)
        judge.kill()
        judge.start()
    client.join(timeout=300)
    stop.set()
    settle(db)
    with db.session() as s:
        stored = {r.message_id: r for r in s.scalars(select(InboundMail))
                  if r.message_id.startswith("<burst-")}
        replies = Counter(r.inbound_id for r in s.scalars(select(OutboundMail))
                          if r.inbound_id is not None)
    lost = [m for m in acked if m not in stored or stored[m].status != "done"]
    twice = [m for m in acked if m in stored and replies[stored[m].id] > 1]
    return {"burst: mails acknowledged": len(acked), "burst: kills": kills,
            "burst: lost mails": len(lost), "burst: mails handled twice": len(twice)}


def deadline_kills(db: Database, judge: Judge, kills: int) -> dict[str, object]:
    judge.kill()
    games = [new_game(db, name=f"dl{n}") for n in range(24)]  # deadlines long past
    for game_id in games:  # every order in: each game is adjudicated at its deadline
        for power, given in SPRING_1901.items():
            send(db, game_id, power, given, START)
    for _ in range(kills):
        judge.start()
        time.sleep(1.0)  # somewhere in the middle of the processing
        judge.kill()
    judge.start()
    end = time.monotonic() + 300
    while time.monotonic() < end:
        try:
            with db.session() as s:
                done = s.scalar(select(func.count()).select_from(Game)
                                .where(Game.id.in_(games), Game.phase != "S1901M"))
        except OperationalError:
            LOCKED_WAITS.append(time.monotonic())
            continue
        if done == len(games):
            break
        time.sleep(0.3)
    settle(db)
    with db.session() as s:
        turns = Counter(t.game_id for t in s.scalars(select(Turn)) if t.game_id in games)
        bulletins = Counter((r.game_id, r.to_addr, r.subject)
                            for r in s.scalars(select(OutboundMail)) if r.game_id in games)
    return {"deadlines: games": len(games), "deadlines: kills": kills,
            "deadlines: games not processed": sum(1 for g in games if not turns[g]),
            "deadlines: turns processed twice": sum(1 for g in games if turns[g] > 1),
            "deadlines: bulletins queued twice": sum(1 for n in bulletins.values() if n > 1)}


def sending_kills(db: Database, judge: Judge, relay: CapturingRelay, kills: int
                  ) -> dict[str, object]:
    judge.kill()
    count = 300
    settings = Settings(address=ADDRESS)
    now = datetime.now(UTC)
    with db.session() as s:
        rows = [outbound_row(settings, now, to=f"r{n}@example.org", subject=f"send {n}",
                             body=f"text {n}\n", kind="bulletin", game="alpha")
                for n in range(count)]
        insert_outbound(s, rows)
    ids = {r.message_id for r in rows}
    before = len(relay.messages)
    judge.start()
    for k in range(kills):
        relay.wait_for(before + (k + 1) * count // (kills + 1), timeout=120)
        judge.kill()
        judge.start()
    settle(db)
    got = Counter(m.message["Message-ID"] for m in relay.messages[before:]
                  if m.message["Message-ID"] in ids)
    twice = sum(n - 1 for n in got.values() if n > 1)
    return {"sending: messages": count, "sending: kills": kills,
            "sending: lost": len(ids - set(got)), "sending: sent twice": twice,
            "sending: sent twice per kill": round(twice / kills, 2) if kills else 0}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default="")
    parser.add_argument("--kills", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="judge-abuse-") as tmp:
        url = args.database_url or f"sqlite:///{tmp}/judge.db"
        db = Database(url)
        db.migrate()
        relay = CapturingRelay().start()
        judge = Judge(url, relay.port, Path(tmp) / "serve.log")
        figures: dict[str, object] = {"database": url.split(":", 1)[0]}
        try:
            judge.start()
            figures.update(hostile(db, judge, relay))
            figures.update(innocent_delay(db, judge, relay))
            figures.update(burst_kills(db, judge, relay, args.kills))
            figures.update(deadline_kills(db, judge, args.kills))
            figures.update(sending_kills(db, judge, relay, args.kills))
            figures["clean stop exit status"] = judge.stop()
            figures["30 s waits for the SQLite write lock (this script)"] = len(LOCKED_WAITS)
        finally:
            if judge.proc is not None and judge.proc.poll() is None:
                judge.kill()
            relay.stop()
            db.dispose()
        width = max(len(k) for k in figures)
        for key, value in figures.items():
            print(f"{key:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
