"""The play page over ASGI in-process (issue 15), on SQLite and PostgreSQL: the secret URL is
the only key, forms are protected, work is bounded, orders go through the mail's use cases."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from typing import Any
from urllib.parse import urlencode

import pytest

from judge.archive.webapp import ArchiveApp
from judge.parsing.report import parse_orders
from judge.play.webplay import PlayApp, game_token
from judge.service import websolo
from judge.settings import Settings
from judge.storage import Database
from judge.storage.gamerepo import game_by_name, turns
from judge.storage.mailrepo import list_outbound
from tests.standard_variant import STANDARD

SEED = 1901


def call(app: Any, path: str, method: str = "GET", form: dict[str, str] | None = None,
         headers: list[tuple[bytes, bytes]] | None = None, body: bytes | None = None,
         client: str = "10.0.0.1") -> tuple[int, dict[str, str], bytes]:
    path, _, query = path.partition("?")
    payload = body if body is not None else urlencode(form or {}).encode()
    scope = {"type": "http", "method": method, "path": path, "query_string": query.encode(),
             "headers": headers or [], "client": (client, 5000)}
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": payload, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    answer = {k.decode(): v.decode() for k, v in start["headers"]}
    return start["status"], answer, b"".join(m.get("body", b"") for m in sent[1:])


def make_app(db: Database, **settings: Any) -> PlayApp:
    return PlayApp(db, Settings(**settings), ArchiveApp(db), seed=SEED)


def start(app: PlayApp, power: str = "ENGLAND", lang: str = "en",
          client: str = "10.0.0.1") -> tuple[str, str]:
    status, _, page = call(app, "/play")
    assert status == 200
    token = re.search(rb'name="token" value="([^"]+)"', page).group(1).decode()  # type: ignore[union-attr]
    status, headers, _ = call(app, "/play", "POST",
                              {"token": token, "power": power, "lang": lang}, client=client)
    assert status == 303, status
    match = re.fullmatch(r"/play/(solo-[0-9a-f]+)/([A-Za-z0-9_-]+)", headers["location"])
    assert match
    return match.group(1), match.group(2)


def test_the_secret_url_is_the_only_key(db: Database) -> None:
    app = make_app(db)
    name, key = start(app)
    assert len(key) >= 32
    status, headers, page = call(app, f"/play/{name}/{key}")
    assert status == 200 and b"Spring 1901" in page
    assert headers["referrer-policy"] == "no-referrer" and headers["cache-control"] == "no-store"
    assert "script-src 'self'" in headers["content-security-policy"]
    for wrong in (key[:-1] + ("A" if key[-1] != "A" else "B"), "x" * len(key), key[:20]):
        assert call(app, f"/play/{name}/{wrong}")[0] == 404
    # stored as its SHA-256 only; the archive shows the game like any other, never the key
    with db.session() as session:
        game = game_by_name(session, name)
        assert game is not None
        assert game.options["web"] == {"key": hashlib.sha256(key.encode()).hexdigest()}
        assert key not in json.dumps(game.options)
    for path in ("/", "/index.json", f"/games/{name}", f"/games/{name}.json"):
        status, _, body = call(app, path)
        assert status == 200 and name.encode() in body and key.encode() not in body, path
        assert b"web-" not in body, path  # nor the player's account (it has no address)


def _start_on(app: PlayApp, form: dict[str, str]) -> str:
    """POST the start form with ``form`` (and a fresh token); the new game's name."""
    page = call(app, "/play")[2]
    token = re.search(rb'name="token" value="([^"]+)"', page).group(1).decode()  # type: ignore[union-attr]
    status, headers, _ = call(app, "/play", "POST", {"token": token, **form})
    assert status == 303, status
    return headers["location"].split("/")[2]


def test_the_start_form_chooses_the_variant_and_the_power(db: Database) -> None:
    app = make_app(db)
    status, _, page = call(app, "/play?lang=it")
    text = page.decode()
    assert status == 200 and '<select id="variant" name="variant">' in text
    # every map a solo game can be played on, the standard one first, with its title in the
    # page's language; the seats of several powers (standard-2 to 4) cannot be played solo
    chooser = text.split('<select id="variant" name="variant">')[1].split("</select>")[0]
    offered = re.findall(r'<option value="([a-z0-9-]+)">', chooser)
    assert offered == [v.name for v in websolo.solo_variants()]
    assert offered[0] == "standard" and "pure" in offered and "standard-4" not in offered
    assert "Sei giocatori (senza Italia) (6 giocatori)" in text
    # each map's powers, named in the language from the map's data
    assert re.search(r'<optgroup label="Pure" data-variant="pure">\s*<option value="AUSTRIA">'
                     r"Austria</option>", text)
    assert '<option value="ENGLAND">Inghilterra</option>' in text
    name = _start_on(app, {"variant": "pure", "power": "FRANCE", "lang": "en"})
    with db.session() as session:
        game = game_by_name(session, name)
        assert game is not None and game.variant == "pure" and game.status == "active"
        assert websolo.human_power(game) == "FRANCE"
        assert sorted(u for us in game.position["units"].values() for u in us)[0] == "A BER"
    # a power the chosen map has no player for (Italy is out of standard-6) is drawn by lot;
    # a map the form does not offer is the standard one
    name = _start_on(app, {"variant": "standard-6", "power": "ITALY", "lang": "en"})
    with db.session() as session:
        game = game_by_name(session, name)
        assert game is not None and game.variant == "standard-6"
        assert websolo.human_power(game) not in ("", "ITALY")
    name = _start_on(app, {"variant": "standard-2", "power": "ITALY", "lang": "en"})
    with db.session() as session:
        game = game_by_name(session, name)
        assert game is not None and game.variant == "standard"
        assert websolo.human_power(game) == "ITALY"


def test_forms_are_protected_and_bounded(db: Database) -> None:
    app = make_app(db, web_games_per_client_per_hour=2)
    name, key = start(app)
    orders = f"/play/{name}/{key}/orders"
    # no token, a forged token, a cross-site request: refused, nothing stored
    assert call(app, orders, "POST", {"orders": "F LON - NTH"})[0] == 403
    assert call(app, orders, "POST", {"orders": "F LON - NTH", "token": "0" * 32})[0] == 403
    cross = [(b"sec-fetch-site", b"cross-site")]
    assert call(app, orders, "POST", {"orders": "F LON - NTH", "token": game_token(key)},
                headers=cross)[0] == 403
    assert call(app, "/play", "POST", {"power": "FRANCE", "token": "1.abc"})[0] == 403
    # a body past the cap is not read; too many lines are refused
    assert call(app, orders, "POST", body=b"orders=" + b"A" * 40_000)[0] == 413
    many = "\n".join(["F LON H"] * 61)
    assert call(app, orders, "POST", {"orders": many, "token": game_token(key)})[0] == 413
    with db.session() as session:
        game = game_by_name(session, name)
        assert game is not None and game.phase == "S1901M"
    # games per client: the third from one address is refused, another address may start one
    start(app, client="10.0.0.1")
    status, _, page = call(app, "/play")
    token = re.search(rb'name="token" value="([^"]+)"', page).group(1).decode()  # type: ignore[union-attr]
    status, _, page = call(app, "/play", "POST", {"token": token}, client="10.0.0.1")
    assert status == 429 and b"Too many games" in page
    start(app, client="10.0.0.2")


def test_orders_go_through_the_use_cases_and_the_phase_is_played(db: Database) -> None:
    app = make_app(db)
    name, key = start(app, "ENGLAND", "fr")
    base = f"/play/{name}/{key}"
    # read without storing: the judge's reasons in the page's language
    status, _, body = call(app, base + "/check?lang=fr", "POST",
                           {"orders": "F LON - NTH\nA LVP - XYZ", "token": game_token(key)})
    checked = json.loads(body)
    assert status == 200 and checked["orders"] == ["F LON - NTH"]
    assert "inconnue" in checked["refusals"][0]["reason"]
    # a refused line: the page says why and keeps the lines; nothing is stored
    status, _, page = call(app, base + "/orders?lang=en", "POST",
                           {"orders": "F LON - NTH\nF EDI - NWG\nA LVP - XYZ",
                            "token": game_token(key)})
    assert status == 200 and b"Some orders were refused" in page and b"A LVP - XYZ" in page
    with db.session() as session:
        game = game_by_name(session, name)
        assert game is not None and game.phase == "S1901M"
    status, headers, _ = call(app, base + "/orders", "POST",
                              {"orders": "F LON - NTH\nF EDI - NWG\nA LVP - YOR",
                               "token": game_token(key)})
    assert status == 303 and headers["location"].endswith("#results")
    with db.session() as session:
        game = game_by_name(session, name)
        assert game is not None and game.phase.startswith("F1901")
        played = turns(session, game.id)
        assert [o["order"] for o in played[0].outcomes["ENGLAND"]] == [
            "F LON - NTH", "F EDI - NWG", "A LVP - YOR"]
        # nothing is ever mailed for a web game: its player has no address
        assert not [m for m in list_outbound(session) if "web-" in m.to_address]


def test_negotiation_from_the_page(db: Database) -> None:
    app = make_app(db)
    name, key = start(app, "ENGLAND", "en")
    base = f"/play/{name}/{key}"
    status, headers, _ = call(app, base + "/propose", "POST",
                              {"partner": "FRANCE", "kind": "peace", "argument": "",
                               "token": game_token(key)})
    assert status == 303 and headers["location"].endswith("#inbox")
    status, _, page = call(app, base + "/propose", "POST",
                           {"partner": "GERMANY", "kind": "dmz", "argument": "NOWHERE",
                            "token": game_token(key)})
    assert status == 200 and b"The province could not be read." in page
    _, _, page = call(app, base)
    text = page.decode()
    assert re.search(r"France (accepts|refuses) your proposal \d+: PROPOSE FRANCE PEACE", text)
    ledger = text[text.index('id="ledger"'):]
    assert "PROPOSE FRANCE PEACE" in ledger and re.search(r"promised|refused", ledger)
    # a computer power's own proposal, accepted from the inbox: promised in the ledger
    waiting = re.search(r'name="number" value="(\d+)"', text)
    assert waiting, "the computer powers propose in Spring 1901 (seed 1901)"
    number = waiting.group(1)
    status, headers, _ = call(app, base + "/answer", "POST",
                              {"number": number, "accept": "yes", "token": game_token(key)})
    assert status == 303
    _, _, page = call(app, base)
    row = re.search(rf"<tr><td>{number}</td>.*?</tr>", page.decode(), re.S)
    assert row and "promised" in row.group(0), row
    assert call(app, base + "/answer", "POST", {"number": number, "accept": "no",
                                               "token": game_token(key)})[0] == 200


def test_an_army_over_sea_gets_the_shortest_chain_of_own_fleets() -> None:
    position = STANDARD.position(
        "F1901M", {"ENGLAND": ["A LON", "F ENG", "F MAO", "F NTH", "F IRI"],
                   "FRANCE": ["F WES"]}, {})
    lines = ["A LON - POR", "F MAO H"]
    report = parse_orders(lines, "en", position=position, power="ENGLAND")
    full = websolo.with_convoys(position, "ENGLAND", lines, report)
    assert full == ["A LON - POR", "F ENG C A LON - POR", "F MAO C A LON - POR"]
    # a foreign fleet is never ordered, and no route of own fleets adds nothing
    lines = ["A LON - NAF"]
    report = parse_orders(lines, "en", position=position, power="ENGLAND")
    assert websolo.with_convoys(position, "ENGLAND", lines, report) == [
        "A LON - NAF", "F ENG C A LON - NAF", "F MAO C A LON - NAF"]
    lines = ["A LON - TUN"]
    report = parse_orders(lines, "en", position=position, power="ENGLAND")
    assert websolo.with_convoys(position, "ENGLAND", lines, report) == lines


@pytest.mark.parametrize("lang", ["it", "fr"])
def test_the_page_writes_orders_the_games_reader_reads_back(lang: str) -> None:
    position = STANDARD.initial_position()
    from judge.adjudicator.possible import possible_orders

    for power in position.powers():
        for given in possible_orders(position, power).values():
            for order in given:
                line = websolo.readable(str(order), lang, variant=position.variant)
                read = parse_orders([line], lang, position=position, power=power).orders
                assert [str(o) for o in read] == [str(order)], (line, lang)


def _articles(page: bytes) -> list[str]:
    """The phases the page shows as played since the player's last orders, in order."""
    text = page.decode()
    results = text[text.index('id="results"'):text.index('id="history"')]
    return re.findall(r'<article class="phase" id="phase-([A-Z0-9]+)"', results)


def test_every_phase_played_since_the_last_orders_is_shown(db: Database) -> None:
    """Issue 29: the Fall's results stay on the page when the winter is played at once (the
    player, holding, has nothing to build), with every power's orders and the maps."""
    app = make_app(db)
    name, key = start(app, "ENGLAND", "en")
    base = f"/play/{name}/{key}"
    holds = "F LON H\nF EDI H\nA LVP H"
    for phase in ("S1901M", "F1901M"):
        status, headers, _ = call(app, base + "/orders", "POST",
                                  {"orders": holds, "token": game_token(key)})
        assert status == 303 and f"sent={phase}" in headers["location"]
        assert "played=1" in headers["location"] and "empty=0" in headers["location"]
    with db.session() as session:
        game = game_by_name(session, name)
        assert game is not None and game.phase == "S1902M"
        played = {t.phase: t for t in turns(session, game.id)}
    assert "W1901A" in played, "the computer powers build in Winter 1901 (seed 1901)"
    _, _, page = call(app, base + "?" + headers["location"].split("?")[1].split("#")[0])
    assert _articles(page) == ["F1901M", "W1901A"]
    text = page.decode()
    assert "Your orders for Fall 1901 Movement are in. 2 phases were played" in text
    recent = text[text.index('id="results"'):text.index('id="history"')]
    assert recent.count("<svg") == 2
    for phase in ("F1901M", "W1901A"):
        for power, results in played[phase].outcomes.items():
            for r in results:
                assert f'data-power="{power}" data-order="{r["order"]}"' in recent, (phase, r)
    assert "Army Liverpool HOLD." in recent and "Build " in recent
    # the history: any phase played, with its map and its neighbours
    _, _, page = call(app, base + "?at=S1901M")
    text = page.decode()
    history = text[text.index('id="history"'):]
    assert 'data-phase="S1901M"' in history and "<svg" in history
    assert "at=F1901M" in history and 'id="history-previous"' not in history
    # a phase that was not played shows no phase
    _, _, page = call(app, base + "?at=S1950M")
    assert '<article class="phase" data-phase' not in page.decode()


def test_an_empty_submit_is_always_answered(db: Database) -> None:
    """Issue 29: an empty set stands for the defaults (units hold, dislodged units disband,
    builds waived) and the page says so; a winter that owes removals asks for them."""
    app = make_app(db)
    name, key = start(app, "ENGLAND", "it")
    base = f"/play/{name}/{key}"
    status, headers, _ = call(app, base + "/orders?lang=en", "POST",
                              {"orders": "", "token": game_token(key)})
    assert status == 303 and "sent=S1901M" in headers["location"]
    assert "empty=1" in headers["location"]
    _, _, page = call(app, base + "?" + headers["location"].split("?")[1].split("#")[0])
    assert b"You sent no orders for Spring 1901 Movement: your units hold." in page
    assert _articles(page) == ["S1901M"]
    # a retreat: Liverpool's army dislodged; nothing sent, it disbands, and the page says so
    with db.session() as session:
        game = game_by_name(session, name)
        assert game is not None
        position = dict(game.position)
        units = {p: [u for u in us if not u.endswith(" LVP")]
                 for p, us in position["units"].items()}
        units["FRANCE"] = [*units["FRANCE"], "A LVP"]
        position.update(phase="F1901R", units=units,
                        dislodged={"ENGLAND": {"A LVP": ["CLY", "YOR"]}})
        game.position, game.phase = position, "F1901R"
    status, headers, _ = call(app, base + "/orders?lang=it", "POST",
                              {"orders": "\n \n", "token": game_token(key)})
    assert status == 303 and "sent=F1901R" in headers["location"]
    _, _, page = call(app, base + "?" + headers["location"].split("?")[1].split("#")[0])
    text = page.decode()
    assert "non hai mandato ordini" in text.lower() and "sciolte" in text, text[:3000]
    assert _articles(page)[0] == "F1901R"
    assert 'data-power="ENGLAND" data-order="A LVP D"' in text
    # a winter that owes a removal: nothing is chosen for the player, the page asks
    with db.session() as session:
        game = game_by_name(session, name)
        assert game is not None
        position = dict(game.position)
        centres = {p: [c for c in cs if c != "EDI"] for p, cs in position["centers"].items()}
        centres["FRANCE"] = [*centres["FRANCE"], "EDI"]
        position.update(phase="W1901A", centers=centres, dislodged={})
        game.position, game.phase = position, "W1901A"
    status, _, page = call(app, base + "/orders?lang=en", "POST",
                           {"orders": "", "token": game_token(key)})
    assert status == 200 and b"You must remove 1 unit: click it on the map" in page


def test_answers_to_proposals_are_told_apart(db: Database) -> None:
    """Issue 29: the inbox says whether the player accepted or refused a proposal (it showed
    the proposal's terms alone either way)."""
    app = make_app(db)
    for accept, said in (("yes", "I accept"), ("no", "I refuse")):
        name, key = start(app, "ENGLAND", "en", client=f"10.0.0.{len(said)}")
        base = f"/play/{name}/{key}"
        _, _, page = call(app, base)
        waiting = re.search(r'name="number" value="(\d+)"', page.decode())
        assert waiting, "the computer powers propose in Spring 1901 (seed 1901)"
        status, _, _ = call(app, base + "/answer", "POST",
                            {"number": waiting.group(1), "accept": accept,
                             "token": game_token(key)})
        assert status == 303
        _, _, page = call(app, base)
        inbox = page.decode()[page.decode().index('id="inbox"'):]
        assert re.search(rf"{said} your proposal {waiting.group(1)}: PROPOSE ENGLAND ", inbox)
        other = "I refuse" if accept == "yes" else "I accept"
        assert other not in inbox
