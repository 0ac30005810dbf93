"""Slow clients cannot take the judge down (issue 25, point 5), over real sockets on loopback
against a running judge (LMTP, SMTP and its web component, /play in front of the archive).

1,000 connections from one address that drip a request's head, or sit in the middle of a
command line, leave a client from another address served on the web port and on the LMTP and
SMTP ports; a web request not received in time is cut, and so is a mail command line dripped
past ``mail_idle_seconds``; 220 dripping connections from 220 addresses (the case seen, past
the overall caps of 200) are cut by those deadlines and others are served again while they
drip. The attacker is 127.0.0.2 (or 127.0.1.x), the normal client 127.0.0.1: all loopback
(Linux routes all of 127/8 to ``lo``), and two addresses are the point of a cap per address.
How fast the normal client is served is measured by benchmarks/slow_clients.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import resource
import selectors
import smtplib
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import replace

from judge.play.serving import run as run_web
from judge.settings import Settings

from .conftest import RunningJudge, start_judge
from .peers import deliver, free_port, make_mail

SLOW_ADDRESS = "127.0.0.2"
NORMAL_ADDRESS = "127.0.0.1"
COUNT = 1000
HEAD_START = b"GET /index.json HTTP/1.1\r\nHost: judge.example.org\r\n"


@contextlib.contextmanager
def open_files_for(sockets: int) -> Iterator[None]:
    """Raise the soft limit on open files for this many client sockets (and the server's
    side of them) if it is below; restore it after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = 2 * sockets + 500
    if soft != resource.RLIM_INFINITY and soft < needed:
        assert hard == resource.RLIM_INFINITY or hard >= needed, (
            f"{sockets} connections need {needed} open files; the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def open_slow(port: int, count: int, first: bytes = b"") -> list[socket.socket]:
    """``count`` connections from SLOW_ADDRESS, each having sent ``first`` (a request begun
    and never finished). A connection the server refused at once may fail the send: it is
    kept all the same, its answer is read later."""
    opened: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            opened.append(sock)
            sock.settimeout(30)
            sock.bind((SLOW_ADDRESS, 0))
            sock.connect(("127.0.0.1", port))
            if first:
                with contextlib.suppress(OSError):
                    sock.sendall(first)
    except BaseException:
        close_all(opened)
        raise
    return opened


def close_all(socks: list[socket.socket]) -> None:
    for sock in socks:
        sock.close()


def first_answers(socks: list[socket.socket], enough: int,
                  timeout: float = 60.0) -> tuple[dict[str, int], list[socket.socket]]:
    """Read what the server first says on each connection, until ``enough`` have said
    something (or ``timeout``): counts by the answer's status code ("closed" for a
    connection closed without a word), and the connections that said nothing yet."""
    counts: dict[str, int] = {}
    quiet = set(socks)
    with selectors.DefaultSelector() as selector:
        for sock in socks:
            selector.register(sock, selectors.EVENT_READ)
        end = time.monotonic() + timeout
        heard = 0
        while heard < enough and time.monotonic() < end:
            for key, _ in selector.select(timeout=1.0):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                selector.unregister(sock)
                quiet.discard(sock)
                try:
                    data = sock.recv(64)
                except ConnectionResetError:
                    data = b""
                word = "closed" if not data else data[:3].decode("ascii", "replace")
                if data.startswith(b"HTTP/1.1 "):
                    word = data[9:12].decode("ascii", "replace")
                counts[word] = counts.get(word, 0) + 1
                heard += 1
    return counts, [sock for sock in socks if sock in quiet]


def http_get(port: int, path: str) -> tuple[int, bytes]:
    """One request from NORMAL_ADDRESS on a connection of its own."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                      source_address=(NORMAL_ADDRESS, 0))
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


async def start_web(settings: Settings) -> tuple[RunningJudge, asyncio.Task[None], int]:
    judge = await start_judge(replace(settings, web_port=free_port()))
    web = asyncio.create_task(run_web(judge.ctx))
    for _ in range(600):
        if "web" in judge.ctx.ports or web.done():
            break
        await asyncio.sleep(0.05)
    assert "web" in judge.ctx.ports, "the web component did not start"
    return judge, web, judge.ctx.ports["web"]


async def stop_web(judge: RunningJudge, web: asyncio.Task[None]) -> None:
    await judge.stop()
    await asyncio.wait_for(web, 30)


async def test_a_thousand_slow_web_connections_leave_others_served(settings: Settings) -> None:
    """Before: each dripping connection counted against the overall cap (200), and everyone
    was answered 503 until they closed. Now one address holds at most its 25 places."""
    # the deadline far away: the connections held must still be held when the client comes
    settings = replace(settings, http_request_seconds=300.0)
    cap = settings.max_http_connections_per_client
    assert 0 < cap < settings.max_http_connections < COUNT
    judge, web, port = await start_web(settings)
    slow: list[socket.socket] = []
    try:
        with open_files_for(COUNT):
            slow = await asyncio.to_thread(open_slow, port, COUNT, HEAD_START)
            status, body = await asyncio.to_thread(http_get, port, "/index.json")
            assert status == 200 and b'"games"' in body
            status, body = await asyncio.to_thread(http_get, port, "/play")
            assert status == 200 and b"<form" in body
            # every connection past the cap was answered 503 (or cut) at once; those held
            # are still open, in the middle of their request
            answers, held = await asyncio.to_thread(first_answers, slow, COUNT - cap)
            assert sum(answers.values()) == COUNT - cap, answers
            assert set(answers) <= {"503", "closed"}, answers
            assert len(held) == cap
            # a request finished on a held connection is answered like any other
            await asyncio.to_thread(held[0].sendall, b"Connection: close\r\n\r\n")
            assert (await asyncio.to_thread(held[0].recv, 200)).startswith(b"HTTP/1.1 200")
    finally:
        close_all(slow)
        await stop_web(judge, web)


async def test_a_thousand_slow_mail_connections_leave_others_served(
        settings: Settings) -> None:
    """Before: the 200 places of the mail cap went to the first 200 and the normal client
    got a 421. Now one address holds at most its 50, on LMTP and SMTP together."""
    cap = settings.max_mail_connections_per_client
    assert 0 < cap < settings.max_mail_connections < COUNT
    judge = await start_judge(settings)
    slow: list[socket.socket] = []
    try:
        with open_files_for(COUNT):
            half = COUNT // 2
            slow = await asyncio.to_thread(open_slow, judge.lmtp_port, half)
            slow += await asyncio.to_thread(open_slow, judge.smtp_port, COUNT - half)
            answers, quiet = await asyncio.to_thread(first_answers, slow, COUNT)
            assert not quiet and answers.get("220") == cap, answers
            assert answers.get("421", 0) + answers.get("closed", 0) == COUNT - cap, answers
            for sock in slow:  # the held ones now sit in the middle of a command line
                with contextlib.suppress(OSError):
                    sock.sendall(b"LHLO slow.example")
            for port, lmtp in ((judge.lmtp_port, True), (judge.smtp_port, False)):
                code = await asyncio.to_thread(deliver, port, make_mail(), lmtp=lmtp)
                assert code == 250
    finally:
        close_all(slow)
        await judge.stop()


def drip_until_closed(sock: socket.socket, pieces: list[bytes], every: float) -> int | None:
    """Send one piece every ``every`` seconds; the number of pieces sent when the server
    closed the connection, None if it never did."""
    with selectors.DefaultSelector() as selector:
        selector.register(sock, selectors.EVENT_READ)
        for sent, piece in enumerate(pieces):
            if selector.select(timeout=every):
                try:
                    data = sock.recv(200)
                except ConnectionResetError:
                    data = b""
                assert data == b"", f"the server answered a request it never got: {data!r}"
                return sent
            try:
                sock.sendall(piece)
            except (BrokenPipeError, ConnectionResetError):
                return sent
    return None


async def test_a_web_request_not_received_in_time_is_cut(settings: Settings) -> None:
    """uvicorn's keep-alive timer runs only between requests: a head dripped a header a
    fifth of a second, or no byte at all, held a connection for ever."""
    judge, web, port = await start_web(replace(settings, http_request_seconds=1.0,
                                               http_idle_seconds=30.0))
    try:
        drip = socket.create_connection(("127.0.0.1", port), timeout=30)
        silent = socket.create_connection(("127.0.0.1", port), timeout=30)
        body = socket.create_connection(("127.0.0.1", port), timeout=30)
        try:
            pieces = [HEAD_START] + [b"X-Drip: %d\r\n" % n for n in range(100)]
            sent = await asyncio.to_thread(drip_until_closed, drip, pieces, 0.2)
            assert sent is not None and sent < len(pieces)
            assert await asyncio.to_thread(silent.recv, 200) == b""
            # the body counts too: a form posted to /play a few bytes at a time
            head = (b"POST /play HTTP/1.1\r\nHost: judge.example.org\r\nContent-Type: "
                    b"application/x-www-form-urlencoded\r\nContent-Length: 400\r\n\r\n")
            pieces = [head] + [b"a=1&" for _ in range(100)]
            sent = await asyncio.to_thread(drip_until_closed, body, pieces, 0.2)
            assert sent is not None and sent < len(pieces)
        finally:
            drip.close()
            silent.close()
            body.close()
        # the deadline runs from a request's first byte: a keep-alive connection idle for
        # longer than it between two requests serves the second one
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            sockets = []
            for pause in (0.0, 1.5):
                await asyncio.sleep(pause)
                await asyncio.to_thread(conn.request, "GET", "/index.json")
                response = await asyncio.to_thread(conn.getresponse)
                assert response.status == 200
                await asyncio.to_thread(response.read)
                sockets.append(conn.sock)
            assert sockets[0] is sockets[1]  # the same connection
        finally:
            conn.close()
    finally:
        await stop_web(judge, web)


async def test_a_mail_command_line_dripped_is_cut(settings: Settings) -> None:
    """aiosmtpd restarts its timer only on a whole, known command line, so a line dripped a
    byte at a time is cut ``mail_idle_seconds`` after the previous command, while commands
    that keep coming do keep the session."""
    judge = await start_judge(replace(settings, mail_idle_seconds=1.0))
    try:
        sock = socket.create_connection(("127.0.0.1", judge.lmtp_port), timeout=30)
        try:
            assert (await asyncio.to_thread(sock.recv, 200)).startswith(b"220")
            for _ in range(6):  # three seconds of whole commands, each within the limit
                await asyncio.to_thread(sock.sendall, b"NOOP\r\n")
                assert (await asyncio.to_thread(sock.recv, 200)).startswith(b"250")
                await asyncio.sleep(0.5)
            line = [bytes([c]) for c in b"LHLO client.example.org with a long name\r\n"]
            sent = await asyncio.to_thread(drip_until_closed, sock, line, 0.2)
            assert sent is not None and sent < len(line) - 2
        finally:
            sock.close()
        assert await asyncio.to_thread(deliver, judge.lmtp_port, make_mail()) == 250
    finally:
        await judge.stop()


class Drippers:
    """Connections from many addresses (127.0.1.1, 127.0.1.2...), one each, that keep
    dripping a line every fifth of a second in a thread of their own, never closing by
    themselves; ``cut`` counts those the server closed."""

    def __init__(self, port: int, count: int, first: bytes, piece: bytes) -> None:
        self.socks: list[socket.socket] = []
        self.piece = piece
        self.cut: set[socket.socket] = set()
        self.stop = threading.Event()
        try:
            for n in range(count):
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                self.socks.append(sock)
                sock.settimeout(30)
                sock.bind((f"127.0.{1 + n // 250}.{1 + n % 250}", 0))
                sock.connect(("127.0.0.1", port))
                sock.sendall(first)
        except BaseException:
            close_all(self.socks)
            raise
        self.thread = threading.Thread(target=self._drip, daemon=True)
        self.thread.start()

    def _drip(self) -> None:
        for _ in range(600):  # two minutes at most
            if self.stop.wait(0.2):
                return
            for sock in self.socks:
                if sock in self.cut:
                    continue
                try:
                    sock.sendall(self.piece)
                except OSError:
                    self.cut.add(sock)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)
        close_all(self.socks)


async def test_dripping_connections_from_many_addresses_are_cut_in_time(
        settings: Settings) -> None:
    """What was seen: 220 connections dripping their heads, more than the 200 of
    ``max_http_connections``, made everyone get 503 until they closed. Each from an address
    of its own, so the cap per client does not apply: the deadline cuts them, and the
    normal client is served again while they still drip."""
    judge, web, port = await start_web(replace(settings, http_request_seconds=1.0))
    drippers = await asyncio.to_thread(Drippers, port, 220, HEAD_START, b"X-Drip: 1\r\n")
    try:
        status = 0
        for _ in range(300):  # a minute at most
            status, _ = await asyncio.to_thread(http_get, port, "/index.json")
            if status == 200 and len(drippers.cut) == len(drippers.socks):
                break
            await asyncio.sleep(0.2)
        assert status == 200
        assert len(drippers.cut) == 220  # every dripper was cut by the server, none closed
        assert not drippers.stop.is_set()
    finally:
        await asyncio.to_thread(drippers.close)
        await stop_web(judge, web)


async def test_mail_sessions_sitting_in_a_command_line_from_many_addresses_are_cut(
        settings: Settings) -> None:
    """The same on the mail ports: 220 sessions past the 200 of ``max_mail_connections``,
    each from its own address, dripping a command line; ``mail_idle_seconds`` cuts them and
    the MTA's delivery is taken again while they still drip."""
    judge = await start_judge(replace(settings, mail_idle_seconds=1.0))
    drippers = await asyncio.to_thread(Drippers, judge.lmtp_port, 220, b"LHLO ", b"x")
    try:
        code = 0
        for _ in range(300):
            try:
                code = await asyncio.to_thread(deliver, judge.lmtp_port, make_mail())
            except smtplib.SMTPConnectError as exc:  # 421: the places are taken
                code = exc.smtp_code
            if code == 250 and len(drippers.cut) == len(drippers.socks):
                break
            await asyncio.sleep(0.2)
        assert code == 250
        assert len(drippers.cut) == 220
    finally:
        await asyncio.to_thread(drippers.close)
        await judge.stop()
