"""End-to-end fixtures: the judge served with a controllable clock, mail in over LMTP, mail out
to the capturing relay; turn processing is driven by the test through that clock."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from judge.app import AppContext, serve
from judge.settings import Settings
from judge.storage import Database
from tests.e2e.table import Clock, Table
from tests.mail.conftest import database_url, dovecot, relay, settings  # noqa: F401
from tests.mail.peers import CapturingRelay

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
async def table(settings: Settings, relay: CapturingRelay,  # noqa: F811 (fixtures)
                ) -> AsyncIterator[Table]:
    clock = Clock(START)
    ctx = AppContext(settings=settings, db=Database(settings.database_url), now=clock)
    task = asyncio.create_task(serve(settings, components=[], ctx=ctx, handle_signals=False))
    started = asyncio.ensure_future(ctx.started.wait())
    await asyncio.wait({started, task}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        task.result()
    assert ctx.started.is_set(), "judge did not start"
    yield Table(ctx, relay, clock)
    ctx.stop()
    await asyncio.wait_for(task, timeout=30)
    task.result()
