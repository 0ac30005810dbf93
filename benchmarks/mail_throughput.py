"""Mail pipeline throughput: LMTP in -> stored -> handled (HELP) -> reply at a relay.

Prints mails/s and the latency from the LMTP 250 to the reply's arrival at the relay (p50,
p99) for SQLite and PostgreSQL, beside the rate of a bare aiosmtpd LMTP server that only
writes each message to a file (the ceiling on this machine), once without and once with an
fsync per message, and the CPU each server process spent per mail (start-up not counted).
The last lines (RESULT) compare each database with the bare server of like durability.

    python benchmarks/mail_throughput.py [--mails 500] [--clients 4] [--no-postgres]
        [--scenario help|signon]

``--scenario signon`` (issue 16): each mail is a player's real order mail, ``SIGNON`` with his
password and three orders, the seven players of a started game taking turns (so passwords are
checked with the production scrypt cost, ``password_hash_log2_n`` 14); Italy sends nothing, so
the game is never complete and stays in its first phase. At the end the benchmark checks that
every mail was handled and each power's three orders are on file.

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
from collections.abc import Callable
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


def children_cpu(pid: int) -> dict[int, float]:
    """CPU seconds (user + system) of each live descendant of ``pid`` (the turn pool's
    worker processes: the early "look now" rows the order mails add are worked there)."""
    found: dict[int, float] = {}
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            kids = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
        except OSError:
            continue
        for kid in map(int, kids):
            try:
                found[kid] = sum(cpu_times(kid))
            except OSError:
                continue
            todo.append(kid)
    return found


def wait_port(port: int, timeout: float = 120.0) -> None:
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


# the signon scenario: a started game, each player's address, password and three orders
GAME = "bench"
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
THREE_ORDERS = {
    "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
    "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
    "FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"],
    "GERMANY": ["A BER - KIE", "A MUN - RUH", "F KIE - HOL"],
    "RUSSIA": ["A MOS - UKR", "A WAR - GAL", "F SEV - BLA"],  # and A STP holds
    "TURKEY": ["A CON - BUL", "A SMY - ARM", "F ANK - BLA"],
}


def player_address(power: str) -> str:
    return f"{power.lower()}@players.example"


def signon_mail(mid: str, power: str) -> tuple[str, bytes]:
    body = "\r\n".join([f"SIGNON {power} {GAME} pw-{power.lower()}", *THREE_ORDERS[power]])
    sender = player_address(power)
    return sender, (f"From: {sender}\r\nTo: judge@example.org\r\nSubject: orders\r\n"
                    f"Message-ID: {mid}\r\n\r\n{body}\r\n").encode()


def setup_game(url: str) -> None:
    """A started seven-player game whose seats have real (production-cost) password hashes,
    built through the judge's own commands, the players' addresses confirmed."""
    from datetime import UTC, datetime

    from judge.service.auth import hash_password
    from judge.service.commands.session import MailSession
    from judge.service.dispatch import dispatch
    from judge.service.uow import IncomingMail
    from judge.settings import Settings
    from judge.storage import Database, gamerepo, guardrepo

    now = datetime.now(UTC)
    settings = Settings(address="judge@example.org")
    db = Database(url)
    db.migrate()
    gm = "gm@players.example"

    def direct(sender: str, body: str) -> None:
        mail = IncomingMail(from_addr=sender, to=("judge@example.org",), subject="setup",
                            lines=tuple(body.splitlines()), text=body)
        with db.session() as session:
            dispatch(MailSession(mail=mail, settings=settings, now=now, session=session))

    with db.session() as session:
        for address in (gm, *map(player_address, POWERS)):
            guardrepo.confirm_account(session, address, now)
    direct(gm, f"CREATE {GAME} gmpass")
    for power in POWERS:
        direct(player_address(power), f"JOIN {GAME} pw-{power.lower()}")
    direct(gm, f"SIGNON GM {GAME} gmpass\nSTART")
    with db.session() as session:
        game = gamerepo.game_by_name(session, GAME)
        assert game is not None and game.status == "active", "the bench game did not start"
        for seat in gamerepo.seats(session, game.id):
            # the lot dealt the powers: give each power to the address named after it, with
            # a password hashed at the production cost
            account = guardrepo.account_by_address(session, player_address(seat.power))
            assert account is not None
            seat.account_id = account.id
            seat.password_hash = hash_password(f"pw-{seat.power.lower()}")
    db.dispose()


def help_mail(mid: str, _: int) -> tuple[str, bytes]:
    return "p@example.org", mail(mid)


def orders_mail(mid: str, i: int) -> tuple[str, bytes]:
    return signon_mail(mid, list(THREE_ORDERS)[i % len(THREE_ORDERS)])


def send_all(port: int, mids: list[str], clients: int,
             make: Callable[[str, int], tuple[str, bytes]] = help_mail,
             acks: list[float] | None = None) -> dict[str, float]:
    """Deliver over ``clients`` persistent LMTP sessions; returns Message-ID -> time of 250.
    ``acks``, if given, gets each delivery's wait for its 250 (seconds)."""
    acked: dict[str, float] = {}
    lock = threading.Lock()
    number = {mid: i for i, mid in enumerate(mids)}

    def worker(chunk: list[str]) -> None:
        conn = smtplib.LMTP("127.0.0.1", port)
        for mid in chunk:
            sender, raw = make(mid, number[mid])
            sent = time.monotonic()
            conn.sendmail(sender, ["judge@example.org"], raw)
            with lock:
                acked[mid] = time.monotonic()
                if acks is not None:
                    acks.append(acked[mid] - sent)
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


def run_judge(url: str, n: int, clients: int, scenario: str = "help"
              ) -> tuple[float, float, float, float]:
    """(mails/s, p50 s, p99 s, judge CPU ms per mail) of the whole judge pipeline."""
    if scenario == "signon":
        setup_game(url)
    clock = RelayProcess(n)
    relay_port = clock.port
    port = free_port()
    env = dict(os.environ, JUDGE_DATABASE_URL=url, JUDGE_ADDRESS="judge@example.org",
               JUDGE_LMTP_PORT=str(port), JUDGE_SMTP_LISTEN_PORT="0",
               JUDGE_SMTP_HOST="127.0.0.1", JUDGE_SMTP_PORT=str(relay_port),
               JUDGE_REPLIES_PER_ADDRESS_PER_DAY=str(n + 10),
               JUDGE_ANONYMOUS_REPLIES_PER_ADDRESS_PER_DAY=str(n + 10),
               JUDGE_UNREAD_REPLIES_PER_ADDRESS_PER_DAY=str(n + 10), JUDGE_LOG_LEVEL="WARNING",
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
        kids0 = children_cpu(proc.pid)
        loop0 = sum(cpu_times(proc.pid, proc.pid))
        start = time.monotonic()
        acks: list[float] = []
        acked = send_all(port, mids, clients, orders_mail if scenario == "signon" else help_mail,
                         acks)
        if not clock.done.wait(timeout=300):
            raise RuntimeError(f"only {len(clock.arrived)} of {n} replies arrived")
        elapsed = max(clock.arrived.values()) - start
        user, system = cpu_times(proc.pid)
        cpu = user - user0 + system - system0  # start-up (imports) not counted
        loop = sum(cpu_times(proc.pid, proc.pid)) - loop0
        kids = sum(at - kids0.get(kid, 0.0) for kid, at in children_cpu(proc.pid).items())
        print(f"  judge CPU: {cpu / n * 1000:.2f} ms/mail ({(user - user0) / n * 1000:.2f} user), "
              f"of which the event loop thread {loop / n * 1000:.2f}, database threads "
              f"{(cpu - loop) / n * 1000:.2f}; besides, its worker processes (turn pool) "
              f"{kids / n * 1000:.2f}", file=sys.stderr)
        acks.sort()
        print(f"  LMTP ack (250) wait: p50 {statistics.median(acks) * 1000:.1f} ms, p99 "
              f"{acks[min(len(acks) - 1, int(len(acks) * 0.99))] * 1000:.1f} ms, max "
              f"{acks[-1] * 1000:.1f} ms", file=sys.stderr)
        if scenario == "signon":
            check_orders(url, n)
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


def check_orders(url: str, n: int) -> None:
    """Every mail was handled and each power's three orders are on file."""
    from judge.storage import Database, gamerepo
    from judge.storage.models_mail import InboundMail

    db = Database(url)
    try:
        with db.reading() as session:
            handled = session.query(InboundMail).filter(InboundMail.status == "done").count()
            game = gamerepo.game_by_name(session, GAME)
            assert game is not None and game.phase == "S1901M", "the game moved on"
            sets = {power: gamerepo.current_orders(session, game.id, game.phase, power)
                    for power in THREE_ORDERS}
            on_file = {p: list(o.orders) if o is not None else [] for p, o in sets.items()}
    finally:
        db.dispose()
    assert handled >= n, f"only {handled} of {n} mails handled"
    wrong = {p: o for p, o in on_file.items() if o != THREE_ORDERS[p]}
    assert not wrong, f"orders on file differ: {wrong}"


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
    parser.add_argument("--scenario", choices=("help", "signon"), default="help",
                        help="HELP mails, or SIGNON with three orders (issue 16)")
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
        rate, p50, p99, cpu = run_judge(f"sqlite:///{tmp}/judge.db", n, clients, args.scenario)
        rows.append(("judge, SQLite", rate, p50, p99, cpu))
        judged.append(("SQLite", rate))
    if not args.no_postgres:
        pg = postgres_database()
        if pg is not None:
            url, drop = pg
            try:
                rate, p50, p99, cpu = run_judge(url, n, clients, args.scenario)
                rows.append(("judge, PostgreSQL", rate, p50, p99, cpu))
                judged.append(("PostgreSQL", rate))
            finally:
                drop()  # type: ignore[operator]
    what = "SIGNON + three orders" if args.scenario == "signon" else "HELP"
    print(f"{n} mails over {clients} LMTP sessions; judge: stored (committed) before each 250, "
          f"handled ({what}), reply accepted by the relay")
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
