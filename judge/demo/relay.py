"""A local SMTP sink for the demo: accepts every message and keeps it in memory.

Written on asyncio streams rather than aiosmtpd because judge/mail is the one package allowed
to import the mail libraries, and the demo's relay is a stand-in for the outside world, not
part of the judge. It speaks just enough SMTP for the judge's sender (EHLO, MAIL, RCPT, DATA).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field


@dataclass
class Captured:
    sender: str
    recipients: list[str]
    raw: bytes


@dataclass
class CaptureRelay:
    host: str = "127.0.0.1"
    messages: list[Captured] = field(default_factory=list)
    port: int = 0
    _server: asyncio.Server | None = None

    async def start(self) -> CaptureRelay:
        self._server = await asyncio.start_server(self._session, self.host, 0)
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        def reply(line: str) -> None:
            writer.write(line.encode() + b"\r\n")

        sender, recipients = "", list[str]()
        reply("220 demo-relay ESMTP")
        try:
            while True:
                await writer.drain()
                line = await reader.readline()
                if not line:
                    return
                verb = line[:4].upper()
                arg = line[5:].decode("ascii", "replace").strip()
                if verb == b"EHLO":
                    reply("250-demo-relay")
                    reply("250-8BITMIME")
                    reply("250 SIZE 20000000")
                elif verb == b"HELO":
                    reply("250 demo-relay")
                elif verb == b"MAIL":
                    sender, recipients = _address(arg), []
                    reply("250 OK")
                elif verb == b"RCPT":
                    recipients.append(_address(arg))
                    reply("250 OK")
                elif verb == b"DATA":
                    reply("354 end with <CRLF>.<CRLF>")
                    await writer.drain()
                    self.messages.append(Captured(sender, recipients, await _data(reader)))
                    reply("250 OK stored")
                elif verb in (b"RSET", b"NOOP"):
                    reply("250 OK")
                elif verb == b"QUIT":
                    reply("221 bye")
                    await writer.drain()
                    return
                else:
                    reply("502 not implemented")
        except (ConnectionError, asyncio.IncompleteReadError):
            return
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()


def _address(arg: str) -> str:
    """``FROM:<a@b> SIZE=1`` -> ``a@b``."""
    inner = arg.partition(":")[2].strip()
    return inner.split(">", 1)[0].lstrip("<").strip()


async def _data(reader: asyncio.StreamReader) -> bytes:
    lines: list[bytes] = []
    while True:
        line = await reader.readline()
        if not line or line in (b".\r\n", b".\n"):
            break
        lines.append(line[1:] if line.startswith(b"..") else line)
    return b"".join(lines)
