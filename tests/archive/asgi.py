"""Call an ASGI app in-process (one GET), without an HTTP client library."""

from __future__ import annotations

from typing import Any


async def get(app: Any, path: str, method: str = "GET",
              headers: list[tuple[bytes, bytes]] | None = None) -> tuple[int, dict[str, str], bytes]:
    """``path`` may carry a query string (``/games/x?lang=it``)."""
    path, _, query = path.partition("?")
    scope = {"type": "http", "method": method, "path": path, "headers": headers or [],
             "query_string": query.encode()}
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    answer = {k.decode(): v.decode() for k, v in start["headers"]}
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], answer, body
