"""Issue 13 point 12: the archive of a finished game says it ended, how and when, and shows what
seed 002 makes public at the end "per regolarità e trasparenza": the orders sent for powers in
ONP or Sommossa, and in a blind game who played which power. A game still played shows none of
it (tests/archive/test_no_leaks.py keeps the rest secret)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from html import unescape
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.archive.webapp import ArchiveApp
from judge.storage import Database
from judge.storage.models import AuditLog, Game, Vote
from tests.archive.asgi import get
from tests.archive.played import fresh_db, play

ENDED_AT = datetime(2026, 2, 1, 21, 0, tzinfo=UTC)
FOR_ORDERS = ["A VIE - GAL", "F TRI H"]


def _end(db: Database, name: str, reason: str, winners: list[str]) -> None:
    with db.session() as s:
        game = s.scalar(select(Game).where(Game.name == name))
        assert game is not None
        s.add(AuditLog(game_id=game.id, action="game.ended", at=ENDED_AT,
                       detail={"reason": reason, "winners": winners, "phase": "S1902M"}))
        s.add(Vote(game_id=game.id, phase="F1901M", kind="sommossa_order", voter_power="ITALY",
                   target_power="AUSTRIA", payload={"orders": FOR_ORDERS}, created=ENDED_AT))


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> ArchiveApp:
    path: Path = tmp_path_factory.mktemp("archive-end") / "archive.db"
    db = fresh_db(str(path))
    play(db, name="roma", years=1, seed=7, language="it", blind=True)
    _end(db, "roma", "gm", [])
    play(db, name="paris", years=1, seed=5, language="fr")
    _end(db, "paris", "draw", ["FRANCE", "GERMANY"])
    play(db, name="live", years=1, seed=3, status="active", blind=True)
    _end(db, "live", "gm", [])  # stray rows of a game still played: never shown
    return ArchiveApp(db)


async def test_a_finished_game_says_how_and_when_it_ended(app: ArchiveApp) -> None:
    html = unescape((await get(app, "/games/roma"))[2].decode())
    assert ("La partita è terminata il 2026-02-01, in Primavera 1902 Movimenti: l'arbitro "
            "l'ha chiusa.") in html
    html = unescape((await get(app, "/games/paris"))[2].decode())
    assert ("La partie s'est terminée le 2026-02-01, en Printemps 1902 Mouvements : nulle entre "
            "France, Allemagne.") in html
    data = json.loads((await get(app, "/games/paris.json"))[2])
    assert data["game"]["ended"] == {"reason": "draw", "winners": ["FRANCE", "GERMANY"],
                                     "phase": "S1902M", "at": "2026-02-01T21:00:00+00:00"}


async def test_the_orders_for_powers_in_onp_or_sommossa_are_public_at_the_end(
        app: ArchiveApp) -> None:
    html = (await get(app, "/games/roma"))[2].decode()
    assert "Ordini inviati per le potenze in ONP o in Sommossa" in html
    # in the Italian notation: Galicia is GAL, Trieste TRI
    assert "<code>A VIE - GAL, F TRI H</code>" in html
    assert '<td class="power">Italia</td><td class="power">Austria</td>' in html


async def test_a_blind_game_shows_its_players_once_over(app: ArchiveApp) -> None:
    data = json.loads((await get(app, "/games/roma.json"))[2])
    assert {p["power"]: p["name"] for p in data["game"]["players"]}["ITALY"] == "Player Italy"
    html = (await get(app, "/games/roma"))[2].decode()
    assert "Player Italy" in html and "Partita al buio" not in html


async def test_a_game_still_played_shows_none_of_it(app: ArchiveApp) -> None:
    data = json.loads((await get(app, "/games/live.json"))[2])
    assert data["game"]["players"] is None
    assert data["game"]["ended"] is None and data["game"]["revealed"] == []
    html = (await get(app, "/games/live"))[2].decode()
    assert "A VIE - GAL, F TRI H" not in html and "Player Italy" not in html
