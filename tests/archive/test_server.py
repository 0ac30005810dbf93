"""The archive component inside ``judge serve``'s loop: binds JUDGE_WEB_PORT, stops on request."""

from __future__ import annotations

import asyncio
import json
import socket
import urllib.request
from pathlib import Path

import pytest

from judge.app import AppContext
from judge.archive.server import run
from judge.settings import Settings
from judge.storage import Database
from tests.archive.played import play


def fetch(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 (local test server)
        return response.status, response.read()


async def test_archive_component_serves_and_stops(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'web.db'}", web_port=0)
    db = Database(settings.database_url)
    db.migrate()
    play(db, name="served", years=1, seed=5)
    ctx = AppContext(settings=settings, db=db)
    task = asyncio.create_task(run(ctx))
    for _ in range(600):
        if "web" in ctx.ports or task.done():
            break
        await asyncio.sleep(0.05)
    assert "web" in ctx.ports, "the archive did not start"
    base = f"http://127.0.0.1:{ctx.ports['web']}"
    status, body = await asyncio.to_thread(fetch, base + "/index.json")
    assert status == 200
    assert [g["name"] for g in json.loads(body)["games"]] == ["served"]
    status, body = await asyncio.to_thread(fetch, base + "/games/served/S1901M")
    assert status == 200 and b"<svg" in body
    ctx.stop()
    await asyncio.wait_for(task, timeout=30)
    db.dispose()


async def test_a_busy_port_is_an_error_not_an_exit(tmp_path: Path) -> None:
    busy = socket.create_server(("127.0.0.1", 0))
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'web.db'}",
                        web_port=busy.getsockname()[1])
    ctx = AppContext(settings=settings, db=Database(settings.database_url))
    with pytest.raises(OSError):
        await run(ctx)
    assert "web" not in ctx.ports
    busy.close()
