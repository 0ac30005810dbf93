"""Service tests run on SQLite and PostgreSQL through the database fixtures (tests/dbfixtures.py)."""
