"""Migrations go up, down and up again, and leave exactly the schema the models describe."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from judge.storage import Database
from judge.storage.models import Base


def _diff(db: Database) -> list:
    with db.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return compare_metadata(context, Base.metadata)


def test_upgrade_downgrade_upgrade(db_url: str) -> None:
    db = Database(db_url)
    db.migrate()
    tables = set(inspect(db.engine).get_table_names())
    assert set(Base.metadata.tables) <= tables
    db.downgrade("base")
    assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}
    db.migrate()
    assert set(Base.metadata.tables) <= set(inspect(db.engine).get_table_names())
    assert _diff(db) == []
    db.dispose()


def test_migrate_is_idempotent(db: Database) -> None:
    db.migrate()
    assert _diff(db) == []


def test_sqlite_pragmas(tmp_path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'sub' / 'j.db'}")
    with db.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000
    db.dispose()


def test_0002_takes_existing_players_and_gms_as_confirmed(db_url: str) -> None:
    """Accounts that held a seat or ran a game before confirmations existed keep getting their
    game's mail; any other account must confirm first."""
    from sqlalchemy import text

    db = Database(db_url)
    db.migrate("0003_bots")
    with db.engine.begin() as conn:
        for i, address in enumerate(("gm@x.example", "player@x.example", "stranger@x.example"),
                                    start=1):
            conn.execute(text("INSERT INTO account (id, address, display_name, language, created)"
                              " VALUES (:i, :a, '', 'en', CURRENT_TIMESTAMP)"), {"i": i, "a": address})
        conn.execute(text(
            "INSERT INTO game (id, name, variant, status, language, options, password_hash,"
            " gm_account_id, phase, position, created) VALUES (1, 'g', 'standard', 'forming',"
            " 'en', '{}', '', 1, 'S1901M', '{}', CURRENT_TIMESTAMP)"))
        conn.execute(text(
            "INSERT INTO seat (game_id, power, account_id, status, late_days_used,"
            " late_days_this_turn, strikes, wait, password_hash, preferences) VALUES"
            " (1, '_1', 2, 'active', 0, 0, 0, false, '', '[]')"))
    db.migrate()
    with db.engine.connect() as conn:
        confirmed = dict(conn.execute(text(
            "SELECT address, confirmed_at IS NOT NULL FROM account")).all())
    assert confirmed == {"gm@x.example": True, "player@x.example": True,
                         "stranger@x.example": False}
    db.dispose()
