"""``judge serve``'s web component: the play page in front of the JSON API and the archive,
one process."""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.api.app import create_api
from judge.api.mount import ApiMount
from judge.archive.server import serve_app
from judge.archive.webapp import ArchiveApp
from judge.play.webplay import PlayApp

if TYPE_CHECKING:
    from judge.app import AppContext


def web_app(ctx: AppContext) -> PlayApp:
    api = ApiMount(create_api(ctx.db, ctx.settings, clock=ctx.now), ArchiveApp(ctx.db))
    return PlayApp(ctx.db, ctx.settings, api)


async def run(ctx: AppContext) -> None:
    """Serve the play page, the API and the archive until ``ctx.stopping`` is set."""
    await serve_app(ctx, web_app(ctx))
