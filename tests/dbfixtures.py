"""Database fixtures (a plugin of the root conftest): ``db`` runs on SQLite and PostgreSQL.

Migrating a database costs 0.1-0.3 s (1.5 s on a loaded machine) and a few hundred tests need
one, so the schema is made once per session and each test gets it empty: on SQLite a copy of a
migrated template file, on PostgreSQL the session's database with every table truncated
(identities restarted, so ids start at 1 as in a new database). A test that changed the schema
(the migration tests take ``db_url``, an empty database, and migrate it themselves) is followed by
a full drop and migration, found by comparing the schema with the one the template had.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import inspect, text

from judge.storage import Database
from tests.conftest import POSTGRES_URL, need_service
from tests.storage.pgdb import fresh_database, postgres_available


class PostgresState:
    """The session's PostgreSQL database and the schema a fresh migration gives it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.tables: frozenset[str] | None = None

    def empty(self) -> str:
        """The database with no schema at all."""
        db = Database(self.url)
        try:
            with db.engine.begin() as conn:
                conn.execute(text("DROP SCHEMA public CASCADE"))
                conn.execute(text("CREATE SCHEMA public"))
        finally:
            db.dispose()
        return self.url

    def migrated(self) -> str:
        """The database at head with every table empty."""
        db = Database(self.url)
        try:
            tables = frozenset(inspect(db.engine).get_table_names())
            if self.tables is None or tables != self.tables or not self._at_head(db):
                db.dispose()
                self.empty()
                db = Database(self.url)
                db.migrate()
                self.tables = frozenset(inspect(db.engine).get_table_names())
                return self.url
            data = sorted(t for t in tables if t != "alembic_version")
            with db.engine.begin() as conn:
                conn.execute(text(
                    "TRUNCATE " + ", ".join(f'"{t}"' for t in data) + " RESTART IDENTITY CASCADE"))
        finally:
            db.dispose()
        return self.url

    @staticmethod
    def _at_head(db: Database) -> bool:
        from alembic.script import ScriptDirectory

        from judge.storage.database import alembic_config

        with db.engine.connect() as conn:
            heads = set(ScriptDirectory.from_config(alembic_config(conn)).get_heads())
            rows = {r[0] for r in conn.execute(text("SELECT version_num FROM alembic_version"))}
        return rows == heads


@pytest.fixture(scope="session")
def pg_state() -> Iterator[PostgresState | None]:
    """One fresh PostgreSQL database for the session, or None when there is no server."""
    if postgres_available(POSTGRES_URL) is not None:
        yield None
        return
    with fresh_database(POSTGRES_URL) as url:
        yield PostgresState(url)


@pytest.fixture(scope="session")
def pg_database_url(pg_state: PostgresState | None) -> str | None:
    return pg_state.url if pg_state else None


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file that each test copies."""
    path = tmp_path_factory.mktemp("template") / "judge.db"
    db = Database(f"sqlite:///{path}")
    try:
        db.migrate()
    finally:
        db.dispose()
    return path


def _postgres(pg_state: PostgresState | None) -> PostgresState:
    if pg_state is None:
        need_service(postgres_available(POSTGRES_URL) or "PostgreSQL unavailable")
    assert pg_state is not None
    return pg_state


def migrated_url(kind: str, tmp_path: Path, sqlite_template: Path,
                 pg_state: PostgresState | None) -> str:
    """A database at head with no rows, of ``kind`` ("sqlite" or "postgresql")."""
    if kind == "sqlite":
        path = tmp_path / "judge.db"
        shutil.copyfile(sqlite_template, path)
        return f"sqlite:///{path}"
    return _postgres(pg_state).migrated()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path,
           pg_state: PostgresState | None) -> str:
    """An empty database (no schema): for tests that migrate it themselves."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'judge.db'}"
    return _postgres(pg_state).empty()


@pytest.fixture(params=["sqlite", "postgresql"])
def migrated_db_url(request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path,
                    pg_state: PostgresState | None) -> str:
    return migrated_url(request.param, tmp_path, sqlite_template, pg_state)


@pytest.fixture
def db(migrated_db_url: str) -> Iterator[Database]:
    database = Database(migrated_db_url)
    database.migrate()  # a no-op at head: checks the copy is what the code expects
    yield database
    database.dispose()
