"""Repository behaviour on both backends."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.exc import IntegrityError

from judge.service.uow import outbound_row
from judge.settings import Settings
from judge.storage import Database, gamerepo, mailrepo
from judge.storage.models import Game, Seat, Turn

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _raw(mid: str, body: str = "HELP\r\n") -> bytes:
    return f"From: a@example.org\r\nMessage-ID: {mid}\r\n\r\n{body}".encode()


def _store(db: Database, raw: bytes, mid: str) -> bool:
    with db.session() as s:
        return mailrepo.store_inbound(s, raw=raw, message_id=mid, envelope_from="a@example.org",
                                      envelope_to=["judge@x"], source="lmtp", now=NOW,
                                      max_bytes=1000) is not None


def test_inbound_dedup_on_message_id_and_body(db: Database) -> None:
    assert _store(db, _raw("<1@x>"), "<1@x>")
    assert not _store(db, _raw("<1@x>"), "<1@x>")
    # same Message-ID, different body: a different mail
    assert _store(db, _raw("<1@x>", "LIST\r\n"), "<1@x>")
    # no Message-ID: the whole raw mail tells them apart
    assert _store(db, b"From: a@x\r\nDate: 1\r\n\r\nHELP\r\n", "")
    assert _store(db, b"From: a@x\r\nDate: 2\r\n\r\nHELP\r\n", "")
    with db.session() as s:
        rows = mailrepo.list_inbound(s)
    assert len(rows) == 4
    assert [r.status for r in rows] == ["new"] * 4
    assert rows[0].received_at == NOW


def test_oversized_inbound_is_cut_and_flagged(db: Database) -> None:
    raw = _raw("<big@x>", "x" * 5000)
    assert _store(db, raw, "<big@x>")
    with db.session() as s:
        row = mailrepo.next_new_inbound(s)
        assert row is not None
        assert row.oversized and row.size == len(raw) and len(row.raw) == 1000


def test_failed_mail_is_requeued(db: Database) -> None:
    _store(db, _raw("<a@x>"), "<a@x>")
    _store(db, _raw("<b@x>"), "<b@x>")
    with db.session() as s:
        first, second = mailrepo.list_inbound(s)
        mailrepo.mark_inbound(s, first.id, "failed", NOW, error="boom")
        mailrepo.mark_inbound(s, second.id, "done", NOW)
    with db.session() as s:
        assert mailrepo.requeue_failed(s) == [first.id]
    with db.session() as s:
        assert mailrepo.next_new_inbound(s).id == first.id
        assert mailrepo.list_inbound(s, "failed") == []


def test_outbound_due_and_backoff(db: Database) -> None:
    settings = Settings()
    with db.session() as s:
        row = outbound_row(settings, NOW, to="p@example.org", subject="s", body="b",
                           kind="reply", in_reply_to="<1@x>")
        mailrepo.enqueue_outbound(s, row)
        later = outbound_row(settings, NOW + timedelta(hours=1), to="q@example.org",
                             subject="s", body="b")
        mailrepo.enqueue_outbound(s, later)
    with db.session() as s:
        due = mailrepo.due_outbound(s, NOW)
        assert [r.to_addr for r in due] == ["p@example.org"]
        assert due[0].message_id.endswith("@localhost>")
        assert due[0].headers["Auto-Submitted"] == "auto-replied"
        mailrepo.mark_outbound(s, due[0].id, status="sent", sent_at=NOW)
        assert mailrepo.next_due_time(s) == NOW + timedelta(hours=1)
        assert mailrepo.count_recent_to(s, "p@example.org", NOW - timedelta(days=1)) == 1
    assert mailrepo.retry_backoff(1, 60, 3600) == timedelta(seconds=60)
    assert mailrepo.retry_backoff(4, 60, 3600) == timedelta(seconds=480)
    assert mailrepo.retry_backoff(20, 60, 3600) == timedelta(seconds=3600)


def test_imap_watermark(db: Database) -> None:
    with db.session() as s:
        assert mailrepo.imap_watermark(s, "u@h/INBOX").last_uid == 0
        mailrepo.set_imap_watermark(s, "u@h/INBOX", 7, 42)
    with db.session() as s:
        state = mailrepo.imap_watermark(s, "u@h/INBOX")
        assert (state.uidvalidity, state.last_uid) == (7, 42)


def test_game_world_round_trip(db: Database) -> None:
    with db.session() as s:
        gm = gamerepo.account_for(s, "GM@example.org", NOW)
        game = Game(name="alpha", created=NOW, gm_account_id=gm.id, language="it")
        s.add(game)
        s.flush()
        s.add(Seat(game_id=game.id, power="FRANCE", preferences=["FRANCE", "ITALY"]))
        gamerepo.submit_orders(s, game.id, "S1901M", "FRANCE", ["A PAR H"], NOW)
        gamerepo.submit_orders(s, game.id, "S1901M", "FRANCE", ["A PAR - BUR"], NOW)
        gamerepo.audit(s, NOW, "start", game_id=game.id, actor_account_id=gm.id, by="gm")
    with db.session() as s:
        assert gamerepo.account_for(s, "gm@EXAMPLE.org", NOW).id == gm.id
        game = gamerepo.game_by_name(s, "ALPHA")
        assert game is not None and game.options["late_bonus_days"] == 10
        assert game.options["late_max_per_turn"] == 3
        current = gamerepo.current_orders(s, game.id, "S1901M", "FRANCE")
        assert current is not None
        assert (current.version, current.orders) == (2, ["A PAR - BUR"])
        assert [seat.preferences for seat in gamerepo.seats(s, game.id)] == [["FRANCE", "ITALY"]]
        s.add(Turn(game_id=game.id, phase="S1901M", created=NOW))
    with pytest.raises(IntegrityError), db.session() as s:
        # a turn snapshot is written once per phase
        s.add(Turn(game_id=gamerepo.game_by_name(s, "alpha").id, phase="S1901M", created=NOW))
        s.flush()


def test_naive_datetimes_are_refused(db: Database) -> None:
    with pytest.raises(Exception, match="naive"), db.session() as s:
        gamerepo.account_for(s, "x@example.org", datetime(2026, 1, 1))
