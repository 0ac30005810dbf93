"""``judge serve``'s web component: the play page in front of the JSON API and the archive,
one process."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from judge.api.hooks import HookRunner
from judge.api.mount import ApiMount
from judge.api.webapi import create_api
from judge.archive.server import serve_app
from judge.archive.webapp import ArchiveApp
from judge.play.webplay import PlayApp

if TYPE_CHECKING:
    from judge.app import AppContext


def web_app(ctx: AppContext) -> PlayApp:
    api = ApiMount(create_api(ctx.db, ctx.settings, clock=ctx.now), ArchiveApp(ctx.db))
    return PlayApp(ctx.db, ctx.settings, api)


async def run(ctx: AppContext) -> None:
    """Serve the play page, the API and the archive, and post the games' webhook events,
    until ``ctx.stopping`` is set."""
    hooks = HookRunner(ctx.db, ctx.settings, ctx.stopping, ctx.now,
                       poll_seconds=ctx.settings.drain_poll_seconds)
    posting = asyncio.create_task(hooks.run(), name="webhooks")
    try:
        await serve_app(ctx, web_app(ctx))
    except BaseException:
        posting.cancel()  # the web side failed (a busy port): stop posting too
        with contextlib.suppress(asyncio.CancelledError):
            await posting
        raise
    await posting  # it ends once ``ctx.stopping`` is set, as serve_app did
