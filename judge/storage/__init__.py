"""Storage: the only package that imports SQLAlchemy (tables, repositories, sessions).

``Session`` is the type of what ``Database.session()`` opens: the service and the layers above
name it from here (annotations, no SQLAlchemy import of their own) and pass it to the
repositories, which take the same type.
"""

from sqlalchemy.orm import Session

from judge.storage.database import Database

__all__ = ["Database", "Session"]
