"""The play page as a plain ASGI application in front of the archive (issue 15).

URLs (anything else goes to the archive app it wraps):
  GET  /play                        the start page (choose a power and a language)
  POST /play                        start a solo game -> 303 to its secret URL
  GET  /play/<game>/<key>           the game: map, orders, results, inbox, ledger
  POST /play/<game>/<key>/orders    the player's orders (a text box, any notation)
  POST /play/<game>/<key>/check     the same, read without storing: JSON for the page's script
  POST /play/<game>/<key>/propose   a proposal to a computer power
  POST /play/<game>/<key>/answer    accept or refuse a computer power's proposal
  GET  /static/play.js              the page's script (a file of the package)

Safety: the key is in the URL only (``Referrer-Policy: no-referrer``, ``Cache-Control:
no-store``, ``noindex``), checked in constant time (``websolo.open_solo``); every POST must
come from the page itself (``Sec-Fetch-Site``/``Origin`` same-origin when the browser sends
them) and carry the form's token: for a game, an HMAC of its key (so only the key's holder can
make one); for the start form, a timestamped HMAC under this process's secret. Request bodies
are capped (``MAX_BODY``), order lines too; games started are limited per client and in all
(``web_games_per_client_per_hour``, ``web_games_per_hour``). Templates autoescape; no address
is ever on a page (the player's account has none).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, quote, urlencode

from jinja2 import Environment, pass_context

from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.position import Position
from judge.archive import pages
from judge.archive.webapp import LANGUAGE_NAMES, page_language
from judge.i18n import LANGUAGES, N_, tr
from judge.maps.svg import render_svg
from judge.parsing.messages import in_notation
from judge.play import phases
from judge.service import games, websolo
from judge.settings import Settings
from judge.storage import Database
from judge.storage.archive_queries import game_ended
from judge.storage.gamerepo import current_orders
from judge.storage.gamerepo import turns as game_turns
from judge.storage.models import Turn
from judge.templating import new_html_environment, power_name

log = logging.getLogger(__name__)

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 32 * 1024  # a whole set of orders is a few hundred bytes
MAX_LINES = 60  # order lines read from one request (a power has at most 34 units)
MAX_LINE = 120
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_KEY = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
FORM_TOKEN_SECONDS = 24 * 3600
_PHASE = re.compile(r"^[SFW][0-9]{4}[MRA]$")
# the phases shown as played since the player's last orders, at most (a player back after a
# long absence finds the older ones in the history)
MAX_RECENT = 12

_HEADERS = [
    (b"content-security-policy",
     b"default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; "
     b"img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
    (b"x-robots-tag", b"noindex, nofollow"),
]


class Reply:
    def __init__(self, status: int, body: bytes = b"", content_type: str = "text/plain; "
                 "charset=utf-8", location: str | None = None) -> None:
        self.status, self.body, self.content_type = status, body, content_type
        self.location = location


class RateLimit:
    """Games started in the last hour, per client and in all (in this process's memory: one
    web process serves the judge)."""

    def __init__(self, per_client: int, overall: int) -> None:
        self.per_client, self.overall = per_client, overall
        self.by_client: dict[str, deque[float]] = {}
        self.everyone: deque[float] = deque()

    def allow(self, client: str, now: float) -> bool:
        for q in (self.everyone, *self.by_client.values()):
            while q and q[0] <= now - 3600:
                q.popleft()
        self.by_client = {k: q for k, q in self.by_client.items() if q}
        mine = self.by_client.setdefault(client, deque())
        if len(mine) >= self.per_client or len(self.everyone) >= self.overall:
            return False
        mine.append(now)
        self.everyone.append(now)
        return True


# the ledger's statuses and the negotiation refusals, said on the page
LEDGER_WORDS = {"proposed": N_("proposed"), "active": N_("promised"), "refused": N_("refused"),
                "kept": N_("kept"), "broken": N_("broken")}
PROBLEM_WORDS = {
    "no_power": N_("Choose a power to negotiate with."),
    "self": N_("You cannot negotiate with yourself."),
    "no_kind": N_("Choose one of the five kinds of proposal."),
    "bad_order": N_("The move to support could not be read (write it like A PAR - BUR)."),
    "not_a_move": N_("A support is asked for a move (write it like A PAR - BUR)."),
    "bad_province": N_("The province could not be read."),
    "bad_share": N_("Write the shares as pairs: a province and the power it goes to."),
    "bad_number": N_("That proposal number could not be read."),
    "not_in_game": N_("That power no longer takes part in the game."),
    "no_proposal": N_("There is no such proposal waiting for your answer."),
}
# what the page's script says (handed to it in the page, in the page's language)
SCRIPT_WORDS = {
    "pick_target": N_("Now click the province to move to."),
    "pick_supported": N_("Click the unit to support."),
    "pick_support_target": N_("Click where the supported unit goes (its own province: a support to hold)."),
    "pick_army": N_("Click the army to convoy."),
    "pick_convoy_target": N_("Click the coast the army lands on."),
    "pick_coast": N_("Which coast?"),
    "pick_build": N_("Build:"),
    "unreachable": N_("That is not a legal order for this unit."),
    "checking": N_("Checking..."),
    "army": N_("Army"),
    "fleet": N_("Fleet"),
    "waive": N_("Waive a build"),
}


@cache
def _templates(lang: str) -> Environment:
    env = new_html_environment(lang)  # its filters are its own (the archive has its env)
    env.filters["notation"] = pass_context(
        lambda ctx, order: in_notation([str(order)], lang, variant=ctx["variant"])[0])
    env.globals["phase_title"] = lambda phase: pages.phase_title(phase, lang)
    env.globals["outcome_words"] = lambda o: pages.outcome_words(o["result"], o["reason"],
                                                                 o["refusal"], lang)
    env.globals["ledger_words"] = lambda code: tr(lang, LEDGER_WORDS.get(str(code), str(code)))
    env.globals["problem_words"] = lambda code: tr(lang, PROBLEM_WORDS.get(
        code, N_("The proposal could not be read.")))
    env.globals["words"] = {k: tr(lang, v) for k, v in SCRIPT_WORDS.items()}
    env.globals["end_words"] = lambda ended: pages.end_words(ended, lang)
    return env


def _proposal_example(position: Position, power: str, others: list[str], lang: str) -> str:
    """What the proposal form's details field shows as an example, on the game's own map: a
    move of one of the player's units, a share of two centres, a power, a province."""
    v = installed_variant(position.variant)
    board = v.board

    def name(p: str) -> str:
        return power_name(p, lang, v.name).upper()
    other = others[0] if others else power
    parts = []
    units = position.units_of(power)
    if units:
        unit = units[0]
        targets = (board.army_adjacency.get(unit.location) if unit.type.value == "A"
                   else board.fleet_adjacency.get(unit.location)) or ()
        if targets:
            parts.append(f"{unit.type.value} {unit.location} - {sorted(targets)[0]}")
    free = sorted(c for c in board.supply_centers if c not in position.centers) or sorted(
        board.supply_centers)
    if len(free) >= 2:
        parts.append(f"{free[0]} {name(power)} {free[1]} {name(other)}")
    parts.append(name(other))
    if free:
        parts.append(free[0])
    return " / ".join(parts)


@cache
def static_file(name: str) -> bytes:
    return resources.files("judge.play").joinpath("static", name).read_bytes()


def game_token(key: str) -> str:
    """The game forms' anti-forgery token: only who holds the key can compute it."""
    return hmac.new(key.encode(), b"play-form", hashlib.sha256).hexdigest()[:32]


class PlayApp:
    """``PlayApp(db, settings, archive)``: the play page, and ``archive`` for everything else."""

    def __init__(self, db: Database, settings: Settings, fallback: ASGIApp,
                 seed: int | None = None) -> None:
        # seed: every game's lot and computer powers drawn from it (tests); None: at random
        self.db, self.settings, self.fallback, self.seed = db, settings, fallback, seed
        self.secret = secrets.token_bytes(32)
        self.limit = RateLimit(settings.web_games_per_client_per_hour,
                               settings.web_games_per_hour)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", "/")) if scope.get("type") == "http" else ""
        if not (path == "/play" or path.startswith("/play/") or path.startswith("/static/")):
            await self.fallback(scope, receive, send)
            return
        method = scope.get("method", "GET")
        try:
            if method in ("GET", "HEAD"):
                reply = await self.get(path, scope)
            elif method == "POST":
                body = await _body(receive)
                reply = (Reply(413, b"request too large\n") if body is None
                         else await self.post(path, scope, body))
            else:
                reply = Reply(405, b"method not allowed\n")
        except Exception:
            log.exception("play page %s failed", path.split("/")[:3])  # never the key
            reply = Reply(500, b"internal error\n")
        headers = [(b"content-type", reply.content_type.encode()),
                   (b"content-length", str(len(reply.body)).encode()), *_HEADERS]
        if reply.location:
            headers.append((b"location", reply.location.encode()))
        await send({"type": "http.response.start", "status": reply.status, "headers": headers})
        await send({"type": "http.response.body",
                    "body": b"" if method == "HEAD" else reply.body})

    # ------------------------------------------------------------------ GET

    async def get(self, path: str, scope: Scope) -> Reply:
        query = _query(scope)
        if path == "/static/play.js":
            return Reply(200, static_file("play.js"), "text/javascript; charset=utf-8")
        if path == "/play":
            lang = page_language(query, _header(scope, b"accept-language"), None)
            return self.start_page(lang)
        parts = path.split("/")[2:]
        if len(parts) != 2:
            return Reply(404, b"not found\n")
        return await self.game_page(parts[0], parts[1], query, scope)

    def start_page(self, lang: str, problem: str | None = None, status: int = 200) -> Reply:
        stamp = str(int(time.time()))
        token = f"{stamp}.{self._sign(stamp)}"
        # the maps a solo game is played on, each with its title and its powers (the first
        # one, the standard map, is chosen unless the player picks another)
        variants = [{"name": v.name, "title": v.title(lang), "players": v.players,
                     "powers": [p for seat in v.seats for p in seat]}
                    for v in websolo.solo_variants()]
        return self._html("start.html.j2", lang, status, variants=variants, token=token,
                          problem=problem)

    async def game_page(self, name: str, key: str, query: str, scope: Scope,
                        result: dict[str, Any] | None = None, status: int = 200) -> Reply:
        if not (_NAME.match(name) and _KEY.match(key)):
            return Reply(404, b"not found\n")
        params = parse_qs(query, max_num_fields=10)
        at = (params.get("at") or [""])[0].upper()
        data = await asyncio.to_thread(self._game_data, name, key, at)
        if data is None:
            return Reply(404, b"not found\n")
        lang = page_language(query, _header(scope, b"accept-language"), data["language"])
        variant = data["variant"]
        data["recent"] = [phases.phase_view(t, name, lang, variant) for t in data.pop("recent")]
        shown = data.pop("shown")
        data["shown"] = phases.phase_view(shown, name, lang, variant) if shown else None
        data["legend"] = phases.legend(variant, installed_variant(variant).powers,
                                       data["counts"], lang)
        sent = (params.get("sent") or [""])[0].upper()
        data["sent"] = sent if _PHASE.match(sent) else ""
        data["sent_empty"] = (params.get("empty") or [""])[0] == "1"
        data["sent_played"] = (params.get("played") or [""])[0] == "1"
        data["map_svg"] = render_svg({**data.pop("map"), "language": lang})
        return self._html("game.html.j2", lang, status, **data,
                          base=f"/play/{quote(name)}/{quote(key)}",
                          token=game_token(key), result=result or {})

    def _game_data(self, name: str, key: str, at: str = "") -> dict[str, Any] | None:
        with self.db.reading() as session:
            game = websolo.open_solo(session, name, key)
            if game is None:
                return None
            power = websolo.human_power(game)
            position = games.load_position(game)
            stored = current_orders(session, game.id, game.phase, power)
            orders = list(stored.orders) if stored else []
            others = sorted(p for p in position.powers() if p != power)
            played = game_turns(session, game.id)
            codes = [t.phase for t in played]
            # every phase played since the player's last orders, in order (the phase he
            # ordered in, then the retreats and winters played without him: issue 29)
            last = websolo.last_submitted(session, game, power, codes)
            start = codes.index(last) if last else 0
            recent = [_turn_json(t) for t in played[start:][-MAX_RECENT:]]
            shown = next((_turn_json(t) for t in played if t.phase == at), None)
            inbox = [{"phase": p.phase, "from": p.from_power, "to": list(p.to_powers or []),
                      "body": p.body} for p in websolo.inbox(session, game, power)[:60]]
            units = {p: [str(u) for u in position.units_of(p)] for p in position.powers()}
            centres = {p: position.centers_of(p) for p in position.powers()}
            i = codes.index(at) if shown else len(codes) - len(recent)
            return {
                "name": game.name, "language": game.language, "game_status": game.status,
                "variant": position.variant,  # the map the notation filter names places on
                "game_variant": position.variant,  # the power filters' names (templating)
                "power": power, "phase": game.phase, "others": others,
                "proposal_example": _proposal_example(position, power, others, game.language),
                "orders": orders,
                "order_lines": [websolo.readable(o, game.language, variant=position.variant)
                                for o in orders],
                "choices": websolo.choices(game, power),
                "units": position.units_of(power), "centres": centres,
                "homes": list(position.homes.get(power, ())),
                "counts": {p: len(c) for p, c in centres.items()},
                "dislodged": [str(d.unit) for d in position.dislodged.values()
                              if d.unit.power == power],
                "recent": recent, "shown": shown, "played": codes,
                "ended": _with_variant(game_ended(session, game), position.variant),
                "previous": codes[i - 1] if i > 0 else None,
                "following": codes[i + 1] if shown and i + 1 < len(codes) else None,
                "inbox": inbox, "ledger": websolo.ledger(session, game, power),
                "kinds": websolo.PROPOSAL_KINDS,
                "map": {"phase": game.phase, "units": units, "centers": centres,
                        "dislodged": {p: {str(d.unit): list(d.retreats)
                                          for d in position.dislodged.values()
                                          if d.unit.power == p} for p in position.powers()},
                        "orders": {power: orders}, "variant": position.variant,
                        "title": game.name},
            }

    # ------------------------------------------------------------------ POST

    async def post(self, path: str, scope: Scope, body: bytes) -> Reply:
        if not _same_origin(scope):
            return Reply(403, b"cross-site request refused\n")
        form = {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace"),
                                             max_num_fields=20).items()}
        query = _query(scope)
        if path == "/play":
            return await self.create(scope, form, query)
        parts = path.split("/")[2:]
        if len(parts) != 3 or not (_NAME.match(parts[0]) and _KEY.match(parts[1])):
            return Reply(404, b"not found\n")
        name, key, action = parts
        if not hmac.compare_digest(form.get("token", ""), game_token(key)):
            return Reply(403, b"form token refused\n")
        lang = page_language(query, _header(scope, b"accept-language"), None)
        base = f"/play/{quote(name)}/{quote(key)}"
        back = f"{base}?lang={lang}" if "lang=" in query else base
        if action in ("orders", "check"):
            lines = _lines(form.get("orders", ""))
            if lines is None:
                return Reply(413, b"too many order lines\n")
            done = await asyncio.to_thread(self._orders, name, key, lines, lang,
                                           action == "check")
            if done is None:
                return Reply(404, b"not found\n")
            if action == "check":
                return Reply(200, json.dumps(done).encode(), "application/json")
            if done["refusals"] or done.get("removals"):
                return await self.game_page(name, key, query, scope, done, 200)
            # the page that follows says what became of the orders (issue 29: every submit
            # answered, an empty one too)
            said = {"sent": done["phase"], "played": "1" if done["processed"] else "0",
                    "empty": "1" if done["defaults"] else "0"}
            if "lang=" in query:
                said["lang"] = lang
            return Reply(303, location=f"{base}?{urlencode(said)}#results")
        if action == "propose":
            line = websolo.proposal_line(form.get("kind", "")[:20], form.get("partner", "")[:20],
                                         form.get("argument", "")[:MAX_LINE])
            done = await asyncio.to_thread(self._negotiate, name, key, line, None, False)
        elif action == "answer":
            number = form.get("number", "")
            if not number.isdigit() or len(number) > 6:
                return Reply(400, b"bad number\n")
            done = await asyncio.to_thread(self._negotiate, name, key, "", int(number),
                                           form.get("accept") == "yes")
        else:
            return Reply(404, b"not found\n")
        if done is None:
            return Reply(404, b"not found\n")
        if done.get("problem"):
            return await self.game_page(name, key, query, scope, done, 200)
        return Reply(303, location=back + "#inbox")

    async def create(self, scope: Scope, form: dict[str, str], query: str) -> Reply:
        lang = form.get("lang", "")
        lang = lang if lang in LANGUAGES else page_language(
            query, _header(scope, b"accept-language"), None)
        if not self._valid_form_token(form.get("token", "")):
            return self.start_page(lang, "expired", 403)
        client = str((scope.get("client") or ("?", 0))[0])
        if not self.limit.allow(client, time.monotonic()):
            return self.start_page(lang, "busy", 429)
        playable = {v.name: v for v in websolo.solo_variants()}
        chosen = playable.get(form.get("variant", "")) or next(iter(playable.values()))
        power = form.get("power", "")
        # a power of another map (the form lists every map's) is left to the lot
        choice = power if any(power in seat for seat in chosen.seats) else None
        name, key = await asyncio.to_thread(self._create, choice, lang, chosen.name)
        return Reply(303, location=f"/play/{quote(name)}/{quote(key)}")

    def _create(self, power: str | None, lang: str, variant: str) -> tuple[str, str]:
        with self.db.session() as session:
            game, key = websolo.create_solo(session, datetime.now(UTC), self.settings, power,
                                            lang, self.seed, variant)
            return game.name, key

    def _orders(self, name: str, key: str, lines: list[str], lang: str,
                dry: bool) -> dict[str, Any] | None:
        with (self.db.reading() if dry else self.db.session()) as session:
            game = websolo.open_solo(session, name, key)
            if game is None:
                return None
            power = websolo.human_power(game)
            phase, defaults, removals = game.phase, False, 0
            if dry:
                checked = websolo.check_orders(game, power, lines, lang)
                processed: list[str] = []
            else:
                sub = websolo.submit(session, game, lines, datetime.now(UTC), self.settings,
                                     lang)
                checked, processed = sub.checked, sub.processed
                phase, defaults, removals = sub.phase, sub.defaults, sub.removals
            return {"phase": phase, "defaults": defaults, "removals": removals,"lines": checked.lines, "orders": checked.orders,
                    "shown": [websolo.readable(o, game.language,
                                               variant=games.game_variant(game).name)
                              for o in checked.orders],
                    "refusals": [{"line": line, "reason": why}
                                 for line, why in checked.refusals],
                    "processed": processed, "typed": "\n".join(lines)}

    def _negotiate(self, name: str, key: str, line: str, number: int | None,
                   accept: bool) -> dict[str, Any] | None:
        with self.db.session() as session:
            game = websolo.open_solo(session, name, key)
            if game is None:
                return None
            now = datetime.now(UTC)
            if number is None:
                done = websolo.propose(session, game, line, now, self.settings)
            else:
                done = websolo.answer(session, game, number, accept, now, self.settings)
            return {"problem": done.problem, "number": done.number}

    # ------------------------------------------------------------------ helpers

    def _sign(self, text: str) -> str:
        return hmac.new(self.secret, text.encode(), hashlib.sha256).hexdigest()[:32]

    def _valid_form_token(self, token: str) -> bool:
        stamp, _, mac = token.partition(".")
        if not stamp.isdigit() or not hmac.compare_digest(mac, self._sign(stamp)):
            return False
        return 0 <= time.time() - int(stamp) <= FORM_TOKEN_SECONDS

    def _html(self, template: str, lang: str, status: int, **data: Any) -> Reply:
        switch = [{"lang": code, "name": name, "current": code == lang}
                  for code, name in LANGUAGE_NAMES.items()]
        html = _templates(lang).get_template(f"play/{template}").render(
            **data, lang=lang, languages=switch)
        return Reply(status, html.encode(), "text/html; charset=utf-8")


def _with_variant(ended: dict[str, Any] | None, variant: str) -> dict[str, Any] | None:
    # the winners named as the game's map names them
    return {**ended, "variant": variant} if ended else None


def _turn_json(turn: Turn) -> dict[str, Any]:
    return {"phase": turn.phase, "position_before": turn.position_before or {},
            "outcomes": turn.outcomes or {}, "position_after": turn.position_after or {}}


def _lines(text: str) -> list[str] | None:
    lines = [line.strip()[:MAX_LINE] for line in text.replace("\r", "\n").split("\n")]
    lines = [line for line in lines if line]
    return None if len(lines) > MAX_LINES else lines


async def _body(receive: Receive) -> bytes | None:
    """The request body, or None past ``MAX_BODY`` (read no further)."""
    chunks, size = [], 0
    while True:
        message = await receive()
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
        if not message.get("more_body"):
            return b"".join(chunks)


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return ""


def _query(scope: Scope) -> str:
    raw = scope.get("query_string", b"")
    return raw.decode("latin-1") if isinstance(raw, bytes) else str(raw)


def _same_origin(scope: Scope) -> bool:
    """A POST from the page itself, as far as the browser says: ``Sec-Fetch-Site`` when it is
    sent (every current browser), else an ``Origin`` naming this host. ``no-referrer`` makes
    Chromium send ``Origin: null`` for the page's own forms, so a null origin, like a missing
    one, leaves the decision to the form token."""
    site = _header(scope, b"sec-fetch-site")
    if site:
        return site in ("same-origin", "none")
    origin = _header(scope, b"origin")
    if origin and origin != "null":
        return origin.split("://", 1)[-1] == _header(scope, b"host")
    return True
