"""Mail pipeline throughput: LMTP in -> stored -> handled (HELP) -> reply at a relay.

Prints mails/s and the latency from the LMTP 250 to the reply's arrival at the relay (p50,
p99) for SQLite and PostgreSQL, beside the rate of a bare aiosmtpd LMTP server that only
writes each message to a file (the ceiling on this machine), once without and once with an
fsync per message, and the CPU each server process spent per mail (start-up not counted).
The last lines (RESULT) compare each database with the bare server of like durability.

    python benchmarks/mail_throughput.py [--mails 500] [--clients 4] [--no-postgres]

Profiling: BENCH_PYSPY=FILE samples the judge with py-spy (raw stacks, GIL holder only);
BENCH_CPROFILE=FILE writes a CPU-time cProfile of the event loop thread to FILE and of the
worker threads (database work) to FILE.threads.
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


PROFILED_SERVE = """
import cProfile, pstats, runpy, sys, threading, time
from concurrent.futures import thread
profile = cProfile.Profile(time.thread_time)
out, sys.argv = sys.argv[1], ["judge", "serve"]
workers, local, run = [], threading.local(), thread._WorkItem.run

def profiled_run(item):
    if not hasattr(local, "profile"):
        local.profile = cProfile.Profile(time.thread_time)
        workers.append(local.profile)
    local.profile.enable()
    try:
        run(item)
    finally:
        local.profile.disable()

thread._WorkItem.run = profiled_run
profile.enable()
try:
    runpy.run_module("judge.cli_mail", run_name="__main__")
except SystemExit:
    pass
finally:
    profile.disable()
    profile.dump_stats(out)
    if workers:
        pstats.Stats(*workers).dump_stats(out + ".threads")
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_times(pid: int, thread: int | None = None) -> tuple[float, float]:
    """(user, system) CPU seconds used so far by process ``pid`` (all its threads), or by
    its thread ``thread`` only."""
    where = f"/proc/{pid}/task/{thread}/stat" if thread else f"/proc/{pid}/stat"
    fields = Path(where).read_text().rpartition(")")[2].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


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


def run_bare(n: int, clients: int, fsync: bool = False) -> tuple[float, float]:
    """(mails/s, server CPU ms per mail) of the bare server."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, __file__, "--bare-server", str(port), tmp]
        proc = subprocess.Popen(command + (["--fsync"] if fsync else []))
        try:
            wait_port(port)
            mids = [f"<{uuid.uuid4().hex}@bench>" for _ in range(n)]
            before = sum(cpu_times(proc.pid))
            start = time.monotonic()
            send_all(port, mids, clients)
            rate = n / (time.monotonic() - start)
            return rate, (sum(cpu_times(proc.pid)) - before) / n * 1000
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait()


def run_judge(url: str, n: int, clients: int) -> tuple[float, float, float, float]:
    """(mails/s, p50 s, p99 s, judge CPU ms per mail) of the whole judge pipeline."""
    clock = RelayProcess(n)
    relay_port = clock.port
    port = free_port()
    env = dict(os.environ, JUDGE_DATABASE_URL=url, JUDGE_ADDRESS="judge@example.org",
               JUDGE_LMTP_PORT=str(port), JUDGE_SMTP_LISTEN_PORT="0",
               JUDGE_SMTP_HOST="127.0.0.1", JUDGE_SMTP_PORT=str(relay_port),
               JUDGE_REPLIES_PER_ADDRESS_PER_DAY=str(n + 10), JUDGE_LOG_LEVEL="WARNING",
               JUDGE_IMAP_HOST="", JUDGE_WEB_PORT=str(free_port()))
    env.pop("JUDGE_CONFIG", None)
    command = [sys.executable, "-m", "judge.cli_mail", "serve"]
    if os.environ.get("BENCH_CPROFILE"):  # CPU profile of the event loop thread, to that file
        command = [sys.executable, "-c", PROFILED_SERVE, os.environ["BENCH_CPROFILE"]]
    proc = subprocess.Popen(command, env=env)
    profiler = None
    try:
        wait_port(port)
        if os.environ.get("BENCH_PYSPY"):  # e.g. BENCH_PYSPY=/tmp/judge.txt: py-spy raw stacks
            profiler = subprocess.Popen(["py-spy", "record", "--pid", str(proc.pid), "-r", "250", "--gil",
                                         "--format", "raw", "-o", os.environ["BENCH_PYSPY"]],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(1.0)
        mids = [f"<{uuid.uuid4().hex}@bench>" for _ in range(n)]
        user0, system0 = cpu_times(proc.pid)
        loop0 = sum(cpu_times(proc.pid, proc.pid))
        start = time.monotonic()
        acked = send_all(port, mids, clients)
        if not clock.done.wait(timeout=300):
            raise RuntimeError(f"only {len(clock.arrived)} of {n} replies arrived")
        elapsed = max(clock.arrived.values()) - start
        user, system = cpu_times(proc.pid)
        cpu = user - user0 + system - system0  # start-up (imports) not counted
        loop = sum(cpu_times(proc.pid, proc.pid)) - loop0
        print(f"  judge CPU: {cpu / n * 1000:.2f} ms/mail ({(user - user0) / n * 1000:.2f} user), "
              f"of which the event loop thread {loop / n * 1000:.2f}, database threads "
              f"{(cpu - loop) / n * 1000:.2f}", file=sys.stderr)
        latencies = sorted(clock.arrived[m] - acked[m] for m in mids)
        p50 = statistics.median(latencies)
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        return n / elapsed, p50, p99, cpu / n * 1000
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        clock.stop()
        if profiler is not None:
            profiler.wait(timeout=60)


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
    bare, bare_cpu = run_bare(n, clients)
    bare_fsync, bare_fsync_cpu = run_bare(n, clients, fsync=True)
    rows = [("bare aiosmtpd LMTP -> file (no fsync)", bare, None, None, bare_cpu),
            ("bare aiosmtpd LMTP -> file + fsync", bare_fsync, None, None, bare_fsync_cpu)]
    judged: list[tuple[str, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        rate, p50, p99, cpu = run_judge(f"sqlite:///{tmp}/judge.db", n, clients)
        rows.append(("judge, SQLite", rate, p50, p99, cpu))
        judged.append(("SQLite", rate))
    if not args.no_postgres:
        pg = postgres_database()
        if pg is not None:
            url, drop = pg
            try:
                rate, p50, p99, cpu = run_judge(url, n, clients)
                rows.append(("judge, PostgreSQL", rate, p50, p99, cpu))
                judged.append(("PostgreSQL", rate))
            finally:
                drop()  # type: ignore[operator]
    print(f"{n} mails over {clients} LMTP sessions; judge: stored (committed) before each 250, "
          "handled (HELP), reply accepted by the relay")
    print(f"{'server':38} {'mails/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'CPU ms/mail':>12}")
    for name, rate, p50, p99, cpu in rows:
        lat = (f"{p50 * 1000:8.1f} {p99 * 1000:8.1f}" if p50 is not None
               else f"{'-':>8} {'-':>8}")
        print(f"{name:38} {rate:8.1f} {lat} {cpu:12.2f}")
    # Durability differs: judge on SQLite commits in WAL mode with synchronous=NORMAL (safe
    # against a process crash, not a power cut: like the bare server without fsync); judge on
    # PostgreSQL fsyncs each commit (synchronous_commit=on by default: like bare with fsync).
    like = {"SQLite": (bare, "bare without fsync, like SQLite WAL synchronous=NORMAL"),
            "PostgreSQL": (bare_fsync, "bare with fsync, like PostgreSQL's fsync per commit")}
    for name, rate in judged:
        ceiling, why = like[name]
        print(f"RESULT {name}: {rate:.0f} mails/s = {rate / ceiling:.2f} x {why} "
              f"({ceiling:.0f}/s); {rate / bare:.2f} x bare without fsync ({bare:.0f}/s), "
              f"{rate / bare_fsync:.2f} x bare with fsync ({bare_fsync:.0f}/s); target 0.50")


if __name__ == "__main__":
    main()
