from __future__ import annotations

from pathlib import Path

import pytest

from judge.archive.webapp import ArchiveApp
from judge.storage import Database
from tests.archive.played import fresh_db, play


@pytest.fixture(scope="module")
def played_db(tmp_path_factory: pytest.TempPathFactory) -> Database:
    path: Path = tmp_path_factory.mktemp("archive") / "archive.db"
    db = fresh_db(str(path))
    play(db, name="archtest", years=2, seed=7)
    play(db, name="blindgame", years=1, seed=3, status="active", blind=True)
    return db


@pytest.fixture(scope="module")
def app(played_db: Database) -> ArchiveApp:
    return ArchiveApp(played_db)
