"""Issue 16: LIST and the archive index (and its JSON) are paginated and take a constant
number of queries however many games the judge holds, counted on the engine (SQLite and
PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event, update

from judge.archive.webapp import ArchiveApp
from judge.service.commands.anyone import LIST_PAGE
from judge.storage import Database, gamerepo
from judge.storage.archive_queries import INDEX_PAGE
from judge.storage.models import Game
from tests.service.commands_harness import Harness
from tests.service.games import START, new_game

STRANGER = "stranger@example.net"


@contextmanager
def counted(db: Database) -> Iterator[list[str]]:
    """Every statement the engine runs while inside the block."""
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    event.listen(db.engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(db.engine, "before_cursor_execute", note)


def add_games(db: Database, first: int, count: int, finish: bool = False) -> None:
    """``count`` more games named g0001...; every seventh blind, every fifth finished if
    ``finish`` (LIST shows the open ones only)."""
    for i in range(first, first + count):
        gid = new_game(db, name=f"g{i:04d}", blind=i % 7 == 0)
        if finish and i % 5 == 0:
            with db.session() as s:
                s.execute(update(Game).where(Game.id == gid).values(status="finished"))
                gamerepo.audit(s, START, "game.ended", gid, reason="draw", winners=[],
                               phase="S1901M")


def list_queries(h: Harness, db: Database, body: str) -> tuple[int, str]:
    with counted(db) as seen:
        reply = h.reply(STRANGER, body)
    return len(seen), reply


def index_queries(db: Database, path: str, query: str = "") -> tuple[int, Any]:
    app = ArchiveApp(db)
    with counted(db) as seen:
        response = asyncio.run(app.route(path, query))
    assert response.status == 200
    return len(seen), response.body


def test_list_takes_the_same_queries_for_few_games_and_many(db: Database) -> None:
    h = Harness(db)
    add_games(db, 1, 3)
    h.reply(STRANGER, "LIST")  # the stranger's first mail: its account and caches
    few, reply = list_queries(h, db, "LIST")
    assert "g0001" in reply and "Page" not in reply
    add_games(db, 4, LIST_PAGE + 2)  # two pages now
    many, reply = list_queries(h, db, "LIST")
    assert many == few
    names = [w for w in reply.split() if w.startswith("g0")]
    assert len(names) == LIST_PAGE and names == sorted(names)
    assert "Page 1 of 2; send LIST 2 for the next one." in reply
    second, reply = list_queries(h, db, "LIST 2")
    assert second == few + 1  # the one look for a game named "2"
    rest = [w for w in reply.split() if w.startswith("g0")]
    assert len(rest) == 3 + LIST_PAGE + 2 - LIST_PAGE and not set(rest) & set(names)
    assert "Page 2 of 2." in reply
    assert "7/7" in reply
    assert "No open games on page 3; the last page is 2." in h.reply(STRANGER, "LIST 3")
    assert "g0002" in h.reply(STRANGER, "LIST g0002")  # a game's own status still


def test_the_archive_index_takes_the_same_queries_for_few_games_and_many(
        db: Database) -> None:
    add_games(db, 1, 7, finish=True)
    few, _ = index_queries(db, "/")
    few_json, body = index_queries(db, "/index.json")
    data = json.loads(body)
    assert (data["page"], data["pages"], data["total"]) == (1, 1, 7)
    add_games(db, 8, INDEX_PAGE + 3, finish=True)
    many, html = index_queries(db, "/")
    assert many == few
    assert b'href="/?page=2"' in html and b"Page 1 of 2" in html
    many_json, body = index_queries(db, "/index.json", "page=2")
    assert many_json == few_json
    data = json.loads(body)
    assert (data["page"], data["pages"], data["total"]) == (2, 2, INDEX_PAGE + 10)
    assert [g["name"] for g in data["games"]] == [f"g{i:04d}" for i in range(10, 0, -1)]
    # the finished games say how they ended; a blind game in play shows no players
    by_name = {g["name"]: g for g in data["games"]}
    assert by_name["g0005"]["ended"]["reason"] == "draw"
    assert by_name["g0007"]["players"] is None and by_name["g0001"]["players"]
    assert by_name["g0001"]["ended"] is None
