"""The archive as a plain ASGI application (read-only; GET and HEAD only).

URLs, each with a ``.json`` twin holding the same data:
  /                         games              /index.json
  /games/<name>             one game           /games/<name>.json
  /games/<name>/<phase>     one phase          /games/<name>/<phase>.json
  /games/<name>/<phase>.svg and .png           the phase's map
Storage is synchronous, so every query runs in a worker thread: the archive shares its event
loop with the mail listeners and must never block it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import unquote

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from judge.archive import pages
from judge.maps import render_png
from judge.storage import Database
from judge.storage.archive_queries import game_archive, list_games, turn_archive

log = logging.getLogger(__name__)

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

_SECURITY_HEADERS = [
    # pages embed their own CSS and SVG only; no script runs anywhere in the archive
    (b"content-security-policy",
     b"default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; "
     b"form-action 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
_PHASE = re.compile(r"^[SFW]\d{4}[MRA]$")


class Response:
    def __init__(self, status: int, body: bytes, content_type: str) -> None:
        self.status, self.body, self.content_type = status, body, content_type


def _templates() -> Environment:
    env = Environment(
        loader=PackageLoader("judge", "templates"),
        autoescape=select_autoescape(enabled_extensions=("html", "j2"), default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["title_case"] = lambda s: str(s).title()
    env.filters["seat_words"] = pages.seat_words
    env.filters["source_words"] = pages.source_words
    env.globals["phase_title"] = pages.phase_title
    return env


class ArchiveApp:
    """``ArchiveApp(db)`` is an ASGI callable serving the archive of ``db``."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.env = _templates()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        method = scope.get("method", "GET")
        if method not in ("GET", "HEAD"):
            response = Response(405, b"read-only archive\n", "text/plain; charset=utf-8")
        else:
            try:
                response = await self.route(unquote(scope.get("path", "/")))
            except Exception:  # one broken snapshot must not take the other pages down
                log.exception("archive page %s failed", scope.get("path"))
                response = Response(500, b"internal error\n", "text/plain; charset=utf-8")
        headers = [
            (b"content-type", response.content_type.encode()),
            (b"content-length", str(len(response.body)).encode()),
            *_SECURITY_HEADERS,
        ]
        if response.status == 405:
            headers.append((b"allow", b"GET, HEAD"))
        await send({"type": "http.response.start", "status": response.status, "headers": headers})
        body = b"" if method == "HEAD" else response.body
        await send({"type": "http.response.body", "body": body})

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def route(self, path: str) -> Response:
        parts = [p for p in path.split("/") if p]
        if not parts or parts == ["index.json"]:
            games = await asyncio.to_thread(list_games, self.db)
            data = pages.game_list(games)
            return self._out(parts == ["index.json"], "games.html.j2", data)
        if parts[0] != "games" or len(parts) not in (2, 3):
            return _not_found()
        name = parts[1]
        if len(parts) == 2:
            as_json = name.endswith(".json")
            name = name.removesuffix(".json")
            game = await asyncio.to_thread(game_archive, self.db, name)
            if game is None:
                return _not_found()
            page = pages.game_page(game)
            extra = {} if as_json else {"chart": pages.game_chart(page)}
            return self._out(as_json, "game.html.j2", page, extra)
        phase, _, ext = parts[2].partition(".")
        if not _PHASE.match(phase.upper()) or ext not in ("", "json", "svg", "png"):
            return _not_found()
        turn = await asyncio.to_thread(turn_archive, self.db, name, phase.upper())
        if turn is None:
            return _not_found()
        if ext == "svg":
            return Response(200, pages.phase_map(turn).encode(), "image/svg+xml")
        if ext == "png":
            png = await asyncio.to_thread(render_png, pages.phase_map(turn))
            return Response(200, png, "image/png")
        page = pages.phase_page(turn)
        extra = {} if ext == "json" else {"map_svg": pages.phase_map(turn)}
        return self._out(ext == "json", "phase.html.j2", page, extra)

    def _out(self, as_json: bool, template: str, data: dict[str, Any],
             extra: dict[str, Any] | None = None) -> Response:
        if as_json:
            body = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True)
            return Response(200, body.encode(), "application/json")
        html = self.env.get_template(f"archive/{template}").render(**data, **(extra or {}))
        return Response(200, html.encode(), "text/html; charset=utf-8")


def _not_found() -> Response:
    return Response(404, b"not found\n", "text/plain; charset=utf-8")
