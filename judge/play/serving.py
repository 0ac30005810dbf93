"""``judge serve``'s web component: the play page in front of the archive, one process."""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.archive.server import serve_app
from judge.archive.webapp import ArchiveApp
from judge.play.webplay import PlayApp

if TYPE_CHECKING:
    from judge.app import AppContext


def web_app(ctx: AppContext) -> PlayApp:
    return PlayApp(ctx.db, ctx.settings, ArchiveApp(ctx.db))


async def run(ctx: AppContext) -> None:
    """Serve the play page and the archive until ``ctx.stopping`` is set."""
    await serve_app(ctx, web_app(ctx))
