"""Database fixtures (a plugin of the root conftest): ``db`` runs on SQLite and PostgreSQL.

Migrating a database costs 0.1-0.3 s (1.5 s on a loaded machine) and a few hundred tests need
one, so the schema is made once per session and each test gets a copy of its own: on SQLite a
copy of a migrated template file, on PostgreSQL a database created from a migrated template
database (and dropped after the test). The migration tests take ``db_url``, an empty database,
and migrate it themselves.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from judge.storage import Database
from tests.conftest import POSTGRES_URL, need_service
from tests.storage.pgdb import admin_conninfo, fresh_database, postgres_available


class PostgresState:
    """The session's PostgreSQL databases: ``url`` for the tests that want no schema, and a
    template migrated once, of which each other test gets a copy of its own."""

    def __init__(self, url: str, template_url: str) -> None:
        self.url = url
        self.template_url = template_url
        self._template_ready = False

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

    def migrated(self, request: pytest.FixtureRequest) -> str:
        """A new database at head with every table empty, dropped after the test. A copy
        (CREATE DATABASE ... TEMPLATE) rather than the shared database emptied: a thread or
        process that a test's judge left behind can only ever write to that test's database,
        and ids start at 1 as in a new one."""
        if not self._template_ready:
            db = Database(self.template_url)
            try:
                db.migrate()
            finally:
                db.dispose()  # a template may have no connection while it is copied
            self._template_ready = True
        import psycopg  # the [postgres] extra, as in tests/storage/pgdb.py

        name = f"{make_url(self.template_url).database}_{uuid.uuid4().hex[:8]}"
        admin = admin_conninfo(self.url)
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE '
                         f'"{make_url(self.template_url).database}"')

        def drop() -> None:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        request.addfinalizer(drop)
        return make_url(self.template_url).set(database=name).render_as_string(
            hide_password=False)


@pytest.fixture(scope="session")
def pg_state() -> Iterator[PostgresState | None]:
    """The session's PostgreSQL databases, or None when there is no server."""
    if postgres_available(POSTGRES_URL) is not None:
        yield None
        return
    with fresh_database(POSTGRES_URL) as url, fresh_database(POSTGRES_URL) as template:
        yield PostgresState(url, template)


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


def migrated_url(request: pytest.FixtureRequest, kind: str, tmp_path: Path,
                 sqlite_template: Path, pg_state: PostgresState | None) -> str:
    """A database of the test's own at head with no rows, of ``kind`` ("sqlite" or
    "postgresql")."""
    if kind == "sqlite":
        path = tmp_path / "judge.db"
        shutil.copyfile(sqlite_template, path)
        return f"sqlite:///{path}"
    return _postgres(pg_state).migrated(request)


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
    return migrated_url(request, request.param, tmp_path, sqlite_template, pg_state)


@pytest.fixture
def db(migrated_db_url: str) -> Iterator[Database]:
    database = Database(migrated_db_url)
    database.migrate()  # a no-op at head: checks the copy is what the code expects
    yield database
    database.dispose()
