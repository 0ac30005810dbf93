"""A throw-away PostgreSQL database per test session (CREATE DATABASE judge_test_<random>)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.engine import make_url


def admin_conninfo(url: str) -> str:
    parsed = make_url(url)
    parts = [f"host={parsed.host or '127.0.0.1'}", f"port={parsed.port or 5432}",
             f"dbname={parsed.database or 'postgres'}", f"user={parsed.username or 'postgres'}"]
    if parsed.password:
        parts.append(f"password={parsed.password}")
    return " ".join(parts)


def postgres_available(url: str) -> str | None:
    """None when PostgreSQL answers, else why not."""
    import psycopg

    try:
        with psycopg.connect(admin_conninfo(url), connect_timeout=3) as conn:
            conn.execute("select 1")
    except Exception as exc:  # any failure means "not usable here"
        return f"PostgreSQL at {url} unavailable: {exc}"
    return None


@contextmanager
def fresh_database(url: str) -> Iterator[str]:
    """Create an empty database next to ``url``'s, yield its URL, drop it afterwards."""
    import psycopg

    name = f"judge_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_conninfo(url), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(url).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin_conninfo(url), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
