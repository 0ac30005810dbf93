"""Serve the archive with uvicorn inside ``judge serve``'s event loop (an app component)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Awaitable, Callable, Generator
from typing import TYPE_CHECKING

import uvicorn

from judge.archive.httpguard import guarded_protocol
from judge.archive.webapp import ArchiveApp, Receive, Scope, Send
from judge.clientcap import ClientCaps

ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

if TYPE_CHECKING:
    from judge.app import AppContext

log = logging.getLogger(__name__)


class _QuietServer(uvicorn.Server):
    """A uvicorn server that leaves SIGINT/SIGTERM to ``judge serve``.

    uvicorn's own handlers would replace the app's, and stopping the web server alone on
    Ctrl-C would leave the mail side running.
    """

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


def make_server(app: ASGIApp, host: str, port: int, max_connections: int = 0,
                idle_seconds: float = 5.0, per_client: int = 0,
                request_seconds: float = 10.0) -> uvicorn.Server:
    """``max_connections``: beyond this many open connections (and requests in hand)
    uvicorn answers 503 (0: no cap); ``idle_seconds``: an idle keep-alive connection is
    closed after this long; ``per_client``: connections one client address may hold open,
    more are answered 503 at once (0: no cap); ``request_seconds``: a request's head and body
    must be received within this long (``judge.archive.httpguard``)."""
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", access_log=False, lifespan="off",
        server_header=False, limit_concurrency=max_connections or None,
        timeout_keep_alive=max(1, int(idle_seconds)),
        # the guarded h11 protocol, whatever else is installed (httptools would be chosen
        # by "auto" and has no guard); the judge serves no WebSocket
        http=guarded_protocol(ClientCaps(0, per_client), request_seconds), ws="none",
    )
    return _QuietServer(config)


def bound_port(server: uvicorn.Server) -> int:
    """The port actually bound (differs from the configured one when that was 0)."""
    for s in server.servers:
        for sock in s.sockets:
            return int(sock.getsockname()[1])
    return int(server.config.port)


async def run(ctx: AppContext) -> None:
    """Serve the archive alone until ``ctx.stopping`` is set (``judge.play.serving.run``
    serves it with the play page in front)."""
    await serve_app(ctx, ArchiveApp(ctx.db))


async def serve_app(ctx: AppContext, app: ASGIApp) -> None:
    """Serve ``app`` until ``ctx.stopping`` is set; records the bound port as
    ``ctx.ports['web']``."""
    host, port = ctx.settings.web_host, ctx.settings.web_port
    server = make_server(app, host, port, ctx.settings.max_http_connections,
                         ctx.settings.http_idle_seconds,
                         ctx.settings.max_http_connections_per_client,
                         ctx.settings.http_request_seconds)
    try:
        # bound here, not by uvicorn: uvicorn answers a busy port with sys.exit(1)
        sock = socket.create_server((host, port))
    except OSError as exc:
        log.error("archive: cannot listen on %s:%d: %s", host, port, exc)
        raise
    task = asyncio.create_task(server.serve(sockets=[sock]), name="archive-web")
    while not server.started and not task.done():
        await asyncio.sleep(0.05)
    if task.done():
        await task  # startup failed (port in use...): let the error show
        return
    ctx.ports["web"] = bound_port(server)
    log.info("archive on http://%s:%d/", ctx.settings.web_host, ctx.ports["web"])
    stop = asyncio.create_task(ctx.stopping.wait())
    await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)
    server.should_exit = True
    stop.cancel()
    await task
    sock.close()
