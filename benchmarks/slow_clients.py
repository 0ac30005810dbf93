"""A normal client's wait while one address holds N slow connections (issue 25, point 5).

Starts a judge in this process (SQLite in a temp dir; LMTP, SMTP and the web component, /play
in front of the archive; a sink stands in for the relay), then measures a client from
127.0.0.1: GET /index.json, GET /play, one mail delivered over LMTP and one over SMTP, first
with no other connection (the peer), then while 127.0.0.2 holds N connections to the web port
dripping a request's head and N to the mail ports (half LMTP, half SMTP) sitting in a command
line, opened just before. Run once with the settings' caps per client address and once
without them (the judge before the caps). Prints milliseconds (the first request after the
flood, then the median and the worst of the rounds) or what refused the client; asserts
nothing.

    python benchmarks/slow_clients.py [--slow 1000] [--rounds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import logging
import resource
import smtplib
import socket
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from aiosmtpd.controller import Controller

from judge.app import AppContext, serve
from judge.play.serving import run as run_web
from judge.settings import Settings
from judge.storage import Database

SLOW_ADDRESS = "127.0.0.2"


class Sink:
    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        return "250 OK"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def http_get(port: int, path: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return str(response.status)
    finally:
        conn.close()


MAIL = (b"From: Player <player@example.org>\r\nTo: judge@example.org\r\nSubject: hi\r\n"
        b"Message-ID: <%d.%d@example.org>\r\n\r\nHELP\r\n")


def deliver(port: int, lmtp: bool) -> str:
    raw = MAIL % (time.monotonic_ns(), port)
    try:
        client = (smtplib.LMTP("127.0.0.1", port, timeout=60) if lmtp
                  else smtplib.SMTP("127.0.0.1", port, timeout=60))
    except smtplib.SMTPConnectError as exc:
        return str(exc.smtp_code)
    except OSError as exc:
        return type(exc).__name__
    try:
        client.sendmail("player@example.org", ["judge@example.org"], raw)
        return "250"
    except smtplib.SMTPResponseException as exc:
        return str(exc.smtp_code)
    finally:
        with contextlib.suppress(smtplib.SMTPException, OSError):
            client.quit()


def open_slow(port: int, count: int, first: bytes) -> list[socket.socket]:
    opened: list[socket.socket] = []
    for _ in range(count):
        sock = socket.socket()
        opened.append(sock)
        sock.settimeout(30)
        sock.bind((SLOW_ADDRESS, 0))
        sock.connect(("127.0.0.1", port))
        with contextlib.suppress(OSError):
            sock.sendall(first)
    return opened


def timed(call: Callable[[], str]) -> tuple[float, str]:
    start = time.perf_counter()
    answer = call()
    return (time.perf_counter() - start) * 1000, answer


async def measure(label: str, probes: dict[str, Callable[[], str]], rounds: int,
                  flood: Callable[[], list[socket.socket]] | None) -> None:
    held: list[socket.socket] = []
    try:
        if flood is not None:
            start = time.perf_counter()
            held = await asyncio.to_thread(flood)
            print(f"  {len(held)} slow connections opened in "
                  f"{time.perf_counter() - start:.2f} s")
        for name, probe in probes.items():
            runs = [await asyncio.to_thread(timed, probe) for _ in range(rounds)]
            answers = sorted({answer for _, answer in runs})
            times = [ms for ms, _ in runs]
            print(f"  {label:<16} {name:<16} first {times[0]:8.1f} ms   median "
                  f"{statistics.median(times):8.1f} ms   worst {max(times):8.1f} ms   "
                  f"answers {','.join(answers)}")
    finally:
        for sock in held:
            sock.close()


async def run_case(title: str, settings: Settings, slow: int, rounds: int) -> None:
    print(f"{title}: web and mail each flooded with {slow} connections from {SLOW_ADDRESS}; "
          f"max_http_connections_per_client="
          f"{settings.max_http_connections_per_client}, max_mail_connections_per_client="
          f"{settings.max_mail_connections_per_client}, max_http_connections="
          f"{settings.max_http_connections}, max_mail_connections="
          f"{settings.max_mail_connections}")
    db = Database(settings.database_url)
    ctx = AppContext(settings=settings, db=db)
    task = asyncio.create_task(serve(settings, components=[run_web], ctx=ctx,
                                     handle_signals=False))
    for _ in range(1200):
        if "web" in ctx.ports or task.done():
            break
        await asyncio.sleep(0.05)
    web, lmtp, smtp = ctx.ports["web"], ctx.ports["lmtp"], ctx.ports["smtp"]
    probes: dict[str, Callable[[], str]] = {
        "GET /index.json": lambda: http_get(web, "/index.json"),
        "GET /play": lambda: http_get(web, "/play"),
        "LMTP mail": lambda: deliver(lmtp, True),
        "SMTP mail": lambda: deliver(smtp, False),
    }
    head = b"GET /index.json HTTP/1.1\r\nHost: judge.example.org\r\nX-Slow: 1\r\n"

    def flood() -> list[socket.socket]:
        return (open_slow(web, slow, head) + open_slow(lmtp, slow // 2, b"LHLO slow")
                + open_slow(smtp, slow - slow // 2, b"EHLO slow"))

    try:
        await measure("no others", probes, rounds, None)
        await measure(f"{slow}+{slow} slow", probes, rounds, flood)
    finally:
        ctx.stop()
        await asyncio.wait_for(task, 60)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slow", type=int, default=1000, help="slow connections per port kind")
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    # the refusals are logged as warnings, one per connection: not what is measured
    logging.basicConfig(level=logging.ERROR)
    # and uvicorn's "Exceeded concurrency limit." per request refused without the caps
    logging.getLogger("uvicorn.error").addFilter(lambda record: record.levelno >= logging.ERROR)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = 4 * args.slow + 1000
    if soft != resource.RLIM_INFINITY and soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(needed, hard), hard))
    sink = Controller(Sink(), hostname="127.0.0.1", port=free_port())
    sink.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            base = Settings(
                database_url=f"sqlite:///{Path(tmp) / 'slow.db'}", address="judge@example.org",
                lmtp_port=0, smtp_listen_port=free_port(), web_port=free_port(),
                smtp_host="127.0.0.1", smtp_port=sink.port)
            await run_case("with the caps per client (defaults)", base, args.slow, args.rounds)
            before = replace(base, database_url=f"sqlite:///{Path(tmp) / 'before.db'}",
                             smtp_listen_port=free_port(), web_port=free_port(),
                             max_http_connections_per_client=0,
                             max_mail_connections_per_client=0, http_request_seconds=3600.0)
            await run_case("without them (as before)", before, args.slow, args.rounds)
    finally:
        sink.stop()


if __name__ == "__main__":
    asyncio.run(main())
