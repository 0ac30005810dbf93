"""Storage fixtures: every test taking ``db`` runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from judge.storage import Database
from tests.conftest import POSTGRES_URL, need_service
from tests.storage.pgdb import fresh_database, postgres_available


@pytest.fixture(scope="session")
def pg_database_url() -> Iterator[str | None]:
    """One fresh PostgreSQL database for the session, or None when there is no server."""
    if postgres_available(POSTGRES_URL) is not None:
        yield None
        return
    with fresh_database(POSTGRES_URL) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path,
           pg_database_url: str | None) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'judge.db'}"
        return
    if pg_database_url is None:
        need_service(postgres_available(POSTGRES_URL) or "PostgreSQL unavailable")
    assert pg_database_url is not None
    # each test gets the session's database emptied back to "no schema"
    db = Database(pg_database_url)
    with db.engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    db.dispose()
    yield pg_database_url


@pytest.fixture
def db(db_url: str) -> Iterator[Database]:
    database = Database(db_url)
    database.migrate()
    yield database
    database.dispose()
