"""Storage: the only package that imports SQLAlchemy (tables, repositories, sessions)."""

from judge.storage.database import Database

__all__ = ["Database"]
