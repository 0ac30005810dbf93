"""Connection limits with real sockets: a 421 above the mail cap, idle sessions closed, 503
above the web archive's cap; repeated log lines held back."""

from __future__ import annotations

import asyncio
import logging
import socket
from dataclasses import replace

from judge.archive.server import run as run_archive
from judge.logfilter import RepeatFilter
from judge.settings import Settings

from .conftest import start_judge
from .peers import free_port


def _banner(port: int) -> tuple[socket.socket, bytes]:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    return sock, sock.recv(200)


async def test_mail_connections_above_the_cap_get_421(settings: Settings) -> None:
    judge = await start_judge(replace(settings, max_mail_connections=3))
    held: list[socket.socket] = []
    try:
        for port in (judge.lmtp_port, judge.smtp_port, judge.lmtp_port):
            sock, banner = await asyncio.to_thread(_banner, port)
            held.append(sock)
            assert banner.startswith(b"220")
        for port in (judge.lmtp_port, judge.smtp_port):  # one cap for both listeners
            sock, banner = await asyncio.to_thread(_banner, port)
            assert banner.startswith(b"421")
            assert await asyncio.to_thread(sock.recv, 10) == b""  # and closed
            sock.close()
        held.pop().close()
        for _ in range(100):  # the place is given back once the server saw the close
            sock, banner = await asyncio.to_thread(_banner, judge.lmtp_port)
            sock.close()
            if banner.startswith(b"220"):
                break
            await asyncio.sleep(0.05)
        assert banner.startswith(b"220")
    finally:
        for sock in held:
            sock.close()
        await judge.stop()


async def test_idle_mail_session_is_closed(settings: Settings) -> None:
    judge = await start_judge(replace(settings, mail_idle_seconds=0.5))
    try:
        sock, banner = await asyncio.to_thread(_banner, judge.lmtp_port)
        assert banner.startswith(b"220")
        rest = await asyncio.to_thread(sock.recv, 200)  # blocks until the server hangs up
        assert rest == b"" or rest.startswith(b"421")
        sock.close()
    finally:
        await judge.stop()


def _http_get(port: int) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return sock.recv(200)


async def test_web_connections_above_the_cap_get_503(settings: Settings) -> None:
    web = replace(settings, web_port=free_port(), max_http_connections=2,
                  http_idle_seconds=30)
    judge = await start_judge(web)
    archive = asyncio.create_task(run_archive(judge.ctx))
    idle: list[socket.socket] = []
    try:
        for _ in range(100):
            if "web" in judge.ctx.ports:
                break
            await asyncio.sleep(0.05)
        port = judge.ctx.ports["web"]
        assert (await asyncio.to_thread(_http_get, port)).startswith(b"HTTP/1.1 200")
        for _ in range(2):
            idle.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        await asyncio.sleep(0.2)
        assert (await asyncio.to_thread(_http_get, port)).startswith(b"HTTP/1.1 503")
        for sock in idle:
            sock.close()
        idle.clear()
        for _ in range(100):
            answer = await asyncio.to_thread(_http_get, port)
            if answer.startswith(b"HTTP/1.1 200"):
                break
            await asyncio.sleep(0.05)
        assert answer.startswith(b"HTTP/1.1 200")
    finally:
        for sock in idle:
            sock.close()
        await judge.stop()
        await asyncio.wait_for(archive, 30)


def test_repeated_log_lines_are_held_back() -> None:
    clock = [0.0]
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    logger = logging.getLogger("judge.test-limits")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    handler = Keep()
    handler.addFilter(RepeatFilter(per_minute=3, clock=lambda: clock[0]))
    logger.addHandler(handler)
    try:
        for n in range(1000):
            logger.error("accept failed: %s", n)
        logger.info("an info line is never held back")
        clock[0] = 61.0
        logger.error("accept failed: %s", "again")
    finally:
        logger.removeHandler(handler)
    assert records[:3] == ["accept failed: 0", "accept failed: 1", "accept failed: 2"]
    assert records[3] == "an info line is never held back"
    assert records[4] == "accept failed: again [997 similar message(s) held back]"
    assert len(records) == 5
