"""Deadline storm: N games due at the same minute, a real ``judge serve``, mail arriving meanwhile.

Creates N started games (seven confirmed players each, every Spring 1901 order in) with one
deadline for all, straight in the tables; starts ``judge serve`` (``--nodes`` of them on one
database) against a local aiosmtpd relay that counts what arrives; sends a steady stream of
order mails (SIGNON + orders, over LMTP, round robin over the nodes) to a few other games
during the whole storm; and prints:

- time from the deadline until every storm game is adjudicated (its bulletins are queued in
  the same transaction), and until every storm bulletin is at the relay;
- the LMTP ack latency (DATA sent -> 250) of the stream: p50 / p99 / max;
- the peak RSS of the judge processes (each with its turn workers);
- the targets of issue 16 beside the numbers, and the machine's load (``uptime``).

    python benchmarks/storm.py [--games 1000] [--url URL | --postgres] [--nodes 1]

``--postgres`` creates a database of its own on $JUDGE_TEST_POSTGRES_URL's server
(default postgresql+psycopg://postgres@127.0.0.1:5432/test) and drops it afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
from datetime import UTC, datetime, timedelta
from pathlib import Path

POSTGRES_URL = os.environ.get("JUDGE_TEST_POSTGRES_URL",
                              "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PASSWORD = "stormpw"
STREAM_GAMES = 10
SPRING_1901 = {
    "AUSTRIA": ["A VIE - TRI", "A BUD - GAL", "F TRI - ALB"],
    "ENGLAND": ["A LVP - YOR", "F LON - NTH", "F EDI - NWG"],
    "FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - PIC"],
    "GERMANY": ["A BER - KIE", "A MUN - RUH", "F KIE - DEN"],
    "ITALY": ["A VEN - PIE", "A ROM - VEN", "F NAP - ION"],
    "RUSSIA": ["A MOS - UKR", "A WAR - GAL", "F STP/SC - BOT", "F SEV - BLA"],
    "TURKEY": ["A CON - BUL", "A SMY - CON", "F ANK - BLA"],
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing on port {port}")


# --------------------------------------------------------------------------- the games


def address(power: str, index: int, domain: str) -> str:
    return f"{power.lower()}.{index}@{domain}"


def create_games(url: str, games: int, deadline: datetime,
                 stream_games: int = STREAM_GAMES) -> None:
    """N storm games due at ``deadline`` with every order in, and the stream's games (due in
    three days, Turkey never ordering), through the storage layer in a few transactions."""
    from sqlalchemy import update

    from judge.adjudicator.catalog import variant as installed_variant
    from judge.adjudicator.jsonio import position_to_json
    from judge.service import deadlines
    from judge.service.auth import hash_password
    from judge.storage import Database
    from judge.storage.gamerepo import submit_orders
    from judge.storage.models import Account, Deadline, Game, Seat, default_game_options

    db = Database(url)
    db.migrate()
    now = datetime.now(UTC)
    secret = hash_password(PASSWORD)
    position = position_to_json(installed_variant("standard").initial_position())
    specs = [(f"storm{i}", i, "storm.test", deadline) for i in range(games)]
    specs += [(f"stream{j}", j, "stream.test", now + timedelta(days=3))
              for j in range(stream_games)]
    for start in range(0, len(specs), 200):
        with db.session() as s:
            for name, index, domain, due in specs[start:start + 200]:
                gm = Account(address=address("gm", index, domain), created=now, confirmed_at=now)
                s.add(gm)
                s.flush()
                game = Game(name=name, language="en", options=default_game_options(),
                            gm_account_id=gm.id, status="active", phase="S1901M",
                            position=position, created=now)
                s.add(game)
                s.flush()
                for power in installed_variant("standard").powers:
                    account = Account(address=address(power, index, domain), created=now,
                                      confirmed_at=now)
                    s.add(account)
                    s.flush()
                    s.add(Seat(game_id=game.id, power=power, account_id=account.id,
                               password_hash=secret))
                    if domain == "storm.test":
                        submit_orders(s, game.id, "S1901M", power, SPRING_1901[power], now,
                                      submitted_by_id=account.id)
                s.flush()
                deadlines.schedule(s, game, "S1901M", due, now)
    with db.session() as s:
        # the games are complete already: no early processing, they all wait for the deadline
        s.execute(update(Deadline).where(Deadline.kind == "early").values(done=True))
    db.dispose()


# --------------------------------------------------------------------------- the relay


async def _relay_session(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """One SMTP session: every command answered, each message's recipients' domains printed
    with the time the message was taken (after its final dot)."""
    rcpts: list[str] = []
    writer.write(b"220 relay ESMTP\r\n")
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            verb = line[:4].upper()
            if verb == b"EHLO":
                writer.write(b"250-relay\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 HELP\r\n")
            elif verb == b"RCPT":
                rcpts.append(line.split(b"<", 1)[1].split(b">", 1)[0].decode())
                writer.write(b"250 OK\r\n")
            elif verb == b"DATA":
                writer.write(b"354 go ahead\r\n")
                # the whole message in one read up to its final dot: no per-line work
                await reader.readuntil(b"\r\n.\r\n")
                at = time.monotonic()
                sys.stdout.write("".join(f"{r.rpartition('@')[2]}\t{at}\n" for r in rcpts))
                sys.stdout.flush()
                rcpts.clear()
                writer.write(b"250 2.0.0 OK\r\n")
            elif verb == b"QUIT":
                writer.write(b"221 bye\r\n")
                await writer.drain()
                return
            else:  # HELO, MAIL, RSET, NOOP
                if verb in (b"MAIL", b"RSET"):
                    rcpts.clear()
                writer.write(b"250 OK\r\n")
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        return
    finally:
        writer.close()


def relay_server(port: int) -> None:
    """The relay: a minimal SMTP sink in a process of its own, standing in for an MTA.

    aiosmtpd (the judge's own listener library) reads a message's DATA line by line in
    Python: with a map in every bulletin that cost about 4 ms of CPU per message, taken from
    the judges on this shared machine; a real MTA costs next to nothing. This sink reads each
    message in one call."""

    async def serve() -> None:
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        server = await asyncio.start_server(_relay_session, "127.0.0.1", port, limit=2 ** 26)
        async with server:
            await stop.wait()

    asyncio.run(serve())


class Relay:
    def __init__(self) -> None:
        self.port = free_port()
        self.storm = 0
        self.other = 0
        self.last_storm = 0.0
        self.proc = subprocess.Popen([sys.executable, __file__, "--relay", str(self.port)],
                                     stdout=subprocess.PIPE, text=True)
        threading.Thread(target=self._read, daemon=True).start()
        wait_port(self.port)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            domain, _, at = line.rstrip("\n").partition("\t")
            if domain == "storm.test":
                self.storm += 1
                self.last_storm = float(at)
            else:
                self.other += 1

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=10)


# --------------------------------------------------------------------------- the judges


def start_judges(url: str, nodes: int, relay_port: int, log_dir: Path, workers: int,
                 lanes: int = 1) -> list[tuple[subprocess.Popen[bytes], int]]:
    judges = []
    for node in range(nodes):
        port = free_port()
        env = dict(os.environ, JUDGE_DATABASE_URL=url, JUDGE_ADDRESS="judge@judge.test",
                   JUDGE_LMTP_PORT=str(port), JUDGE_SMTP_LISTEN_PORT="0",
                   JUDGE_SMTP_HOST="127.0.0.1", JUDGE_SMTP_PORT=str(relay_port),
                   JUDGE_REPLIES_PER_ADDRESS_PER_DAY="100000",
                   JUDGE_ANONYMOUS_REPLIES_PER_ADDRESS_PER_DAY="100000",
                   JUDGE_UNREAD_REPLIES_PER_ADDRESS_PER_DAY="100000", JUDGE_LOG_LEVEL="WARNING",
                   JUDGE_IMAP_HOST="", JUDGE_WEB_PORT=str(free_port()),
                   JUDGE_SCHEDULER_SWEEP_SECONDS="5", JUDGE_TURN_WORKERS=str(workers),
                   JUDGE_SMTP_CONNECTIONS=str(lanes))
        env.pop("JUDGE_CONFIG", None)
        with (log_dir / f"node{node}.log").open("wb") as log:
            proc = subprocess.Popen([sys.executable, "-m", "judge.cli_mail", "serve"], env=env,
                                    stdout=log, stderr=subprocess.STDOUT)
        judges.append((proc, port))
    for _, port in judges:
        wait_port(port)
    return judges


def rss_kb(pid: int) -> int:
    """RSS of ``pid`` and its children (the turn workers), in kB."""
    total = 0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> dict[tuple[int, str], float]:
    """CPU time (user + system) of ``pid`` and of each of its children, per (pid, role)."""
    out: dict[tuple[int, str], float] = {}
    try:
        children = [int(c) for c in
                    Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        children = []
    for p, role in [(pid, "main"), *((c, "workers") for c in children)]:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        out[(p, role)] = (int(fields[11]) + int(fields[12])) / TICK
    return out


class CpuMeter:
    """The CPU the judges (their main processes and turn workers) and the relay spent from the
    deadline on: a number the other loads of a shared machine do not inflate, unlike the
    wall-clock times."""

    def __init__(self, pids: dict[str, int], database: str | None = None) -> None:
        self.pids = pids  # role prefix -> pid
        # PostgreSQL: the server processes of the storm's own database (its backends)
        self.marker = f" {database} " if database else None
        self.start: dict[tuple[int, str], float] | None = None
        self.last: dict[tuple[int, str], float] = {}

    def sample(self, started: bool) -> None:
        now: dict[tuple[int, str], float] = {}
        for prefix, pid in self.pids.items():
            now.update({(p, f"{prefix}{role}"): v for (p, role), v in cpu_seconds(pid).items()})
        if self.marker:
            for entry in Path("/proc").iterdir():
                if not entry.name.isdigit():
                    continue
                try:
                    if self.marker not in (entry / "cmdline").read_bytes().decode(errors="replace"):
                        continue
                    fields = (entry / "stat").read_text().rpartition(")")[2].split()
                except OSError:
                    continue
                now[(int(entry.name), "postgres")] = (int(fields[11]) + int(fields[12])) / TICK
        if started and self.start is None:
            self.start = dict(now)
        self.last.update(now)  # a process gone keeps its last reading

    def spent(self) -> dict[str, float]:
        totals: dict[str, float] = {}
        for key, value in self.last.items():
            base = (self.start or {}).get(key, 0.0)
            role = ("relay" if key[1].startswith("relay")
                    else "postgres" if key[1] == "postgres" else key[1].rpartition(":")[2])
            totals[role] = totals.get(role, 0.0) + value - base
        return totals


# --------------------------------------------------------------------------- the stream


class Stream:
    """Order mails at ``rate`` per second over one LMTP connection per node; ack latencies."""

    def __init__(self, ports: list[int], rate: float) -> None:
        self.ports = ports
        self.rate = rate
        self.acks: list[tuple[float, float]] = []  # (sent at, latency)
        self.failures = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _mail(self, n: int) -> tuple[str, bytes]:
        game = n % STREAM_GAMES
        powers = [p for p in SPRING_1901 if p != "TURKEY"]
        power = powers[(n // STREAM_GAMES) % len(powers)]
        sender = address(power, game, "stream.test")
        body = f"SIGNON {power} stream{game} {PASSWORD}\n" + "\n".join(SPRING_1901[power])
        raw = (f"From: {sender}\r\nTo: judge@judge.test\r\nSubject: orders\r\n"
               f"Message-ID: <{uuid.uuid4().hex}@stream.test>\r\n\r\n{body}\r\n").encode()
        return sender, raw

    def _run(self) -> None:
        conns = [smtplib.LMTP("127.0.0.1", port) for port in self.ports]
        n = 0
        next_at = time.monotonic()
        while not self.stop.is_set():
            sender, raw = self._mail(n)
            conn = conns[n % len(conns)]
            sent = time.monotonic()
            try:
                conn.sendmail(sender, ["judge@judge.test"], raw)
                self.acks.append((sent, time.monotonic() - sent))
            except Exception:
                self.failures += 1
            n += 1
            next_at += 1.0 / self.rate
            time.sleep(max(0.0, next_at - time.monotonic()))
        for conn in conns:
            with contextlib.suppress(Exception):
                conn.quit()


# --------------------------------------------------------------------------- measuring


def count_turns(db: object) -> int:
    from sqlalchemy import func, select

    from judge.storage.models import Game, Turn

    with db.reading() as s:  # type: ignore[attr-defined]
        return int(s.scalar(select(func.count(Turn.id)).join(Game, Game.id == Turn.game_id)
                            .where(Game.name.like("storm%"))) or 0)


def storm_outbound(db: object) -> int:
    from sqlalchemy import func, select

    from judge.storage.models import OutboundMail

    with db.reading() as s:  # type: ignore[attr-defined]
        return int(s.scalar(select(func.count(OutboundMail.id))
                            .where(OutboundMail.to_addr.like("%@storm.test"))) or 0)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


def run(url: str, games: int, nodes: int, rate: float, lead: float, timeout: float,
        workers: int = 0, lanes: int = 1) -> float | None:
    """One storm; returns the seconds until every bulletin was at the relay (None: not)."""
    from sqlalchemy.engine import make_url

    from judge.storage import Database

    deadline_wall = datetime.now(UTC) + timedelta(seconds=lead)
    started = time.monotonic()
    create_games(url, games, deadline_wall)
    print(f"setup: {games} storm games + {STREAM_GAMES} stream games in "
          f"{time.monotonic() - started:.1f}s", flush=True)
    # the deadline on the monotonic clock
    deadline = time.monotonic() + (deadline_wall - datetime.now(UTC)).total_seconds()
    if deadline < time.monotonic() + 5:
        print("warning: setup outlasted the lead; the storm started with the judges")
    relay = Relay()
    db = Database(url)
    with tempfile.TemporaryDirectory() as tmp:
        judges = start_judges(url, nodes, relay.port, Path(tmp), workers, lanes)
        stream = Stream([port for _, port in judges], rate)
        peak_rss = [0] * len(judges)
        meter = CpuMeter({**{f"node{i}:": proc.pid for i, (proc, _) in enumerate(judges)},
                          "relay:": relay.proc.pid},
                         make_url(url).database if "postgresql" in url else None)
        adjudicated_at = at_relay_at = None
        expected = 0
        try:
            end = deadline + timeout
            while time.monotonic() < end:
                meter.sample(time.monotonic() >= deadline)
                for i, (proc, _) in enumerate(judges):
                    peak_rss[i] = max(peak_rss[i], rss_kb(proc.pid))
                    if proc.poll() is not None:
                        raise RuntimeError(f"judge node {i} exited with {proc.returncode}")
                if (adjudicated_at is None and time.monotonic() >= deadline
                        and count_turns(db) >= games):
                    adjudicated_at = time.monotonic()
                    expected = storm_outbound(db)
                if adjudicated_at is not None and relay.storm >= expected:
                    at_relay_at = relay.last_storm
                    meter.sample(True)
                    break
                time.sleep(0.25)
        finally:
            stream.stop.set()
            stream.thread.join(timeout=30)
            for proc, _ in judges:
                proc.send_signal(signal.SIGTERM)
            for proc, _ in judges:
                try:
                    proc.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    proc.kill()
            relay.stop()
            if adjudicated_at is None or at_relay_at is None:
                for log in sorted(Path(tmp).glob("*.log")):
                    print(f"--- {log.name} (tail)\n" + log.read_text(errors="replace")[-3000:])
    turns = count_turns(db)
    db.dispose()
    storm_acks = [lat for sent, lat in stream.acks if sent >= deadline
                  and (at_relay_at is None or sent <= at_relay_at)]
    all_acks = [lat for _, lat in stream.acks]
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    backend = "PostgreSQL" if "postgresql" in url else "SQLite"
    how = (f"turn pool of {workers or 'one per core (SQLite: one)'}" if workers >= 0
           else "no pool (one thread, as before)")
    print(f"\n== storm: {games} games due at once, {backend}, {nodes} node(s), {how}, "
          f"{lanes} relay connection(s) per node, {os.cpu_count()} cores; load: {load}")
    if adjudicated_at is None:
        print(f"NOT all adjudicated within {timeout:.0f}s: {turns} of {games}")
    else:
        print(f"all adjudicated and bulletins queued: {adjudicated_at - deadline:7.1f} s "
              f"after the deadline ({expected} storm bulletins)")
    if at_relay_at is None:
        print(f"NOT all at the relay within {timeout:.0f}s: {relay.storm} of {expected or '?'}")
    else:
        print(f"all bulletins at the relay:         {at_relay_at - deadline:7.1f} s "
              f"after the deadline")
    if storm_acks:
        print(f"LMTP ack during the storm ({len(storm_acks)} order mails at {rate:g}/s): "
              f"p50 {statistics.median(storm_acks) * 1000:.0f} ms, "
              f"p99 {percentile(storm_acks, 0.99) * 1000:.0f} ms, "
              f"max {max(storm_acks) * 1000:.0f} ms; whole run p99 "
              f"{percentile(all_acks, 0.99) * 1000:.0f} ms; {stream.failures} refused")
    spent = meter.spent()
    judge_cpu = spent.get("main", 0.0) + spent.get("workers", 0.0)
    print(f"CPU from the deadline to the last bulletin at the relay: judge {judge_cpu:.1f} s "
          f"(main process {spent.get('main', 0.0):.1f} s, turn workers "
          f"{spent.get('workers', 0.0):.1f} s) = {judge_cpu / games * 1000:.0f} ms per game; "
          f"relay {spent.get('relay', 0.0):.1f} s"
          + (f"; PostgreSQL's backends for this database {spent['postgres']:.1f} s = "
             f"{spent['postgres'] / games * 1000:.0f} ms per game" if "postgres" in spent
             else ""))
    print("peak RSS per node (judge + turn workers): "
          + ", ".join(f"{kb / 1024:.0f} MB" for kb in peak_rss))
    if backend == "PostgreSQL":
        print("targets (issue 16, N=1000): adjudicated+queued <= 60 s, at the relay <= 120 s, "
              "ack p99 < 1 s")
    else:
        print("targets (issue 16): ack p99 < 1 s; report the N adjudicated within 60 s")
    return None if at_relay_at is None else at_relay_at - deadline


def postgres_database() -> tuple[str, object]:
    import psycopg
    from sqlalchemy.engine import make_url

    base = make_url(POSTGRES_URL)
    admin = f"host={base.host} port={base.port or 5432} dbname={base.database} " \
            f"user={base.username or 'postgres'}"
    name = f"judge_storm_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin, autocommit=True, connect_timeout=3) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return base.set(database=name).render_as_string(hide_password=False), drop


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--relay":
        relay_server(int(sys.argv[2]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--url", default="", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--postgres", action="store_true",
                        help="a fresh PostgreSQL database on $JUDGE_TEST_POSTGRES_URL's server")
    parser.add_argument("--nodes", type=int, default=1)
    parser.add_argument("--rate", type=float, default=1.0, help="order mails per second")
    parser.add_argument("--lead", type=float, default=0.0,
                        help="seconds from the end of the setup to the deadline "
                             "(default: enough for the judges to start)")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--workers", type=int, default=0,
                        help="the judges' turn_workers (0: one per core; SQLite: one)")
    parser.add_argument("--smtp-connections", type=int, default=4,
                        help="the judges' smtp_connections: parallel lanes to the relay")
    parser.add_argument("--compare", action="store_true",
                        help="then the same storm without the turn pool (the peer), and the ratio")
    args = parser.parse_args()
    if args.compare and args.url:
        parser.error("--compare needs a fresh database per run: SQLite (default) or --postgres")
    results: list[float | None] = []
    for workers in ([args.workers, -1] if args.compare else [args.workers]):
        drop = None
        with tempfile.TemporaryDirectory() as tmp:
            url = args.url
            if args.postgres:
                url, drop = postgres_database()
            elif not url:
                url = f"sqlite:///{tmp}/storm.db"
            # the setup time grows with N; the judges need about 10 s to start
            lead = args.lead or 30.0 + args.games * 0.05 + 5 * args.nodes
            try:
                results.append(run(url, args.games, args.nodes, args.rate, lead, args.timeout,
                                   workers, args.smtp_connections))
            finally:
                if drop is not None:
                    drop()  # type: ignore[operator]
    if args.compare and None not in results:
        pool, peer = results
        print(f"\nRESULT: all at the relay {pool:.1f} s with the pool, {peer:.1f} s without: "
              f"{peer / pool:.2f}x")  # type: ignore[operator]
    sys.exit(0 if None not in results else 1)


if __name__ == "__main__":
    main()
