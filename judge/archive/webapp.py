"""The archive as a plain ASGI application (read-only; GET and HEAD only).

URLs, each with a ``.json`` twin holding the same data:
  /                         games              /index.json  (?page=N: 50 a page)
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
from functools import cache
from typing import Any
from urllib.parse import parse_qs, unquote

from jinja2 import Environment, pass_context
from jinja2.runtime import Context

from judge.archive import pages
from judge.i18n import LANGUAGES
from judge.maps import render_png
from judge.parsing.messages import in_notation
from judge.storage import Database
from judge.storage.archive_queries import INDEX_PAGE, game_archive, games_page, turn_archive
from judge.templating import html_environment, power_name

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


# each language's own name, for the language switch of every page (data, not prose)
LANGUAGE_NAMES = {"en": "English", "it": "Italiano", "fr": "Français"}


def _power_word(ctx: Context, power: str, lang: str, variant: str | None = None) -> str:
    """A power's name on the map of the page's game (an index page of many games: the first
    installed map that has the power)."""
    game = ctx.get("game")
    shown = variant or (str(game["variant"]) if isinstance(game, dict) and game.get("variant")
                        else None)
    return power_name(power, lang, shown)


def _variant(ctx: Context) -> str:
    """The variant of the page's game (the game row's ``variant`` column)."""
    return str(ctx["game"]["variant"])


@cache
def _templates(lang: str = "en") -> Environment:
    """The archive's templates in ``lang``: its catalog, and the stored codes as words."""
    env = html_environment(lang)  # the archive is its only user: its filters go on it
    env.filters["title_case"] = lambda s: str(s).title()
    env.filters["power"] = pass_context(
        lambda ctx, p, variant=None: _power_word(ctx, str(p), lang, variant))
    env.filters["seat_words"] = lambda code: pages.seat_words(code, lang)
    env.filters["source_words"] = lambda code: pages.source_words(code, lang)
    env.filters["status_words"] = lambda code: pages.status_words(code, lang)
    # the game's own map names the places (a page's data carries its game's variant)
    env.filters["notation"] = pass_context(
        lambda ctx, order: in_notation([str(order)], lang, variant=_variant(ctx))[0])
    env.globals["outcome_words"] = lambda o: pages.outcome_words(o["result"], o["reason"],
                                                                 o["refusal"], lang)
    env.globals["phase_title"] = lambda phase: pages.phase_title(phase, lang)
    env.globals["end_words"] = lambda ended: pages.end_words(ended, lang)
    return env


def page_language(query: str, accept: str, game_language: str | None) -> str:
    """``?lang=it`` if asked for; else the game's own language; else the reader's browser's
    (Accept-Language); else English."""
    asked = parse_qs(query).get("lang", [""])[0]
    if asked in LANGUAGES:
        return asked
    if game_language in LANGUAGES:
        return str(game_language)
    for part in accept.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


class ArchiveApp:
    """``ArchiveApp(db)`` is an ASGI callable serving the archive of ``db``."""

    def __init__(self, db: Database) -> None:
        self.db = db

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
                response = await self.route(unquote(scope.get("path", "/")),
                                            _query(scope), _accept_language(scope))
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

    async def route(self, path: str, query: str = "", accept: str = "") -> Response:
        response = await self._route(path, query, accept)
        if response.status == 404:
            # a page like the others, in the reader's language (a JSON asker gets JSON)
            return self._not_found_page(path.endswith(".json"), page_language(query, accept, None))
        return response

    async def _route(self, path: str, query: str, accept: str) -> Response:
        parts = [p for p in path.split("/") if p]
        if not parts or parts == ["index.json"]:
            number = _page(query)
            games, total = await asyncio.to_thread(games_page, self.db, number, INDEX_PAGE)
            data = pages.game_list(games, number, total, INDEX_PAGE)
            return self._out(parts == ["index.json"], "games.html.j2", data,
                             lang=page_language(query, accept, None))
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
            lang = page_language(query, accept, game.get("language"))
            extra = {} if as_json else {"chart": pages.game_chart(page, lang)}
            return self._out(as_json, "game.html.j2", page, extra, lang=lang)
        phase, _, ext = parts[2].partition(".")
        if not _PHASE.match(phase.upper()) or ext not in ("", "json", "svg", "png"):
            return _not_found()
        turn = await asyncio.to_thread(turn_archive, self.db, name, phase.upper())
        if turn is None:
            return _not_found()
        lang = page_language(query, accept, turn.get("language"))
        if ext == "svg":
            return Response(200, pages.phase_map(turn, lang).encode(), "image/svg+xml")
        if ext == "png":
            png = await asyncio.to_thread(render_png, pages.phase_map(turn, lang))
            return Response(200, png, "image/png")
        page = pages.phase_page(turn)
        extra = {} if ext == "json" else {"map_svg": pages.phase_map(turn, lang)}
        return self._out(ext == "json", "phase.html.j2", page, extra, lang=lang)

    def _not_found_page(self, as_json: bool, lang: str) -> Response:
        if as_json:
            return Response(404, b'{"error":"not found"}', "application/json")
        page = self._out(False, "not_found.html.j2", {}, lang=lang)
        return Response(404, page.body, page.content_type)

    def _out(self, as_json: bool, template: str, data: dict[str, Any],
             extra: dict[str, Any] | None = None, lang: str = "en") -> Response:
        if as_json:
            # compact: with ``indent`` the json module drops to its pure-Python encoder,
            # most of the index's time with 50 games a page (issue 16)
            body = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
            return Response(200, body.encode(), "application/json")
        switch = [{"lang": code, "name": name, "current": code == lang}
                  for code, name in LANGUAGE_NAMES.items()]
        html = _templates(lang).get_template(f"archive/{template}").render(
            **data, **(extra or {}), languages=switch)
        return Response(200, html.encode(), "text/html; charset=utf-8")


def _page(query: str) -> int:
    """``?page=N`` of the index (1 when absent or not a small positive number)."""
    asked = parse_qs(query).get("page", [""])[0]
    return int(asked) if asked.isdigit() and 0 < len(asked) < 7 and int(asked) > 0 else 1


def _query(scope: Scope) -> str:
    raw = scope.get("query_string", b"")
    return raw.decode("latin-1") if isinstance(raw, bytes) else str(raw)


def _accept_language(scope: Scope) -> str:
    for name, value in scope.get("headers", []):
        if name.lower() == b"accept-language":
            return str(value.decode("latin-1"))
    return ""


def _not_found() -> Response:
    return Response(404, b"not found\n", "text/plain; charset=utf-8")
