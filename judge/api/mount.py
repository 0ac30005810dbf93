"""The API in front of the archive on the one web port: ``/api/…`` and the calendar feeds go
to the API application, everything else to the archive (or play page) it wraps.

The web guard (``judge.archive.httpguard``) stays in front of both: it is the server's
protocol, not an application. Here a request body is capped before the framework reads it
(``MAX_BODY``: a set of orders is a few hundred bytes), so no request makes the API hold more
than that in memory; every answer gets the archive's ``nosniff`` and ``no-referrer``.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from judge.archive.server import ASGIApp
from judge.archive.webapp import Receive, Scope, Send

MAX_BODY = 32 * 1024
# a saved game to import (a GM's token): a long game is a few hundred kilobytes
IMPORT_PATH = "/api/v1/games/import"
MAX_IMPORT_BODY = 4 * 1024 * 1024
_ICS = re.compile(r"^/games/[^/]+/deadlines\.ics$")
_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer")]


def is_api_path(path: str) -> bool:
    return path.startswith("/api/") or bool(_ICS.match(path))


class ApiMount:
    # the API is Starlette's ASGI callable (its scope and messages are MutableMappings)
    def __init__(self, api: Callable[[Any, Any, Any], Awaitable[None]],
                 fallback: ASGIApp) -> None:
        self.api, self.fallback = api, fallback

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http" or not is_api_path(str(scope.get("path", ""))):
            await self.fallback(scope, receive, send)
            return
        cap = MAX_BODY
        if scope.get("path") == IMPORT_PATH and _has_header(scope, b"authorization"):
            cap = MAX_IMPORT_BODY  # only a request that carries a token may send that much
        declared = _content_length(scope, cap)
        if declared is not None and declared > cap:
            await _too_large(send)
            return
        received = 0
        refused = False

        async def capped() -> dict[str, Any]:
            nonlocal received, refused
            message = await receive()
            received += len(message.get("body", b""))
            if received > cap and not refused:
                # a body sent without its length (chunked) grew past the cap: answer 413 now;
                # the framework sees a disconnect and stops reading, nothing more is kept
                refused = True
                await _too_large(send)
            return {"type": "http.disconnect"} if refused else message

        async def with_headers(message: dict[str, Any]) -> None:
            if refused:
                return  # the 413 was the answer
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *_HEADERS]}
            await send(message)

        try:
            await self.api(scope, capped, with_headers)
        except Exception:
            if not refused:
                raise  # Starlette's ClientDisconnect after a refused body is expected


def _content_length(scope: Scope, cap: int) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() and len(text) < 12 else cap + 1
    return None


def _has_header(scope: Scope, wanted: bytes) -> bool:
    return any(name.lower() == wanted for name, _ in scope.get("headers", []))


async def _too_large(send: Send) -> None:
    body = b'{"reason":"too_large","message":"request too large"}'
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *_HEADERS]})
    await send({"type": "http.response.body", "body": body})
