"""The judge's web server (uvicorn, as ``judge serve`` runs it) on a free port in a thread of
its own, for the browser tests: Chromium talks to it over real HTTP."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from judge.archive.server import bound_port, make_server


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` served on 127.0.0.1; yields its base URL and stops the server afterwards."""
    server = make_server(app, "127.0.0.1", 0)
    ready = threading.Event()
    port: list[int] = []

    def serve() -> None:
        async def main() -> None:
            task = asyncio.create_task(server.serve())
            while not server.started and not task.done():
                await asyncio.sleep(0.02)
            port.append(bound_port(server))
            ready.set()
            await task

        asyncio.run(main())

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(30), "web server did not start"
    try:
        yield f"http://127.0.0.1:{port[0]}"
    finally:
        server.should_exit = True
        thread.join(30)
