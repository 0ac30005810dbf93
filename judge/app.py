"""``judge serve``: every long-running part of the judge in one asyncio loop.

Start: migrate the database to head, open the LMTP/SMTP listeners, start the IMAP poller (if
configured), the inbox drain, the outbox sender and the extra components. Extra components are
``async def run(app: AppContext) -> None`` callables; by default ``judge.scheduler.run`` and
``judge.play.serving.run`` (the play page in front of the archive) are used when those modules exist. A component should return when
``app.stopping`` is set (it is cancelled after a grace period otherwise), and call
``app.wake_outbox()`` after committing outbox rows so they leave at once.

Stop (SIGTERM/SIGINT): listeners stop accepting and finish storing the mail in hand, the drain
finishes the mail it is handling, the sender the message it is sending; stored mail waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import signal
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from judge.mail.decoding import decode
from judge.mail.imap import ImapPoller
from judge.mail.listener import ConnectionGate, Listener, StoringHandler, start_listener
from judge.mail.outbox import OutboxRunner
from judge.service.inbox import DrainRunner
from judge.service.mailtrouble import dead_letter_hook
from judge.settings import Settings
from judge.storage import Database

log = logging.getLogger(__name__)

DEFAULT_COMPONENTS = ("judge.scheduler:run", "judge.play.serving:run")


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass
class AppContext:
    settings: Settings
    db: Database
    now: Callable[[], datetime] = utcnow
    stopping: asyncio.Event = field(default_factory=asyncio.Event)
    inbox_wake: asyncio.Event = field(default_factory=asyncio.Event)
    outbox_wake: asyncio.Event = field(default_factory=asyncio.Event)
    ports: dict[str, int] = field(default_factory=dict)  # bound ports, e.g. {"lmtp": 8024}
    started: asyncio.Event = field(default_factory=asyncio.Event)
    # callables told after the drain handled mail: a game may be due now (the scheduler's)
    deadline_pokes: list[Callable[[], None]] = field(default_factory=list)

    def wake_inbox(self) -> None:
        self.inbox_wake.set()

    def wake_outbox(self) -> None:
        self.outbox_wake.set()

    def wake_deadlines(self) -> None:
        for poke in self.deadline_pokes:
            poke()

    def mail_handled(self) -> None:
        """Replies wait in the outbox; orders may have completed a game."""
        self.wake_outbox()
        self.wake_deadlines()

    def stop(self) -> None:
        self.stopping.set()


Component = Callable[[AppContext], Coroutine[Any, Any, None]]


def discover_components(names: Sequence[str] = DEFAULT_COMPONENTS) -> list[Component]:
    found: list[Component] = []
    for spec in names:
        module_name, _, attr = spec.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and module_name.startswith(exc.name):
                continue  # that part of the judge is not installed
            raise
        run = getattr(module, attr, None)
        if callable(run):
            found.append(run)
    return found


async def serve(
    settings: Settings,
    components: Sequence[Component] | None = None,
    ctx: AppContext | None = None,
    handle_signals: bool = True,
    grace_seconds: float = 15.0,
) -> int:
    """Run until SIGTERM/SIGINT (or ``ctx.stop()``). ``components=None`` discovers them.

    Returns the process exit status: 0 after a requested stop, 1 when a part of the pipeline
    died and took the judge down with it."""
    db = ctx.db if ctx else Database(settings.database_url)
    ctx = ctx or AppContext(settings=settings, db=db)
    await asyncio.to_thread(db.migrate)
    loop = asyncio.get_running_loop()
    if handle_signals:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, ctx.stop)
    drain = DrainRunner(db, settings, decode, ctx.stopping, ctx.inbox_wake,
                        on_handled=ctx.mail_handled, now=ctx.now)
    # the reply templates (a few hundred ms of compiling) before the first mail can arrive
    await drain.warm()
    listeners: list[Listener] = []
    # one set of caps for LMTP and SMTP together
    gate = ConnectionGate(settings.max_mail_connections, settings.max_mail_connections_per_client)
    for name, host, port, lmtp in (
        ("lmtp", settings.lmtp_host, settings.lmtp_port, True),
        ("smtp", settings.lmtp_host, settings.smtp_listen_port, False),
    ):
        if port == 0 and name == "smtp":
            continue
        handler = StoringHandler(db, settings, name, on_stored=ctx.wake_inbox, now=ctx.now)
        listener = await start_listener(handler, host, port, lmtp, settings, gate)
        listeners.append(listener)
        ctx.ports[name] = listener.port
    outbox = OutboxRunner(db, settings, ctx.stopping, ctx.outbox_wake, now=ctx.now,
                          on_dead=dead_letter_hook(settings, ctx.now))
    core: list[asyncio.Task[None]] = [
        asyncio.create_task(drain.run(), name="inbox-drain"),
        asyncio.create_task(outbox.run(), name="outbox-sender"),
    ]
    imap_task: asyncio.Task[None] | None = None
    if settings.imap_host:
        poller = ImapPoller(db, settings, on_stored=ctx.wake_inbox, now=ctx.now,
                            stopping=ctx.stopping)
        imap_task = asyncio.create_task(poller.run(), name="imap-poller")
        core.append(imap_task)
    extra = discover_components() if components is None else list(components)
    extras = [asyncio.create_task(c(ctx), name=getattr(c, "__module__", "component"))
              for c in extra]
    ctx.started.set()
    log.info("judge serving as %s (%s)", settings.address, ", ".join(
        f"{k}:{v}" for k, v in ctx.ports.items()))
    stopper = asyncio.ensure_future(ctx.stopping.wait())
    await asyncio.wait([stopper, *core], return_when=asyncio.FIRST_COMPLETED)
    stopper.cancel()
    status = 0
    for task in core:
        if task.done() and not ctx.stopping.is_set():
            status = 1
            # a pipeline part died: stop everything so the supervisor restarts a whole judge
            log.error("task %s ended unexpectedly (%r); stopping", task.get_name(),
                      None if task.cancelled() else task.exception())
            ctx.stop()
    log.info("stopping: finishing the mail in hand")
    if imap_task is not None:
        # it may sit in a slow LOGIN or IDLE; whatever it stored is committed already
        imap_task.cancel()
    for listener in listeners:
        await listener.stop(grace_seconds)
    await _finish(core + extras, grace_seconds)
    if handle_signals:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
    db.dispose()
    log.info("stopped")
    return status


async def _finish(tasks: list[asyncio.Task[None]], grace: float) -> None:
    if not tasks:
        return
    done, pending = await asyncio.wait(tasks, timeout=grace)
    for task in pending:
        log.warning("task %s did not stop in %.0fs; cancelling", task.get_name(), grace)
        task.cancel()
    for task in pending:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            log.error("task %s ended with %r", task.get_name(), task.exception())
