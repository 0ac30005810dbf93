"""Several judge nodes on one PostgreSQL database, one IMAP mailbox: one node polls at a time.

Two judges run in this event loop with the same database and the same Dovecot mailbox. Exactly
one of them holds the mailbox's advisory lock at every moment sampled; every mail is stored and
answered once; when the holding node stops (its lock connection ends), the other one takes the
mailbox over and fetches what arrives next.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from sqlalchemy import text

from judge.settings import Settings
from judge.storage.claimrepo import MailboxLock
from judge.storage.mailrepo import list_inbound

from .conftest import RunningJudge, start_judge
from .peers import CapturingRelay, Dovecot, free_port, make_mail
from .test_imap import _append, _create_folder

pytestmark = pytest.mark.services

FOLDER = "Nodes"


def _node(settings: Settings, dovecot: Dovecot) -> Settings:
    return replace(settings, imap_host="127.0.0.1", imap_port=dovecot.imap_port,
                   imap_user=dovecot.user, imap_password=dovecot.password,
                   imap_security="none", imap_folder=FOLDER, imap_after_store="seen",
                   imap_poll_seconds=0.3, smtp_listen_port=free_port())


def _holders(judge: RunningJudge, key: int) -> list[int]:
    """The backends holding the mailbox's advisory lock: pg_locks shows a bigint key as its
    high and low 32 bits (classid, objid; objsubid 1)."""
    unsigned = key & 0xFFFF_FFFF_FFFF_FFFF
    with judge.db.engine.connect() as conn:
        rows = conn.execute(text(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND objsubid = 1 AND classid::bigint = :high AND objid::bigint = :low"
        ), {"high": unsigned >> 32, "low": unsigned & 0xFFFF_FFFF}).all()
    return [r.pid for r in rows]


def _lock_key(settings: Settings) -> int:
    account = f"{settings.imap_user}@{settings.imap_host}/{settings.imap_folder}"
    return MailboxLock(None, account).key


async def _replies_and_holders(relay: CapturingRelay, judge: RunningJudge, key: int,
                               count: int) -> list[list[int]]:
    """Sample the lock holders until ``count`` replies reached the relay (or 30 s)."""
    seen: list[list[int]] = []
    for _ in range(300):
        seen.append(await asyncio.to_thread(_holders, judge, key))
        if len(relay.messages) >= count:
            break
        await asyncio.sleep(0.1)
    return seen


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_one_node_polls_a_mailbox_and_another_takes_over(
        settings: Settings, relay: CapturingRelay, dovecot: Dovecot) -> None:
    assert await asyncio.to_thread(_create_folder, dovecot, FOLDER)
    first = await start_judge(_node(settings, dovecot))
    second_settings = _node(settings, dovecot)
    second: RunningJudge | None = None
    key = _lock_key(second_settings)
    try:
        for _ in range(100):  # the first node takes the mailbox
            if await asyncio.to_thread(_holders, first, key):
                break
            await asyncio.sleep(0.05)
        second = await start_judge(second_settings)
        for n in range(5):
            raw = make_mail("HELP\n", message_id=f"<node-a-{n}-{id(first)}@example.org>")
            assert await asyncio.to_thread(_append, dovecot, FOLDER, raw)
        seen = await _replies_and_holders(relay, first, key, 5)
        assert len(relay.messages) == 5
        assert all(len(h) == 1 for h in seen), seen  # one holder at every moment
        holder = seen[-1][0]

        await first.stop()  # the holding node goes away: its lock connection ends
        for n in range(3):
            raw = make_mail("HELP\n", message_id=f"<node-b-{n}-{id(first)}@example.org>")
            assert await asyncio.to_thread(_append, dovecot, FOLDER, raw)
        seen = await _replies_and_holders(relay, second, key, 8)
        assert len(relay.messages) == 8
        assert all(len(h) <= 1 for h in seen), seen
        assert seen[-1] and seen[-1][0] != holder  # the second node holds it now
        await asyncio.sleep(0.5)  # nothing more arrives: no mail was answered twice
        assert len(relay.messages) == 8
        with second.db.session() as s:
            rows = list_inbound(s)
        assert len(rows) == 8
        assert {r.source for r in rows} == {"imap"}
        assert len({r.message_id for r in rows}) == 8
    finally:
        if not first.task.done():
            await first.stop()
        if second is not None:
            await second.stop()
