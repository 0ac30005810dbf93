"""The JSON API (issue 27): versioned under ``/api/v1/``, its OpenAPI document generated.

Why FastAPI: the issue wants routing, request validation and an OpenAPI document that is
generated from the code rather than written by hand. Starlette alone routes but describes
nothing (its schema generator reads YAML out of docstrings, i.e. a hand-written document);
FastAPI builds the document from the routes' signatures and the pydantic models of
``judge.api.schemas``, validates bodies against the same models, and runs on Starlette under
the uvicorn that already serves the archive. Its cost is pydantic (a compiled core); the
judge's hot paths (mail, adjudication) never import it: only the web process does.

What it does is the mail side's, not a copy: every write goes through the use cases
(``judge.service.usecases``) in a write transaction, every refusal is the use case's
:class:`~judge.service.answers.CommandRefusal` said with the mail reply's sentence in the
asked language (``?lang=``, else Accept-Language, else the game's), every order line's reason
is the one a mail reply gives. Public reads are the archive's (``judge.storage.
archive_queries``): what the archive shows and nothing more, so a blind game's players and
any address stay hidden.

Storage is synchronous: the routes are plain functions, which FastAPI runs in its worker
threads, never on the event loop the mail listeners share.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Query, Request
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from judge.api import calendar
from judge.api.schemas import (
    ApiDone,
    ApiRefusal,
    CommandsIn,
    CommandsOut,
    DrawIn,
    GameList,
    JsonObject,
    LineReading,
    OrdersIn,
    OrdersOnFile,
    OrdersOut,
    PressItem,
    Processed,
    ProcessIn,
)
from judge.archive import pages
from judge.i18n import LANGUAGES, N_, tr
from judge.maps import render_png
from judge.rules.option_registry import OPTIONS
from judge.service import apitokens, games, mila, usecases
from judge.service.answers import CommandRefusal
from judge.service.answers import Done as AnswerDone
from judge.service.commands import by_token, reply_text
from judge.service.commands.order_commands import refusal_text
from judge.service.store import Store
from judge.settings import Settings
from judge.storage import Database
from judge.storage.archive_queries import INDEX_PAGE, game_archive, games_page, turn_archive

PREFIX = "/api/v1"
# requests one token may make in a minute (all routes): a program polling once a second, and
# some to spare; beyond it the API answers 429 without touching the database
TOKEN_REQUESTS_PER_MINUTE = 120
_PUBLIC_OPTIONS = frozenset(spec.key for spec in OPTIONS)
RATE_LIMITED = N_("Too many requests with this token: at most %(count)s a minute.")
# a program is told what a program can do: send its token (a mail command is not its answer)
TOKEN_REFUSED = N_("No valid token: send the header Authorization: Bearer <token>. A token is "
                   "asked for by mail with the line TOKEN after your SIGNON, and is mailed to "
                   "your registered address.")

bearer = HTTPBearer(auto_error=False, description="a token mailed by the TOKEN command")


class ApiRefused(Exception):  # noqa: N818  (an answer, not a failure)
    def __init__(self, status: int, reason: str, message: str) -> None:
        super().__init__(reason)
        self.status, self.reason, self.message = status, reason, message


class TokenLimit:
    """Requests per token in the last minute (this process's memory: one web process)."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self.seen: dict[str, deque[float]] = {}
        self.lock = threading.Lock()

    def allow(self, key: str, now: float) -> bool:
        with self.lock:
            if len(self.seen) > 10_000:  # forget idle tokens (bounded memory)
                self.seen = {k: q for k, q in self.seen.items() if q and q[-1] > now - 60}
            mine = self.seen.setdefault(key, deque())
            while mine and mine[0] <= now - 60:
                mine.popleft()
            if len(mine) >= self.per_minute:
                return False
            mine.append(now)
            return True


def _lang(request: Request, fallback: str | None) -> str:
    """``?lang=`` if asked for; else the first language of Accept-Language the judge speaks;
    else the game's; else English."""
    asked = request.query_params.get("lang", "")
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("accept-language", "").split(",")[:20]:
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return fallback if fallback in LANGUAGES else "en"


def _refusal(status: int, key: CommandRefusal, lang: str, **params: Any) -> ApiRefused:
    return ApiRefused(status, key.value, reply_text.message(lang, key.value, **params))


def _no_game(request: Request, game: str) -> ApiRefused:
    return _refusal(404, CommandRefusal.NO_SUCH_GAME, _lang(request, None), game=game[:64])


# refusals that mean "no such thing here" rather than "not now"
_NOT_FOUND = {CommandRefusal.NO_SUCH_GAME, CommandRefusal.POWER_NOT_IN_GAME}


def create_api(db: Database, settings: Settings,
               per_minute: int | None = None,
               clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> FastAPI:
    """The API application for ``db``; ``clock`` gives ``now`` (tests may fix it)."""
    api = FastAPI(
        title="judge API", version="1",
        description="Diplomacy games of this judge, for programs: public reads, and with a "
                    "token (mail TOKEN after your SIGNON) your seat's orders.",
        openapi_url=f"{PREFIX}/openapi.json", docs_url=None, redoc_url=None,
    )
    limit = TokenLimit(per_minute or TOKEN_REQUESTS_PER_MINUTE)

    @api.exception_handler(ApiRefused)
    async def refused(request: Request, exc: ApiRefused) -> JSONResponse:
        return JSONResponse({"reason": exc.reason, "message": exc.message},
                            status_code=exc.status, headers={"cache-control": "no-store"})

    @contextmanager
    def holder(credentials: HTTPAuthorizationCredentials | None, request: Request,
               write: bool) -> Iterator[tuple[Any, apitokens.Holder]]:
        """A session and the token's holder (401 for any bad token, 429 past the limit)."""
        lang = _lang(request, None)
        token = credentials.credentials if credentials is not None else ""
        if not token or len(token) > apitokens.MAX_TOKEN_CHARS:
            raise ApiRefused(401, "token_refused", tr(lang, TOKEN_REFUSED))
        if not limit.allow(apitokens.digest(token), time.monotonic()):
            raise ApiRefused(429, "rate_limited", tr(lang, RATE_LIMITED, count=limit.per_minute))
        with db.session() if write else db.reading() as session:
            found = apitokens.holder(session, token, clock(), touch=write)
            if found is None:  # unknown, revoked or its seat changed hands: all alike
                raise ApiRefused(401, "token_refused", tr(lang, TOKEN_REFUSED))
            yield session, found

    def game_for(request: Request, name: str, found: apitokens.Holder) -> None:
        if found.game.name.lower() != name.lower():
            # a token speaks for one game only: another game's name is simply not its own
            raise _refusal(403, CommandRefusal.NOT_A_PLAYER, _lang(request, found.game.language))

    @contextmanager
    def seat_holder(credentials: HTTPAuthorizationCredentials | None, request: Request,
                    game: str, write: bool) -> Iterator[tuple[Any, apitokens.Holder, str]]:
        """A seat's token for ``game``: the session, its holder and the answers' language
        (403 for a GM's token, which orders nothing)."""
        with holder(credentials, request, write) as (session, found):
            game_for(request, game, found)
            lang = _lang(request, found.game.language)
            if found.seat is None:
                raise _refusal(403, CommandRefusal.NOT_A_PLAYER, lang)
            yield session, found, lang

    # ------------------------------------------------------------ public reads

    @api.get(f"{PREFIX}/games", response_model=GameList, tags=["games"],
             summary="The games, newest first, 50 a page")
    def list_games(page: Annotated[int, Query(ge=1, le=100_000)] = 1) -> dict[str, Any]:
        rows, total = games_page(db, page, INDEX_PAGE)
        return pages.game_list(rows, page, total, INDEX_PAGE)

    @api.get(f"{PREFIX}/games/{{game}}", response_model=JsonObject, tags=["games"],
             summary="One game: its public row, options, phases and supply centres",
             responses={404: {"model": ApiRefusal}})
    def get_game(request: Request, game: str) -> dict[str, Any]:
        data = game_archive(db, game[:64])
        if data is None:
            raise _no_game(request, game)
        out = pages.game_page(data)
        with db.reading() as session:
            row = Store(session).game_by_name(game[:64])
            if row is not None:
                out["options"] = {k: v for k, v in games.options(row).items()
                                  if k in _PUBLIC_OPTIONS}
                out["deadline"] = row.deadline.isoformat() if row.deadline else None
        return out

    @api.get(f"{PREFIX}/games/{{game}}/phases/{{phase}}", response_model=JsonObject,
             tags=["games"], summary="One processed phase: position, orders and results",
             responses={404: {"model": ApiRefusal}})
    def get_phase(request: Request, game: str, phase: str) -> dict[str, Any]:
        turn = _turn(request, game, phase)
        return pages.phase_page(turn)

    @api.get(f"{PREFIX}/games/{{game}}/phases/{{phase}}/map.svg", tags=["games"],
             response_class=Response, summary="The phase's map (SVG)",
             responses={200: {"content": {"image/svg+xml": {}}}, 404: {"model": ApiRefusal}})
    def get_map_svg(request: Request, game: str, phase: str) -> Response:
        turn = _turn(request, game, phase)
        svg = pages.phase_map(turn, _lang(request, turn.get("language")))
        return Response(svg.encode(), media_type="image/svg+xml")

    @api.get(f"{PREFIX}/games/{{game}}/phases/{{phase}}/map.png", tags=["games"],
             response_class=Response, summary="The phase's map (PNG)",
             responses={200: {"content": {"image/png": {}}}, 404: {"model": ApiRefusal}})
    def get_map_png(request: Request, game: str, phase: str) -> Response:
        turn = _turn(request, game, phase)
        png = render_png(pages.phase_map(turn, _lang(request, turn.get("language"))))
        return Response(png, media_type="image/png")

    def _turn(request: Request, game: str, phase: str) -> dict[str, Any]:
        turn = None
        if len(phase) == 6 and phase[0].upper() in "SFW" and phase[1:5].isdigit():
            turn = turn_archive(db, game[:64], phase.upper())
        if turn is None:
            raise _refusal(404, CommandRefusal.NO_SUCH_TURN, _lang(request, None),
                           game=game[:64], phase=phase[:8])
        return turn

    @api.get(f"{PREFIX}/games/{{game}}/export", response_model=JsonObject, tags=["games"],
             summary="The game in MILA's saved-game JSON (public phases and press only)",
             responses={404: {"model": ApiRefusal}})
    def export_game(request: Request, game: str,
                    format: Annotated[Literal["mila"], Query()] = "mila") -> dict[str, Any]:
        with db.reading() as session:
            data = mila.export_game(session, game[:64])
        if data is None:
            raise _no_game(request, game)
        return data

    @api.post(f"{PREFIX}/games/import", response_model=JsonObject, tags=["games"],
              summary="A game in MILA's saved-game JSON read into a new, finished game "
                      "(a GM's token; the phases are adjudicated again and must agree)",
              responses={401: {"model": ApiRefusal}, 403: {"model": ApiRefusal}, 422: {"model": ApiRefusal}})
    async def import_game(request: Request,
                          name: Annotated[str, Query(max_length=31, description=(
                              "the new game's name"))],
                          credentials: Annotated[HTTPAuthorizationCredentials | None,
                                                 Depends(bearer)] = None) -> dict[str, Any]:
        raw = await request.body()

        def store() -> dict[str, Any]:
            with holder(credentials, request, write=True) as (session, found):
                if not found.gm:
                    raise _refusal(403, CommandRefusal.NOT_GM, _lang(request, None))
                try:
                    made = mila.import_game(session, mila.read_saved_game(raw), name.lower(),
                                            clock(), found.game.language)
                except mila.ImportRefused as exc:
                    raise ApiRefused(422, "import_refused", str(exc)) from None
                return {"game": made.name, "phase": made.phase, "status": made.status}

        return await run_in_threadpool(store)

    @api.get("/games/{game}/deadlines.ics", tags=["calendar"], response_class=Response,
             summary="The game's coming deadlines as an iCalendar feed",
             responses={200: {"content": {"text/calendar": {}}}, 404: {"model": ApiRefusal}})
    def deadlines_ics(request: Request, game: str) -> Response:
        with db.reading() as session:
            row = Store(session).game_by_name(game[:64])
            if row is None or row.status == "forming":
                raise _no_game(request, game)
            body = calendar.game_feed(session, [row], settings.domain, clock())
        return Response(body, media_type="text/calendar; charset=utf-8")

    # ------------------------------------------------------------ a seat's own

    @api.get(f"{PREFIX}/games/{{game}}/orders", response_model=OrdersOnFile, tags=["seat"],
             summary="Your orders on file for the current phase",
             responses={401: {"model": ApiRefusal}, 403: {"model": ApiRefusal}})
    def my_orders(request: Request, game: str,
                  credentials: Annotated[HTTPAuthorizationCredentials | None,
                                         Depends(bearer)] = None) -> dict[str, Any]:
        with seat_holder(credentials, request, game, write=False) as (session, found, _):
            row = Store(session).current_orders(found.game.id, found.game.phase, found.power)
            orders = list(row.orders) if row else []
            position = games.load_position(found.game)
            return {"game": found.game.name, "phase": found.game.phase, "power": found.power,
                    "orders": orders, "version": row.version if row else None,
                    "missing": usecases.without_orders(position, found.power, orders)}

    @api.post(f"{PREFIX}/games/{{game}}/orders", response_model=OrdersOut, tags=["seat"],
              summary="Submit your whole set of orders for the current phase",
              responses={401: {"model": ApiRefusal}, 403: {"model": ApiRefusal},
                         409: {"model": ApiRefusal}})
    def submit(request: Request, game: str, body: OrdersIn,
               credentials: Annotated[HTTPAuthorizationCredentials | None,
                                      Depends(bearer)] = None) -> dict[str, Any]:
        with seat_holder(credentials, request, game, write=True) as (session, found, lang):
            lines = [line.strip() for line in body.orders if line.strip()]
            try:
                outcome = usecases.submit_orders(session, found.game, found.power, lines,
                                                 clock(), by_account_id=found.account_id)
            except usecases.Denied as denied:
                status = 404 if denied.reason in _NOT_FOUND else 409
                raise _refusal(status, denied.reason, lang, **denied.params) from None
            readings = [LineReading(line=item.text,
                                    order=str(item.order) if item.order is not None else None,
                                    reason=refusal_text(item, lang) if item.error else None)
                        for item in outcome.report.items]
            return {"game": found.game.name, "phase": found.game.phase, "power": found.power,
                    "lines": readings, "stored": outcome.stored, "version": outcome.version,
                    "missing": outcome.missing}

    @api.post(f"{PREFIX}/games/{{game}}/votes/draw", response_model=ApiDone, tags=["seat"],
              summary="Vote for a draw, or withdraw the vote (secret)",
              responses={401: {"model": ApiRefusal}, 403: {"model": ApiRefusal},
                         409: {"model": ApiRefusal}})
    def draw_vote(request: Request, game: str, body: DrawIn,
                  credentials: Annotated[HTTPAuthorizationCredentials | None,
                                         Depends(bearer)] = None) -> dict[str, Any]:
        with seat_holder(credentials, request, game, write=True) as (session, found, lang):
            try:
                # seat_holder answered 403 for a token without a seat
                assert found.seat is not None
                usecases.vote_draw(session, found.game, found.seat, clock(), body.draw)
            except usecases.Denied as denied:
                raise _refusal(409, denied.reason, lang, **denied.params) from None
            said = AnswerDone.DRAW_VOTED if body.draw else AnswerDone.DRAW_WITHDRAWN
            return {"game": found.game.name, "power": found.power,
                    "message": reply_text.message(lang, said.value, game=found.game.name)}

    @api.post(f"{PREFIX}/games/{{game}}/process", response_model=Processed, tags=["gm"],
              summary="The GM's PROCESS: adjudicate the current phase now",
              responses={401: {"model": ApiRefusal}, 403: {"model": ApiRefusal},
                         409: {"model": ApiRefusal}})
    def process(request: Request, game: str, body: ProcessIn,
                credentials: Annotated[HTTPAuthorizationCredentials | None,
                                       Depends(bearer)] = None) -> dict[str, Any]:
        with holder(credentials, request, write=True) as (session, found):
            game_for(request, game, found)
            lang = _lang(request, found.game.language)
            if not found.gm:
                raise _refusal(403, CommandRefusal.NOT_GM, lang)
            try:
                report = usecases.process_phase(session, found.game, body.phase.upper(),
                                                clock(), settings, force=body.force)
            except usecases.Denied as denied:
                raise _refusal(409, denied.reason, lang, **denied.params) from None
            said = reply_text.message(lang, AnswerDone.PROCESSED.value, phase=report.phase,
                                      action=report.action, why=report.why,
                                      next_phase=report.next_phase)
            return {"game": found.game.name, "phase": report.phase, "action": report.action,
                    "next_phase": report.next_phase, "message": said}

    def run_commands(request: Request, game: str, body: CommandsIn,
                     credentials: HTTPAuthorizationCredentials | None,
                     gm: bool) -> dict[str, Any]:
        """The lines through the mail's command pipeline as the holder signed on."""
        with holder(credentials, request, write=True) as (session, found):
            game_for(request, game, found)
            lang = _lang(request, found.game.language)
            if gm and not found.gm:
                raise _refusal(403, CommandRefusal.NOT_GM, lang)
            if not gm and found.seat is None:
                raise _refusal(403, CommandRefusal.NOT_A_PLAYER, lang)
            lines = [line for text in body.commands for line in text.splitlines() or [""]]
            try:
                answers = by_token.run_lines(session, settings, clock(), found.game,
                                             found.seat, found.account_id, lines, lang)
            except LookupError:  # a token of no account (none is issued so): no holder
                raise _refusal(401, CommandRefusal.NOT_SIGNED_ON, lang) from None
            return {"game": found.game.name, "power": found.power,
                    "answers": [{"line": a.line, "messages": a.messages, "reasons": a.reasons}
                                for a in answers]}

    @api.post(f"{PREFIX}/games/{{game}}/gm", response_model=CommandsOut, tags=["gm"],
              summary="The GM's mail commands (EXTEND, SET DEADLINE, PAUSE, REPLACE, option "
                      "lines, the GM's press; not BECOME), run as a mail from the GM signed on: each line answered "
                      "as the mail reply answers it, the mail's line cap and bounds kept, any "
                      "other line (SIGNON, orders, a player's command) answered not_by_token "
                      "unrun",
              responses={401: {"model": ApiRefusal}, 403: {"model": ApiRefusal}})
    def gm_commands(request: Request, game: str, body: CommandsIn,
                    credentials: Annotated[HTTPAuthorizationCredentials | None,
                                           Depends(bearer)] = None) -> dict[str, Any]:
        return run_commands(request, game, body, credentials, gm=True)

    @api.post(f"{PREFIX}/games/{{game}}/commands", response_model=CommandsOut, tags=["seat"],
              summary="Your seat's press (PRESS, BROADCAST blocks), secret orders for an ONP "
                      "or Sommossa power (FOR blocks), late days (LATE) and clock votes "
                      "(APPROVE, OPPOSE), run as a mail from the seat signed on: answered as the "
                      "mail reply, the mail's line cap and bounds kept, any other line "
                      "answered not_by_token unrun",
              responses={401: {"model": ApiRefusal}, 403: {"model": ApiRefusal}})
    def seat_commands(request: Request, game: str, body: CommandsIn,
                      credentials: Annotated[HTTPAuthorizationCredentials | None,
                                             Depends(bearer)] = None) -> dict[str, Any]:
        return run_commands(request, game, body, credentials, gm=False)

    @api.delete(f"{PREFIX}/games/{{game}}/tokens/{{power}}", response_model=ApiDone,
                tags=["gm"], summary="The GM revokes a seat's tokens (mail: TOKEN OFF power)",
                responses={401: {"model": ApiRefusal}, 403: {"model": ApiRefusal}})
    def revoke(request: Request, game: str, power: str,
               credentials: Annotated[HTTPAuthorizationCredentials | None,
                                      Depends(bearer)] = None) -> dict[str, Any]:
        with holder(credentials, request, write=True) as (session, found):
            game_for(request, game, found)
            lang = _lang(request, found.game.language)
            if not found.gm:
                raise _refusal(403, CommandRefusal.NOT_GM, lang)
            power = power.upper()[:16]
            count = apitokens.revoke(session, found.game, power, clock(), found.account_id)
            return {"game": found.game.name, "power": power,
                    "message": reply_text.message(lang, AnswerDone.TOKEN_REVOKED.value,
                                                  game=found.game.name, power=power,
                                                  count=count)}

    @api.get(f"{PREFIX}/games/{{game}}/press", response_model=list[PressItem], tags=["games"],
             summary="The game's public press: broadcasts that name their sender",
             responses={404: {"model": ApiRefusal}})
    def public_press(request: Request, game: str) -> list[dict[str, Any]]:
        with db.reading() as session:
            row = Store(session).game_by_name(game[:64])
            if row is None or row.status == "forming":
                raise _no_game(request, game)
            return [{"phase": p.phase, "sender": p.from_power, "body": p.body}
                    for p in mila.public_press(session, row)][-500:]

    @api.get(f"{PREFIX}/me/deadlines.ics", tags=["calendar"], response_class=Response,
             summary="Your games' coming deadlines (every game of the token's account)",
             responses={200: {"content": {"text/calendar": {}}}, 401: {"model": ApiRefusal}})
    def my_deadlines(request: Request,
                     credentials: Annotated[HTTPAuthorizationCredentials | None,
                                            Depends(bearer)] = None,
                     token: Annotated[str | None, Query(max_length=64, description=(
                         "the token, for calendar programs that cannot send a header"))] = None,
                     ) -> Response:
        if credentials is None and token:
            credentials = HTTPAuthorizationCredentials(scheme="Bearer", credentials=token)
        with holder(credentials, request, write=False) as (session, found):
            rows = calendar.games_of(Store(session), found.account_id)
            body = calendar.game_feed(session, rows, settings.domain, clock())
        return Response(body, media_type="text/calendar; charset=utf-8",
                        headers={"cache-control": "no-store"})

    return api
