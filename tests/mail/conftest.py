"""Mail fixtures: capturing relay, Dovecot, and a judge served in the test's event loop."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from judge.app import AppContext, serve
from judge.settings import Settings
from judge.storage import Database
from tests.conftest import need_service
from tests.dbfixtures import PostgresState, migrated_url

from .peers import CapturingRelay, Dovecot, free_port


@pytest.fixture
def relay() -> Iterator[CapturingRelay]:
    server = CapturingRelay().start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def dovecot() -> Iterator[Dovecot]:
    missing = Dovecot.available()
    if missing:
        need_service(missing)
    # world-readable temp folder: Dovecot's unprivileged processes must reach it
    with tempfile.TemporaryDirectory(prefix="judge-dovecot-") as tmp:
        server = Dovecot(Path(tmp)).start()
        try:
            yield server
        finally:
            server.stop()


@pytest.fixture(params=["sqlite"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path,
                 pg_state: PostgresState | None) -> str:
    """A migrated, empty database: SQLite by default; tests that parametrise indirectly with
    "postgresql" get PostgreSQL. (The judge migrates at start: a no-op on these.)"""
    return migrated_url(request, str(request.param), tmp_path, sqlite_template, pg_state)


@pytest.fixture
def settings(database_url: str, relay: CapturingRelay) -> Settings:
    return Settings(
        database_url=database_url,
        address="judge@example.org",
        lmtp_port=0,
        smtp_listen_port=free_port(),
        smtp_host="127.0.0.1",
        smtp_port=relay.port,
        retry_base_seconds=0.2,
        retry_max_seconds=1.0,
        max_send_tries=4,
        drain_poll_seconds=0.5,
        imap_poll_seconds=1.0,
    )


class RunningJudge:
    def __init__(self, ctx: AppContext, task: asyncio.Task[None]) -> None:
        self.ctx = ctx
        self.task = task

    @property
    def lmtp_port(self) -> int:
        return self.ctx.ports["lmtp"]

    @property
    def smtp_port(self) -> int:
        return self.ctx.ports["smtp"]

    @property
    def db(self) -> Database:
        return self.ctx.db

    async def stop(self) -> None:
        self.ctx.stop()
        await asyncio.wait_for(self.task, timeout=30)


async def start_judge(settings: Settings) -> RunningJudge:
    ctx = AppContext(settings=settings, db=Database(settings.database_url))
    task = asyncio.create_task(serve(settings, components=[], ctx=ctx, handle_signals=False))
    started = asyncio.ensure_future(ctx.started.wait())
    await asyncio.wait({started, task}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        task.result()  # startup failed: raise its error here
    assert ctx.started.is_set(), "judge did not start"
    return RunningJudge(ctx, task)


@pytest.fixture
async def judge(settings: Settings) -> AsyncIterator[RunningJudge]:
    running = await start_judge(settings)
    yield running
    if not running.task.done():
        await running.stop()
    running.task.result()


def with_settings(settings: Settings, **changes: object) -> Settings:
    return replace(settings, **changes)
