"""Alembic environment: run by ``Database.migrate`` (a connection is handed in) or by the
``alembic`` command with ``-x url=...`` / JUDGE_DATABASE_URL."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection

from judge.storage.database import normalise_url
from judge.storage.models import Base

config = context.config
target_metadata = Base.metadata


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite cannot ALTER most things; batch mode copies the table instead.
        render_as_batch=True,
        compare_type=True,
    )


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or os.environ.get(
        "JUDGE_DATABASE_URL", "sqlite:///judge.db"
    )
    engine = create_engine(normalise_url(url))
    with engine.begin() as conn:
        _configure(conn)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


def run_offline() -> None:
    url = context.get_x_argument(as_dictionary=True).get("url") or os.environ.get(
        "JUDGE_DATABASE_URL", "sqlite:///judge.db"
    )
    context.configure(url=str(normalise_url(url)), target_metadata=target_metadata,
                      literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
