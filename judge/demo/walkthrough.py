"""The demo itself: a throw-away judge, a GM and seven players writing to it by mail.

Everything goes through the real paths: mail is delivered to the judge's LMTP listener, the
judge answers through its outbox and SMTP sender to a local capturing relay, phases are
processed by the deadline machinery, and the result is browsable in the web archive. Only the
game clock is the demo's own: it jumps forward so that two game years take a minute.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import signal
import smtplib
import socket
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.jsonio import position_from_json
from judge.adjudicator.orders import SupportHold
from judge.adjudicator.possible import random_orders
from judge.app import AppContext, serve
from judge.demo.relay import CaptureRelay
from judge.play.serving import run as run_archive
from judge.rules.due import needs_orders
from judge.service import wakeups
from judge.service.confirm import token_in_subject
from judge.settings import Settings
from judge.storage import Database
from judge.storage.archive_queries import turn_archive
from judge.storage.gamerepo import game_by_name
from judge.storage.mailrepo import list_inbound, list_outbound

# the demo plays the standard game: its powers come from that variant, not a global list
STANDARD = installed_variant("standard")

GAME = "demo"
GM = "gm@demo.example"
GM_PASSWORD = "gm-demo"
Say = Callable[[str], None]

# the players' display names (SET NAME), shown in the archive: one per power of the map, in
# the order of its powers
DEMO_NAMES = ("Anna", "Edward", "Francoise", "Gerd", "Ilaria", "Roman", "Tarik")


def player(power: str) -> str:
    return f"{power.lower()}@demo.example"


def password(power: str) -> str:
    return f"pw-{power.lower()}"


class Clock:
    """The judge's ``now``: real time at the start, then moved by the demo."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC).replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now


@dataclass
class DemoResult:
    url: str
    phases: list[str]
    mails_in: int
    mails_out: int


class DemoError(RuntimeError):
    """The demo could not go on; the message says which part of the judge failed."""


class Demo:
    def __init__(self, ctx: AppContext, relay: CaptureRelay, clock: Clock, say: Say,
                 seed: int) -> None:
        self.ctx, self.relay, self.clock, self.say = ctx, relay, clock, say
        self.rng = random.Random(seed)
        self.mails_in = 0

    # ------------------------------------------------------------------ mail in

    async def send(self, sender: str, body: str, subject: str = "orders") -> None:
        """One mail in; when the judge answers it with a confirmation (a new address), the
        demo player answers that too, as a person would."""
        before = len(self.relay.messages)
        await self._deliver(sender, body, subject)
        for captured in self.relay.messages[before:]:
            msg = message_from_bytes(captured.raw)
            token = token_in_subject(str(msg.get("Subject", "")))
            if token and sender in captured.recipients:
                await self._deliver(sender, f"CONFIRM {token}\n", f"Re: confirm {token}")

    async def _deliver(self, sender: str, body: str, subject: str) -> None:
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = self.ctx.settings.address
        msg["Subject"] = subject
        msg["Message-ID"] = make_msgid(domain="demo.example")
        msg["Date"] = self.clock.now.strftime("%a, %d %b %Y %H:%M:%S +0000")
        msg.set_content(body)
        port = self.ctx.ports["lmtp"]
        await asyncio.to_thread(_lmtp_deliver, port, sender, self.ctx.settings.address,
                                msg.as_bytes())
        self.mails_in += 1
        await self.settle()

    async def settle(self, timeout: float = 60.0) -> None:
        """Wait until the judge has handled every stored mail and sent every reply."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end:
            busy, failed = await asyncio.to_thread(self._busy)
            if failed:
                raise DemoError(f"the judge failed to handle a mail: {failed}")
            if not busy:
                return
            self.ctx.wake_inbox()
            self.ctx.wake_outbox()
            await asyncio.sleep(0.05)
        raise DemoError("the judge did not finish its mail within a minute")

    def _busy(self) -> tuple[bool, str]:
        with self.ctx.db.session() as s:
            waiting = list_inbound(s, "new") + list_inbound(s, "processing")
            failed = [m.error or "?" for m in list_inbound(s, "failed")]
            sending = list_outbound(s, "pending") + list_outbound(s, "sending")
            # a send that failed waits for its retry time: the demo clock is not moved for it
            stuck = [m for m in sending if m.tries > 0]
        if stuck:
            raise DemoError(f"the judge could not send to the relay: {stuck[0].last_error}")
        return bool(waiting or sending), "; ".join(failed)

    # ------------------------------------------------------------------ the game

    def game_state(self) -> tuple[str, str, dict[str, Any]]:
        with self.ctx.db.session() as s:
            game = game_by_name(s, GAME)
            if game is None:
                raise DemoError("CREATE did not create the game (see the judge's reply)")
            return game.status, game.phase, dict(game.position or {})

    async def form(self) -> None:
        self.say(f"GM {GM} creates game '{GAME}' by mail")
        await self.send(GM, f"CREATE {GAME} {GM_PASSWORD}\nASSIGNMENT preferences\n")
        for power in STANDARD.powers:
            await self.send(player(power), f"JOIN {GAME} {password(power)} {power}\n")
        self.say(f"seven players joined: {', '.join(player(p) for p in STANDARD.powers)}")
        await self.send(GM, f"SIGNON GM {GAME} {GM_PASSWORD}\nSTART\n")
        status, phase, _ = self.game_state()
        if status != "active":
            raise DemoError(f"the game did not start (status {status}); see the GM's replies")
        self.say(f"game started: {phase}")
        # the name the archive shows beside each power (SET NAME)
        for power, shown in zip(STANDARD.powers, DEMO_NAMES, strict=True):
            await self.send(player(power), f"SIGNON {power} {GAME} {password(power)}\n"
                                           f"SET NAME {shown}\n")
        self.say("players set the names the archive shows (SET NAME)")

    async def play_phase(self) -> str:
        _, phase, position_json = self.game_state()
        position = position_from_json(position_json)
        sent = 0
        for power in STANDARD.powers:
            if not needs_orders(position, power):
                continue
            orders = random_orders(position, power, self.rng)
            # seed 002 (the default rules): a support says the supported unit holds
            lines = [f"{o} H" if isinstance(o, SupportHold) else str(o) for o in orders]
            lines = lines or ["WAIVE"]
            body = "\n".join([f"SIGNON {power} {GAME} {password(power)}", *lines]) + "\n"
            await self.send(player(power), body)
            sent += 1
        # every order is in: the next wake-up processes the phase early
        for step in (timedelta(minutes=10), timedelta(days=4)):
            self.clock.now += step
            await asyncio.to_thread(wakeups.wake, self.ctx.db, self.ctx.settings, self.clock.now)
            self.ctx.wake_outbox()
            await self.settle()
            if self.game_state()[1] != phase:
                break
        else:
            raise DemoError(f"{phase} was not processed (turn processing missing or failing)")
        self.report(phase, sent)
        return phase

    def report(self, phase: str, order_mails: int) -> None:
        data = turn_archive(self.ctx.db, GAME, phase)
        if data is None:
            raise DemoError(f"{phase} was processed but has no turn snapshot")
        turn = data["turn"]
        results = [r for rs in turn["outcomes"].values() for r in rs]
        ok = sum(1 for r in results if r.get("result") == "succeeds")
        centres = turn["position_after"].get("centers", {})
        counts = " ".join(f"{p[:3].title()} {len(centres.get(p, []))}" for p in STANDARD.powers)
        self.say(
            f"{phase}: {order_mails} order mails in, {len(results)} orders, {ok} succeeded; "
            f"mails out so far {len(self.relay.messages)}; centres: {counts}"
        )


def _lmtp_deliver(port: int, sender: str, rcpt: str, raw: bytes) -> None:
    client = smtplib.LMTP("127.0.0.1", port)
    try:
        client.sendmail(sender, [rcpt], raw)
    finally:
        client.quit()


def _port_free(port: int) -> bool:
    try:
        socket.create_server(("127.0.0.1", port)).close()
    except OSError:
        return False
    return True


def demo_settings(folder: Path, web_port: int) -> Settings:
    return Settings(
        database_url=f"sqlite:///{folder / 'demo.db'}",
        address="judge@demo.example",
        lmtp_host="127.0.0.1",
        lmtp_port=0,
        smtp_listen_port=0,
        smtp_host="127.0.0.1",
        smtp_port=0,  # set to the relay's port once it is listening
        smtp_security="none",
        web_port=web_port,
        web_host="127.0.0.1",
        drain_poll_seconds=0.2,
    )


async def run_demo(say: Say, years: int = 2, web_port: int = 8080, keep_serving: bool = True,
                   seed: int = 1901, folder: Path | None = None) -> DemoResult:
    """Play ``years`` game years; then serve the archive until Ctrl-C unless not ``keep_serving``."""
    owned = tempfile.TemporaryDirectory(prefix="judge-demo-") if folder is None else None
    where = Path(owned.name) if owned else Path(folder)  # type: ignore[arg-type]
    relay = await CaptureRelay().start()
    if web_port and not _port_free(web_port):
        say(f"port {web_port} is busy; the archive takes a free port instead")
        web_port = 0
    base = demo_settings(where, web_port)
    settings = dataclasses.replace(base, smtp_port=relay.port)
    clock = Clock()
    ctx = AppContext(settings=settings, db=Database(settings.database_url), now=clock)
    say(f"database {settings.database_url}; outgoing mail captured by a relay on port {relay.port}")
    server = asyncio.create_task(serve(settings, components=[run_archive], ctx=ctx,
                                       handle_signals=False))
    try:
        await _started(ctx, server)
        url = f"http://127.0.0.1:{ctx.ports['web']}/games/{GAME}"
        say(f"judge listening: LMTP on port {ctx.ports['lmtp']}, archive on port {ctx.ports['web']}")
        demo = Demo(ctx, relay, clock, say, seed)
        await demo.form()
        phases: list[str] = []
        while True:
            _, phase, _ = demo.game_state()
            if int(phase[1:5]) >= 1901 + years:
                break
            phases.append(await demo.play_phase())
        say(f"played {len(phases)} phases with {demo.mails_in} mails in and "
            f"{len(relay.messages)} mails out")
        say(f"play a solo game against the computer: {url.rstrip('/')}/play")
        say(f"archive: {url}")
        result = DemoResult(url, phases, demo.mails_in, len(relay.messages))
        if keep_serving:
            say("serving the archive; press Ctrl-C to stop")
            await _until_interrupted(ctx)
        return result
    finally:
        ctx.stop()
        await asyncio.wait({server}, timeout=30)
        await relay.stop()
        if owned is not None:
            owned.cleanup()


async def _started(ctx: AppContext, server: asyncio.Task[int]) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while not (ctx.started.is_set() and "web" in ctx.ports):
        if server.done():
            server.result()
            raise DemoError("the judge stopped while starting")
        if loop.time() > end:
            raise DemoError("the judge did not start within a minute")
        await asyncio.sleep(0.05)


async def _until_interrupted(ctx: AppContext) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, ctx.stop)
    try:
        await ctx.stopping.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
