"""The judge served whole for the API's tests: mail in over LMTP, mail out to the capturing
relay, and the web process (play page, API, archive) on a port of its own, all on the
end-to-end table's controllable clock."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator

import pytest

from judge.app import AppContext, serve
from judge.play.serving import run as web
from judge.settings import Settings
from judge.storage import Database
from tests.e2e.conftest import START
from tests.e2e.table import Clock, Table
from tests.mail.conftest import database_url, dovecot, relay, settings  # noqa: F401
from tests.mail.peers import CapturingRelay


class WebTable(Table):
    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.ctx.ports['web']}"


@pytest.fixture
def allow_private() -> bool:
    """Webhooks to 127.0.0.1 (the tests' receivers): JUDGE_WEBHOOK_ALLOW_PRIVATE=1; a test
    parametrises it False to see the refusal."""
    return True


@pytest.fixture
async def table(settings: Settings, relay: CapturingRelay,  # noqa: F811 (fixtures)
                allow_private: bool) -> AsyncIterator[WebTable]:
    clock = Clock(START)
    settings = dataclasses.replace(settings, web_port=0, web_host="127.0.0.1",
                                   webhook_allow_private=allow_private, webhook_tries=2)
    ctx = AppContext(settings=settings, db=Database(settings.database_url), now=clock)
    task = asyncio.create_task(serve(settings, components=[web], ctx=ctx,
                                     handle_signals=False))
    started = asyncio.ensure_future(ctx.started.wait())
    await asyncio.wait({started, task}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        task.result()
    assert ctx.started.is_set(), "judge did not start"
    for _ in range(600):
        if "web" in ctx.ports:
            break
        await asyncio.sleep(0.05)
    assert "web" in ctx.ports, "the web process did not start"
    yield WebTable(ctx, relay, clock)
    ctx.stop()
    await asyncio.wait_for(task, timeout=30)
    task.result()
