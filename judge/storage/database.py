"""Engine, sessions and migrations.

``Database(url)`` is the one object the rest of the judge holds; ``with db.session() as s:``
is one transaction, committed on a clean exit and rolled back on an exception.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import Session, sessionmaker

from judge.settings import ConfigError
from judge.shipped import shipped_dir

try:
    import fcntl
except ImportError:  # pragma: no cover - not a POSIX system: SQLite's busy handler alone
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

# how long a SQLite writer waits for the lock before "database is locked"
SQLITE_BUSY_SECONDS = 30.0



class MissingDriverError(ConfigError):
    """The database URL names a driver that is not installed (an optional extra)."""


def normalise_url(url: str | URL) -> URL:
    """Use psycopg 3 for plain ``postgresql://`` URLs (psycopg2 is not installed)."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    # WAL + NORMAL is still durable against process crashes (SIGKILL); only an OS crash
    # could lose the last transactions.
    cursor.execute("PRAGMA synchronous=NORMAL")
    # what a row held before it was rewritten or deleted is overwritten with zeros in the
    # file, not left in a free page or cell: a stored mail masked of its passwords keeps no
    # clear copy in the database file (issue 25; the -wal file: ``Database.scrub_wal``)
    cursor.execute("PRAGMA secure_delete=ON")
    cursor.close()


class Database:
    def __init__(self, url: str | URL, echo: bool = False) -> None:
        self.url = normalise_url(url)
        kwargs: dict[str, Any] = {"echo": echo, "future": True}
        if self.is_sqlite:
            database = self.url.database
            if database and database != ":memory:":
                Path(database).parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"check_same_thread": False,
                                      "timeout": SQLITE_BUSY_SECONDS}
        try:
            self.engine: Engine = create_engine(self.url, **kwargs)
        except ModuleNotFoundError as exc:
            # psycopg is the [postgres] extra: a SQLite-only install does without it
            raise MissingDriverError(
                f"{self.url.drivername} needs the Python module {exc.name!r}; "
                "install it with: pip install 'judge[postgres]'"
            ) from exc
        if not self.is_sqlite:
            # pool_pre_ping without its round trip on every checkout: only a connection left
            # idle for a while is pinged (a server restart is found before use); under load
            # a connection lost in use is invalidated with the whole pool on its first error
            event.listen(self.engine, "checkin", _note_checkin)
            event.listen(self.engine, "checkout", _ping_if_idle(self.engine))
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
            # pysqlite's own transaction handling defers BEGIN; emit it ourselves so that
            # SELECT-then-write inside one session is serialised (BEGIN IMMEDIATE).
            event.listen(self.engine, "connect", _no_pysqlite_begin)
            event.listen(self.engine, "begin", _sqlite_begin_immediate)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        # the same pool; the begin listener sees the option and begins DEFERRED
        self._readers = sessionmaker(self.engine.execution_options(**{READ_ONLY: True}),
                                     expire_on_commit=False)
        # SQLite has one writer at a time and its busy handler waits by sleeping in growing
        # steps; queueing this process's transactions on a lock hands over at once instead.
        self._sqlite_lock = threading.RLock() if self.is_sqlite else None
        # ... and the writers of the other processes on the same file (the turn worker and
        # the serving process) queue on an flock beside it, tried in steps of at most 5 ms,
        # where SQLite's busy handler sleeps in steps of up to 100 ms (the turn worker slept
        # most of a storm on SQLite waiting so). SQLite's own lock stays what makes writing
        # safe; this only shortens the waiting.
        self._writer_file: Path | None = None
        self._writer_fd: int | None = None
        self._writer_depth = 0  # guarded by self._sqlite_lock
        self.wal_dirty = False  # a ``scrub_wal`` that a reader kept from finishing
        if self.is_sqlite and self.url.database and self.url.database != ":memory:" \
                and fcntl is not None:
            self._writer_file = Path(f"{self.url.database}.writer")

    @property
    def is_sqlite(self) -> bool:
        return self.url.get_backend_name() == "sqlite"

    @contextmanager
    def _writer_queue(self) -> Iterator[None]:
        """Hold the writers' flock of a SQLite file (this process's lock is held already)."""
        if self._writer_file is None or fcntl is None:
            yield
            return
        if self._writer_depth:  # a session inside a session of this thread: held already
            self._writer_depth += 1
            try:
                yield
            finally:
                self._writer_depth -= 1
            return
        if self._writer_fd is None:
            self._writer_fd = os.open(self._writer_file, os.O_RDWR | os.O_CREAT, 0o600)
        # polled in steps of at most 5 ms, not waited for blindly: a second Database on the
        # same file in this very thread would wait forever; after SQLite's own busy timeout
        # the transaction goes on without the queue (SQLite's lock decides, as before)
        held, waited, step = False, 0.0, 0.0005
        while not held and waited < SQLITE_BUSY_SECONDS:
            try:
                fcntl.flock(self._writer_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                held = True
            except BlockingIOError:
                time.sleep(step)
                waited += step
                step = min(step * 2, 0.005)
        self._writer_depth = 1
        try:
            yield
        finally:
            self._writer_depth = 0
            if held:
                fcntl.flock(self._writer_fd, fcntl.LOCK_UN)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One transaction: commit on success, roll back on any exception."""
        with self._sqlite_lock or contextlib.nullcontext(), self._writer_queue():
            session = self._sessions()
            try:
                yield session
                session.commit()
                later = session.info.pop(AFTER_COMMIT, [])
            except BaseException:
                session.rollback()
                raise
            finally:
                session.info.pop(AFTER_COMMIT, None)
                session.close()
        # committed and the writer lock released: work registered with
        # ``blobrepo.after_commit`` (drawing a turn's map) runs here, holding no lock; it is
        # durable already (a render job row), so a failure here only delays it to the sweep
        for work in later:
            try:
                work(self)
            except Exception:
                log.exception("work after commit failed; the next sweep does it")

    def scrub_wal(self) -> bool:
        """SQLite: checkpoint the write-ahead log into the database file and truncate it, so
        a row rewritten since (a stored mail masked of its passwords) leaves no earlier copy
        in the -wal file (issue 25). A reader that keeps the checkpoint from finishing is
        not waited for long: False, and ``wal_dirty`` says to try again. PostgreSQL: True
        (its log and old row versions are the server's files, not the judge's)."""
        if not self.is_sqlite:
            return True
        with self._sqlite_lock or contextlib.nullcontext(), self._writer_queue(), \
                self.engine.connect() as conn:
            cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
            try:
                cursor.execute("PRAGMA busy_timeout=200")
                row = cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            finally:
                cursor.execute(f"PRAGMA busy_timeout={int(SQLITE_BUSY_SECONDS * 1000)}")
                cursor.close()
        self.wal_dirty = row is None or row[0] != 0
        return not self.wal_dirty

    def open_session(self) -> Session:
        """A session the caller ends itself (commit or rollback, then close), for a claim
        held across awaits, e.g. an outbox row while it is at the relay. PostgreSQL only:
        on SQLite it would hold the one write lock that long."""
        if self.is_sqlite:
            raise RuntimeError("a long-held claim needs PostgreSQL")
        return self._sessions()

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A read-only transaction that never waits for, nor holds, the write lock.

        On SQLite (WAL) it begins DEFERRED, outside this process's writer lock: slow work
        done while reading (scrypt checks, order parsing) delays no writer. Anything it
        flushes is rolled back: reads only.
        """
        session = self._readers()
        try:
            yield session
        finally:
            session.rollback()
            session.close()

    def migrate(self, revision: str = "head") -> None:
        """Bring the schema to ``revision`` (creating a fresh database)."""
        # Alembic is loaded only to migrate: every judge process imports storage, few migrate,
        # and Alembic's command modules add to the start-up of each (``judge adjudicate``...)
        from alembic import command

        with self.engine.begin() as conn:
            cfg = alembic_config(conn)
            command.upgrade(cfg, revision)

    def downgrade(self, revision: str = "base") -> None:
        from alembic import command  # loaded only to migrate (see ``migrate``)

        with self.engine.begin() as conn:
            command.downgrade(alembic_config(conn), revision)

    def dispose(self) -> None:
        self.engine.dispose()
        if self._writer_fd is not None:
            os.close(self._writer_fd)
            self._writer_fd = None


# a pooled connection idle longer than this is pinged before use
PING_AFTER_IDLE_SECONDS = 1.0


def _note_checkin(_dbapi_conn: Any, record: Any) -> None:
    if record is not None:
        record.info["checked_in"] = time.monotonic()


def _ping_if_idle(engine: Engine) -> Any:
    def ping(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        last = record.info.get("checked_in")
        if last is None or time.monotonic() - last <= PING_AFTER_IDLE_SECONDS:
            return  # new, or in use a moment ago
        try:
            engine.dialect.do_ping(dbapi_conn)
        except Exception as exc:
            # the pool drops this connection and checks out another (a new one)
            raise DisconnectionError(f"stale pooled connection: {exc}") from exc

    return ping


def _no_pysqlite_begin(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.isolation_level = None


# execution option of the connections of ``Database.reading``
READ_ONLY = "judge_read_only"
# session.info key: callables run with the Database after the session's commit
AFTER_COMMIT = "judge_after_commit"


def _sqlite_begin_immediate(conn: Any) -> None:
    # a reader takes no write lock: in WAL mode it neither waits for nor blocks the writer
    read_only = conn.get_execution_options().get(READ_ONLY, False)
    conn.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")


def alembic_config(connection: Any = None) -> Any:
    """An Alembic Config pointing at the package's migrations, from any cwd."""
    from alembic.config import Config  # loaded only to migrate (see ``Database.migrate``)

    cfg = Config()
    # migrations/ at the top of the repository, shipped inside the package as
    # judge/storage/migrations (judge.shipped): an installed judge migrates from any directory
    cfg.set_main_option("script_location", str(shipped_dir("migrations")))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg
