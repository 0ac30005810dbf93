"""HELP through a real Dovecot: delivered over its LMTP port, fetched by the judge's poller."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from judge.settings import Settings
from judge.storage.mailrepo import imap_watermark, list_inbound

from .conftest import start_judge
from .peers import CapturingRelay, Dovecot, deliver, free_port, make_mail

pytestmark = pytest.mark.services


def _imap_settings(settings: Settings, dovecot: Dovecot, **kw: object) -> Settings:
    values: dict = {"imap_host": "127.0.0.1", "imap_port": dovecot.imap_port,
                    "imap_user": dovecot.user, "imap_password": dovecot.password,
                    "imap_security": "none", **kw}
    return replace(settings, **values)


def _mailbox_files(dovecot: Dovecot) -> list[str]:
    root = dovecot.base / "mail" / dovecot.user
    return [p.name for sub in ("new", "cur") for p in (root / sub).glob("*")
            if (root / sub).exists()]


async def test_help_through_imap(settings: Settings, relay: CapturingRelay,
                                 dovecot: Dovecot) -> None:
    judge = await start_judge(_imap_settings(settings, dovecot))
    try:
        for n in range(3):
            raw = make_mail("HELP\n", message_id=f"<imap-{n}-{id(judge)}@example.org>")
            assert await asyncio.to_thread(dovecot.deliver, raw) == 250
        replies = await asyncio.to_thread(relay.wait_for, 3)
        assert len(replies) == 3, dovecot.log()[-2000:]
        assert all("Commands understood" in r.message.get_payload(decode=True).decode()
                   for r in replies)
        with judge.db.session() as s:
            rows = list_inbound(s)
            assert [r.source for r in rows] == ["imap"] * 3
            account = f"{dovecot.user}@127.0.0.1/INBOX"
            assert imap_watermark(s, account).last_uid >= 3
        # flagged \Deleted and expunged only after being stored
        for _ in range(100):
            if not _mailbox_files(dovecot):
                break
            await asyncio.sleep(0.1)
        assert _mailbox_files(dovecot) == []
    finally:
        await judge.stop()


async def test_imap_reconnects_with_backoff(settings: Settings, relay: CapturingRelay,
                                            dovecot: Dovecot,
                                            caplog: pytest.LogCaptureFixture) -> None:
    # nothing listens on that port: connection refused, again and again
    bad = _imap_settings(settings, dovecot, imap_port=free_port(), imap_backoff_max_seconds=0.2)
    judge = await start_judge(bad)
    try:
        for _ in range(200):
            if sum("reconnecting" in r.getMessage() for r in caplog.records) >= 3:
                break
            await asyncio.sleep(0.05)
        assert sum("reconnecting" in r.getMessage() for r in caplog.records) >= 3
        assert not judge.task.done()
        assert await asyncio.to_thread(deliver, judge.lmtp_port, make_mail("HELP\n")) == 250
        assert len(await asyncio.to_thread(relay.wait_for, 1)) == 1
    finally:
        await judge.stop()


async def test_polling_when_the_server_has_no_idle(settings: Settings, relay: CapturingRelay,
                                                   dovecot: Dovecot,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from aioimaplib import aioimaplib

    real = aioimaplib.IMAP4.has_capability
    asked: list[str] = []

    def no_idle(self: aioimaplib.IMAP4, capability: str) -> bool:
        asked.append(capability)
        return False if capability == "IDLE" else real(self, capability)

    monkeypatch.setattr(aioimaplib.IMAP4, "has_capability", no_idle)
    judge = await start_judge(_imap_settings(settings, dovecot, imap_poll_seconds=0.3))
    try:
        await asyncio.sleep(0.5)  # the poller is waiting between polls now
        raw = make_mail("HELP\n", message_id=f"<poll-{id(judge)}@example.org>")
        assert await asyncio.to_thread(dovecot.deliver, raw) == 250
        [reply] = await asyncio.to_thread(relay.wait_for, 1)
        assert reply.message["In-Reply-To"] == f"<poll-{id(judge)}@example.org>"
        assert "IDLE" in asked
    finally:
        await judge.stop()


async def test_refetched_messages_are_not_handled_twice(settings: Settings,
                                                        relay: CapturingRelay,
                                                        dovecot: Dovecot) -> None:
    from judge.storage.models import ImapState

    kept = _imap_settings(settings, dovecot, imap_after_store="seen", imap_folder="Kept")
    assert await asyncio.to_thread(_create_folder, dovecot, "Kept")
    judge = await start_judge(kept)
    try:
        raw = make_mail("HELP\n", message_id=f"<kept-{id(judge)}@example.org>")
        assert await asyncio.to_thread(_append, dovecot, "Kept", raw)
        assert len(await asyncio.to_thread(relay.wait_for, 1)) == 1
    finally:
        await judge.stop()
    # forget the watermark, as after a UIDVALIDITY change: everything is fetched again
    with judge.db.session() as s:
        s.query(ImapState).delete()
    judge = await start_judge(kept)
    try:
        for _ in range(40):
            with judge.db.session() as s:
                state = imap_watermark(s, f"{dovecot.user}@127.0.0.1/Kept")
                if state.last_uid:
                    break
            await asyncio.sleep(0.05)
        assert state.last_uid >= 1
        await asyncio.sleep(0.3)
        with judge.db.session() as s:
            assert len(list_inbound(s)) == 1
        assert len(relay.messages) == 1
    finally:
        await judge.stop()


def _create_folder(dovecot: Dovecot, folder: str) -> bool:
    import imaplib

    with imaplib.IMAP4("127.0.0.1", dovecot.imap_port) as client:
        client.login(dovecot.user, dovecot.password)
        status, _ = client.create(folder)
        return status == "OK" or folder in str(client.list()[1])


def _append(dovecot: Dovecot, folder: str, raw: bytes) -> bool:
    import imaplib

    with imaplib.IMAP4("127.0.0.1", dovecot.imap_port) as client:
        client.login(dovecot.user, dovecot.password)
        status, _ = client.append(folder, None, None, raw)
        return status == "OK"
