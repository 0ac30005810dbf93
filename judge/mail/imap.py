"""IMAP poller (aioimaplib): fetch by UID above a stored watermark, store, then flag.

The watermark (UIDVALIDITY + last UID) advances in the same transaction that stores the mail;
the message is flagged, deleted or moved on the server only after that commit. A crash in
between leaves a stored mail still on the server: fetched again, it is a duplicate (same
Message-ID and body hash) and is not stored twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Callable
from datetime import UTC, datetime

from aioimaplib import aioimaplib

from judge.runner import Runner
from judge.settings import Settings
from judge.storage import Database, Session
from judge.storage.claimrepo import MailboxLock
from judge.storage.mailrepo import imap_watermark, set_imap_watermark, store_received

from .listener import message_id_of

log = logging.getLogger(__name__)

UIDVALIDITY = re.compile(rb"UIDVALIDITY (\d+)")
FETCH_UID = re.compile(rb"UID (\d+)")


class ImapError(Exception):
    pass


def _check(response: aioimaplib.Response, what: str) -> aioimaplib.Response:
    if response.result != "OK":
        raise ImapError(f"{what}: {response.result} {response.lines!r}")
    return response


class ImapPoller(Runner):
    name = "IMAP poller"
    retry_word = "reconnecting"

    def __init__(
        self,
        db: Database,
        settings: Settings,
        on_stored: Callable[[], None] = lambda: None,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        stopping: asyncio.Event | None = None,
    ) -> None:
        super().__init__(stopping or asyncio.Event(), poll_seconds=settings.imap_poll_seconds,
                         backoff_first=min(1.0, settings.imap_backoff_max_seconds),
                         backoff_max=settings.imap_backoff_max_seconds)
        self.client: aioimaplib.IMAP4 | None = None
        self.db = db
        self.settings = settings
        self.on_stored = on_stored
        self.now = now
        self.account = f"{settings.imap_user}@{settings.imap_host}/{settings.imap_folder}"
        # several judge nodes on one database: one of them polls the mailbox at a time
        self.mailbox_lock = MailboxLock(db, self.account)

    async def _connect(self) -> aioimaplib.IMAP4:
        s = self.settings
        if s.imap_security == "ssl":
            client: aioimaplib.IMAP4 = aioimaplib.IMAP4_SSL(host=s.imap_host, port=s.imap_port)
        else:
            client = aioimaplib.IMAP4(host=s.imap_host, port=s.imap_port)
        await client.wait_hello_from_server()
        if s.imap_security == "starttls":
            _check(await client.starttls(), "STARTTLS")
        _check(await client.login(s.imap_user, s.imap_password), "LOGIN")
        return client

    async def poll_once(self, client: aioimaplib.IMAP4) -> int:
        """Select the folder and store every message above the watermark; returns the count."""
        selected = _check(await client.select(self.settings.imap_folder), "SELECT")
        uidvalidity = 0
        for line in selected.lines:
            match = UIDVALIDITY.search(bytes(line)) if isinstance(line, bytes | bytearray) else None
            if match:
                uidvalidity = int(match.group(1))
        last_uid = await asyncio.to_thread(self._watermark, uidvalidity)
        found = _check(await client.uid_search(f"UID {last_uid + 1}:*"), "SEARCH")
        uids: list[int] = []
        for line in found.lines[:-1]:  # the last line is the server's "completed" text
            if isinstance(line, bytes | bytearray):
                uids.extend(int(tok) for tok in bytes(line).split() if tok.isdigit())
        # "N:*" always matches the newest message, even below N
        uids = sorted(uid for uid in set(uids) if uid > last_uid)
        stored = 0
        for uid in uids:
            raw = await self._fetch(client, uid)
            if raw is None:
                continue
            await asyncio.to_thread(self._store, raw, uidvalidity, uid)
            stored += 1
            self.on_stored()
            await self._after_store(client, uid)
        if stored and self.settings.imap_after_store == "delete":
            await client.expunge()
        return stored

    def _watermark(self, uidvalidity: int) -> int:
        with self.db.session() as session:
            state = imap_watermark(session, self.account)
            if state.uidvalidity != uidvalidity:
                # the server renumbered the folder: start over; dedup absorbs re-fetches
                log.warning("IMAP UIDVALIDITY changed %s -> %s", state.uidvalidity, uidvalidity)
                state.uidvalidity, state.last_uid = uidvalidity, 0
            return state.last_uid

    def _store(self, raw: bytes, uidvalidity: int, uid: int) -> None:
        def advance(session: Session) -> None:
            set_imap_watermark(session, self.account, uidvalidity, uid)

        store_received(self.db, after=advance, raw=raw, message_id=message_id_of(raw),
                       envelope_from="", envelope_to=[self.settings.imap_user], source="imap",
                       now=self.now(), max_bytes=self.settings.max_message_bytes)

    async def _fetch(self, client: aioimaplib.IMAP4, uid: int) -> bytes | None:
        response = _check(await client.uid("fetch", str(uid), "(BODY.PEEK[])"), "FETCH")
        for line in response.lines:
            if isinstance(line, bytearray):
                return bytes(line)
        log.warning("IMAP UID %d: no message body in the FETCH answer", uid)
        return None

    async def _after_store(self, client: aioimaplib.IMAP4, uid: int) -> None:
        action = self.settings.imap_after_store
        if action.startswith("move:"):
            folder = action.partition(":")[2]
            if client.has_capability("MOVE"):
                _check(await client.uid("move", str(uid), folder), "MOVE")
                return
            _check(await client.uid("copy", str(uid), folder), "COPY")
            action = "delete"
        flags = r"(\Seen \Deleted)" if action == "delete" else r"(\Seen)"
        _check(await client.uid("store", str(uid), "+FLAGS", flags), "STORE")

    async def _wait_for_news(self, client: aioimaplib.IMAP4, stopping: asyncio.Event) -> None:
        s = self.settings
        if not client.has_capability("IDLE"):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), timeout=s.imap_poll_seconds)
            return
        idle = await client.idle_start(timeout=s.imap_idle_seconds)
        push = asyncio.ensure_future(client.wait_server_push(timeout=s.imap_idle_seconds))
        stopper = asyncio.ensure_future(stopping.wait())
        try:
            await asyncio.wait({push, stopper}, timeout=s.imap_poll_seconds,
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (push, stopper):
                task.cancel()
            client.idle_done()
            await asyncio.wait_for(idle, timeout=30)

    async def one_round(self) -> float | None:
        """Connect if needed, store what is new, then wait for news (IDLE or the poll
        interval): that wait is this runner's snooze, so the next round starts at once.
        Another node polling this mailbox: wait a poll interval and ask again."""
        if not await asyncio.to_thread(self.mailbox_lock.hold):
            if self.client is not None:
                client, self.client = self.client, None
                await _close(client, polite=True)
            return None
        if self.client is None:
            self.client = await self._connect()
        await self.poll_once(self.client)
        await self._wait_for_news(self.client, self.stopping)
        return 0

    async def on_error(self, exc: Exception) -> None:
        # reconnect on the next round; the stored mail is committed already
        if self.client is not None:
            client, self.client = self.client, None
            await _close(client, polite=True)

    async def finish(self) -> None:
        if self.client is not None:
            client, self.client = self.client, None
            await _close(client, polite=not self.stopping.is_set())
        await asyncio.to_thread(self.mailbox_lock.release)

    async def run(self, stopping: asyncio.Event | None = None) -> None:
        """Poll until ``stopping``; cancelling it is safe (a stored mail is a duplicate later)."""
        if stopping is not None:
            self.stopping = stopping
        await super().run()


async def _close(client: aioimaplib.IMAP4, polite: bool) -> None:
    """LOGOUT when reconnecting; when stopping, just drop the connection (it may be in IDLE)."""
    if polite:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.logout(), timeout=2)
            return
    transport = getattr(getattr(client, "protocol", None), "transport", None)
    if transport is not None:
        transport.close()
