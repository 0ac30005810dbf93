"""uvicorn's HTTP/1.1 protocol with a deadline on receiving each request and a cap per client.

Hand-written because uvicorn has neither (read in uvicorn 0.55's ``h11_impl``; the same in
every version since 0.30): its ``timeout_keep_alive`` runs only between two requests and the
first byte of the next one cancels it, and a new connection has no timer at all before its
first response. A client that connects and sends nothing, or drips a request's head, keeps
its connection for ever; ``limit_concurrency`` counts those connections, and once they reach
it every request, from anyone, is answered 503 (seen: 220 dripping connections took the
archive and /play down). An ASGI middleware cannot help: the app is called only once the
head is in. This subclass of uvicorn's ``H11Protocol`` adds:

- a deadline on receiving a request: from the connection's opening (for its first request)
  or from the first byte of a later one, the head and the body must be in within
  ``request_seconds``, or the connection is closed. The app's work and the response are not
  timed, and the wait between two requests stays uvicorn's keep-alive;
- the cap per client address (:mod:`judge.clientcap`), taken when the connection is accepted,
  before a byte is read: a connection past it is answered 503 and closed at once, and never
  counts against uvicorn's overall cap.

It uses H11Protocol's ``cycle`` (the request being answered, with its ``more_body`` and
``response_complete``), ``connection_made``, ``connection_lost`` and ``data_received``;
uvicorn is pinned below 1 in pyproject.toml and tests/mail/test_slow_clients.py runs this
against the installed one, over real sockets.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from judge.clientcap import ClientCaps, client_key

log = logging.getLogger(__name__)

_BUSY_TEXT = b"Too many connections from your address, try again later.\n"
# written before the request is read: the client may still be sending it, so the answer says
# it closes the connection
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"content-length: " + str(len(_BUSY_TEXT)).encode() + b"\r\n"
        b"retry-after: 10\r\nconnection: close\r\n\r\n" + _BUSY_TEXT)


class GuardedH11(H11Protocol):
    """H11Protocol with the per-client cap and the request deadline; ``guarded_protocol``
    makes the subclass bound to one server's counters that uvicorn instantiates."""

    caps: ClientCaps
    request_seconds: float

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.counted_as: str | None = None  # the client's key, once admitted
        self.deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        key = client_key(transport.get_extra_info("peername"))
        if not self.caps.admit(key):
            log.warning("web connection refused: %d open from %s, the cap per client",
                        self.caps.held_by(key), key)
            transport.write(BUSY)
            transport.close()
            return
        self.counted_as = key
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.counted_as is None:
            return  # refused in connection_made: uvicorn never knew it
        self._disarm()
        self.caps.release(self.counted_as)
        self.counted_as = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.deadline is None and not self._request_in():
            self._arm()  # the first byte of a request (or of the rest of one)
        super().data_received(data)
        if self._request_in():
            self._disarm()

    def _request_in(self) -> bool:
        """A request wholly received and not yet answered: the app's time, not the
        client's. Otherwise a request is being received (its head, or its body, also after
        a pipelined one or after an answer given before the body was read) or none is."""
        cycle = self.cycle
        return cycle is not None and not cycle.response_complete and not cycle.more_body

    def _arm(self) -> None:
        self._disarm()
        self.deadline = self.loop.call_later(self.request_seconds, self._expired)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _expired(self) -> None:
        self.deadline = None
        if not self.transport.is_closing():
            log.warning("web request from %s not received within %g s: connection closed",
                        self.counted_as, self.request_seconds)
            self.transport.close()


def guarded_protocol(caps: ClientCaps, request_seconds: float) -> type[GuardedH11]:
    """The protocol class for one server (uvicorn builds each connection's protocol from the
    class named in its config; the counters must be that server's)."""

    class Bound(GuardedH11):
        pass

    Bound.caps = caps
    Bound.request_seconds = request_seconds
    return Bound
