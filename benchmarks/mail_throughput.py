"""Mail pipeline throughput: LMTP in -> stored -> handled (HELP) -> reply at a relay.

Prints mails/s and the latency from the LMTP 250 to the reply's arrival at the relay (p50,
p99) for SQLite and PostgreSQL, beside the rate of a bare aiosmtpd LMTP server that only
writes each message to a file (the ceiling on this machine).

    python benchmarks/mail_throughput.py [--mails 500] [--clients 4] [--no-postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import smtplib
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP

POSTGRES_URL = os.environ.get("JUDGE_TEST_POSTGRES_URL",
                              "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_port(port: int, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing on port {port}")


class ReplyClock:
    """Relay handler printing "Message-ID<TAB>monotonic time" for each reply it takes.

    It runs in a process of its own so that the delivering clients do not slow it down;
    time.monotonic() is the same clock in every process on Linux.
    """

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: ANN001
        for line in (envelope.original_content or b"").split(b"\r\n"):
            if line.lower().startswith(b"in-reply-to:"):
                mid = line.split(b":", 1)[1].strip().decode()
                sys.stdout.write(f"{mid}\t{time.monotonic()}\n")
                sys.stdout.flush()
                break
            if not line:
                break
        return "250 2.0.0 OK"


class RelayProcess:
    def __init__(self, expected: int) -> None:
        self.port = free_port()
        self.expected = expected
        self.arrived: dict[str, float] = {}
        self.done = threading.Event()
        self.proc = subprocess.Popen([sys.executable, __file__, "--relay", str(self.port)],
                                     stdout=subprocess.PIPE, text=True)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        wait_port(self.port)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            mid, _, at = line.rstrip("\n").partition("\t")
            self.arrived.setdefault(mid, float(at))
            if len(self.arrived) >= self.expected:
                self.done.set()

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=10)


def relay_server(port: int) -> None:
    controller = Controller(ReplyClock(), hostname="127.0.0.1", port=port)
    controller.start()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    controller.stop()


def mail(mid: str) -> bytes:
    return (f"From: p@example.org\r\nTo: judge@example.org\r\nSubject: bench\r\n"
            f"Message-ID: {mid}\r\n\r\nHELP\r\n").encode()


def send_all(port: int, mids: list[str], clients: int) -> dict[str, float]:
    """Deliver over ``clients`` persistent LMTP sessions; returns Message-ID -> time of 250."""
    acked: dict[str, float] = {}
    lock = threading.Lock()

    def worker(chunk: list[str]) -> None:
        conn = smtplib.LMTP("127.0.0.1", port)
        for mid in chunk:
            conn.sendmail("p@example.org", ["judge@example.org"], mail(mid))
            with lock:
                acked[mid] = time.monotonic()
        conn.quit()

    threads = [threading.Thread(target=worker, args=(mids[i::clients],)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return acked


def run_bare(n: int, clients: int, fsync: bool = False) -> float:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, __file__, "--bare-server", str(port), tmp]
        proc = subprocess.Popen(command + (["--fsync"] if fsync else []))
        try:
            wait_port(port)
            mids = [f"<{uuid.uuid4().hex}@bench>" for _ in range(n)]
            start = time.monotonic()
            send_all(port, mids, clients)
            return n / (time.monotonic() - start)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait()


def run_judge(url: str, n: int, clients: int) -> tuple[float, float, float]:
    clock = RelayProcess(n)
    relay_port = clock.port
    port = free_port()
    env = dict(os.environ, JUDGE_DATABASE_URL=url, JUDGE_ADDRESS="judge@example.org",
               JUDGE_LMTP_PORT=str(port), JUDGE_SMTP_LISTEN_PORT="0",
               JUDGE_SMTP_HOST="127.0.0.1", JUDGE_SMTP_PORT=str(relay_port),
               JUDGE_REPLIES_PER_ADDRESS_PER_DAY=str(n + 10), JUDGE_LOG_LEVEL="WARNING",
               JUDGE_IMAP_HOST="", JUDGE_WEB_PORT=str(free_port()))
    env.pop("JUDGE_CONFIG", None)
    proc = subprocess.Popen([sys.executable, "-m", "judge.cli_mail", "serve"], env=env)
    try:
        wait_port(port)
        mids = [f"<{uuid.uuid4().hex}@bench>" for _ in range(n)]
        start = time.monotonic()
        acked = send_all(port, mids, clients)
        if not clock.done.wait(timeout=300):
            raise RuntimeError(f"only {len(clock.arrived)} of {n} replies arrived")
        elapsed = max(clock.arrived.values()) - start
        fields = Path(f"/proc/{proc.pid}/stat").read_text().rpartition(")")[2].split()
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        print(f"  (judge process CPU: {cpu:.1f}s for {n} mails = {cpu / n * 1000:.1f} ms/mail)")
        latencies = sorted(clock.arrived[m] - acked[m] for m in mids)
        p50 = statistics.median(latencies)
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        return n / elapsed, p50, p99
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        clock.stop()


def postgres_database() -> tuple[str, object] | None:
    import psycopg
    from sqlalchemy.engine import make_url

    base = make_url(POSTGRES_URL)
    admin = f"host={base.host} port={base.port or 5432} dbname={base.database} " \
            f"user={base.username or 'postgres'}"
    name = f"judge_bench_{uuid.uuid4().hex[:10]}"
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=3) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except Exception as exc:
        print(f"PostgreSQL skipped: {exc}")
        return None

    def drop() -> None:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return base.set(database=name).render_as_string(hide_password=False), drop


def bare_server(port: int, folder: str, fsync: bool) -> None:
    class WriteToDisk:
        count = 0

        async def handle_DATA(self, server, session, envelope) -> str:  # noqa: ANN001
            WriteToDisk.count += 1
            with Path(folder, f"{WriteToDisk.count}.eml").open("wb") as out:
                out.write(envelope.original_content)
                if fsync:
                    out.flush()
                    os.fsync(out.fileno())
            return "250 2.0.0 OK"

    async def main() -> None:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(lambda: LMTP(WriteToDisk()), "127.0.0.1", port)
        stop = asyncio.Event()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        await stop.wait()
        server.close()

    asyncio.run(main())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=500)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--bare-server", nargs=2, metavar=("PORT", "DIR"))
    parser.add_argument("--fsync", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--relay", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.relay:
        relay_server(args.relay)
        return
    if args.bare_server:
        bare_server(int(args.bare_server[0]), args.bare_server[1], args.fsync)
        return
    n, clients = args.mails, args.clients
    bare = run_bare(n, clients)
    bare_fsync = run_bare(n, clients, fsync=True)
    print(f"{n} mails, {clients} LMTP clients")
    print(f"{'server':34} {'mails/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'vs bare':>8}")
    print(f"{'bare aiosmtpd LMTP -> file':34} {bare:8.1f} {'-':>8} {'-':>8} {'1.00':>8}")
    print(f"{'bare aiosmtpd LMTP -> file+fsync':34} {bare_fsync:8.1f} {'-':>8} {'-':>8} "
          f"{bare_fsync / bare:8.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        rate, p50, p99 = run_judge(f"sqlite:///{tmp}/judge.db", n, clients)
        print(f"{'judge, SQLite':34} {rate:8.1f} {p50 * 1000:8.1f} {p99 * 1000:8.1f} "
              f"{rate / bare:8.2f}")
    if not args.no_postgres:
        pg = postgres_database()
        if pg is not None:
            url, drop = pg
            try:
                rate, p50, p99 = run_judge(url, n, clients)
                print(f"{'judge, PostgreSQL':34} {rate:8.1f} {p50 * 1000:8.1f} "
                      f"{p99 * 1000:8.1f} {rate / bare:8.2f}")
            finally:
                drop()  # type: ignore[operator]


if __name__ == "__main__":
    main()
