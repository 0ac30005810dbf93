"""Service tests run on SQLite and PostgreSQL through the storage fixtures."""

from tests.storage.conftest import db, db_url, pg_database_url  # noqa: F401
