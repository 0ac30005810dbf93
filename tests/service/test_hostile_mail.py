"""The hostile-mail corpus (issue 10, points 1-5 and 10): raw mail stored and handled by the
inbox drain with the real decoder, on SQLite and PostgreSQL. Each case says what an attacker
tried and what the judge must (not) do."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest

from judge.service import auth, inbox, order_sets
from judge.service import caller as caller_module
from judge.storage import Database, gamerepo
from tests.service.commands_harness import GM, PLAYERS, Harness, password_of
from tests.service.hostile import JUDGE, Judge, raw_mail

STRANGER = "stranger@evil.example"
VICTIM = "victim@innocent.example"


def _game_names(db: Database) -> list[str]:
    with db.session() as session:
        from judge.storage import playrepo
        return [g.name for g in playrepo.games_with_status(
            session, ("forming", "active", "paused", "finished"))]


# ------------------------------------------------------------------ 1. no amplifier


def test_a_strangers_mail_causes_one_mail_and_one_confirmation_at_most(db: Database) -> None:
    j = Judge.on(db, max_command_lines=600)
    body = "CREATE evil pw\n" + "".join(f"SET ADDRESS victim{i}@innocent.example\n"
                                        for i in range(1500))
    sent = j.send(STRANGER, body)
    # held whole: one confirmation to the sender, nothing applied, nobody else written to
    assert [m.to for m in sent] == [STRANGER]
    assert sent[0].subject.startswith("confirm ") and "CONFIRM " in sent[0].body
    assert "pw" not in sent[0].body.split()
    assert _game_names(db) == []
    assert [r.status for r in j.inbound()] == ["held"]
    # the sender answers: the held mail is handled as sent; one address gets one confirmation
    after = j.confirm(sent, STRANGER)
    victims = [m.to for m in after if m.to.endswith("@innocent.example")]
    assert victims == ["victim0@innocent.example"]
    assert _game_names(db) == ["evil"]
    reply = next(m for m in after if m.to == STRANGER and "Signed" not in m.subject
                 and "one address change per mail" in m.body)
    assert reply.body.count("one address change per mail") == 599 - 1
    assert "lines of your mail were read" in reply.body and "901 line" in reply.body
    assert {r.status for r in j.inbound()} == {"done"}


def test_a_forged_observe_gets_the_victim_one_confirmation_a_day_at_most(db: Database) -> None:
    h = Harness(db)
    h.mail(GM, "CREATE alpha gmpass")
    j = Judge.on(db, confirmations_per_address_per_day=2)
    first = j.send(VICTIM, "OBSERVE alpha")
    second = j.send(VICTIM, "OBSERVE alpha")
    third = j.send(VICTIM, "OBSERVE alpha")
    assert [m.to for m in first] == [VICTIM] and [m.to for m in second] == [VICTIM]
    assert third == []  # past the cap: no mail at all, logged and dropped
    assert h.game("alpha").options.get("observers", []) == []
    statuses = [r.status for r in j.inbound()]
    assert statuses == ["held", "held", "done"]
    # unanswered confirmations expire; the mails they held are dropped with a reason
    inbox.housekeeping(db, j.settings, j.now + timedelta(days=8))
    rows = j.inbound()
    assert [r.status for r in rows] == ["done", "done", "done"]
    assert all("not confirmed" in (r.note or "") and r.raw == b"" for r in rows[:2])
    # an expired token confirms nothing
    late = j.confirm(first, VICTIM)
    assert "unknown, already used or expired" in late[0].body
    assert h.game("alpha").options.get("observers", []) == []


def test_a_confirmed_observer_is_subscribed_when_it_answers(db: Database) -> None:
    h = Harness(db)
    h.mail(GM, "CREATE alpha gmpass")
    j = Judge.on(db)
    sent = j.send("fan@example.net", "OBSERVE alpha")
    after = j.confirm(sent, "fan@example.net")
    assert any("Address confirmed" in m.body for m in after)
    assert any("observe game alpha" in m.body for m in after)
    assert h.game("alpha").options["observers"] == ["fan@example.net"]
    # confirmed once is confirmed: the next OBSERVE is applied at once, one reply
    h.mail(GM, "CREATE beta gmpass")
    again = j.send("fan@example.net", "OBSERVE beta")
    assert [m.to for m in again] == ["fan@example.net"] and "observe game beta" in again[0].body


def test_per_sender_cap_on_confirmations(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    france = players["FRANCE"]
    j = Judge.on(db, confirmations_per_sender_per_day=2)
    got = []
    for i in range(4):
        sent = j.send(france, f"SIGNON FRANCE alpha {password_of(france)}\n"
                              f"SET ADDRESS new{i}@elsewhere.example")
        got.extend(m.to for m in sent if m.to != france)
    assert got == ["new0@elsewhere.example", "new1@elsewhere.example"]


# ------------------------------------------------------------------ 2. bounded work


def test_a_thousand_wrong_passwords_cost_one_check(db: Database,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    h = Harness(db)
    h.started_game("alpha")
    checks: list[str] = []
    real = caller_module.verify_password

    def counting(password: str, stored: str) -> bool:
        checks.append(password)
        return real(password, stored)

    # every check, prepared before the write transaction or made in it, is the caller's
    monkeypatch.setattr(caller_module, "verify_password", counting)
    j = Judge.on(db)
    body = "".join(f"SIGNON FRANCE alpha wrong{i}\n" for i in range(1000))
    sent = j.send(STRANGER, body)
    assert len(checks) == 1
    reply = sent[0].body
    assert reply.count("Wrong password") == 1
    assert "only one password per power is tried" in reply
    assert "the 500 lines after them were not" in reply
    assert "wrong1" not in reply and "wrong0" not in reply


def test_no_scrypt_and_no_order_reading_inside_the_write_transaction(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The slow part of a mail (password checks and hashes, reading its orders) is done in a
    read-only transaction before the drain's write transaction: on SQLite the write lock is
    process-wide, so work done under it would delay every other mail's reply."""
    h = Harness(db)
    players = h.started_game("alpha")
    france = players["FRANCE"]
    writing = []  # one flag per open write transaction
    opened = db.session

    @contextmanager
    def write_transaction() -> Iterator[object]:
        writing.append(True)
        try:
            with opened() as session:
                yield session
        finally:
            writing.pop()

    monkeypatch.setattr(db, "session", write_transaction)
    done: list[tuple[str, bool]] = []  # (what must hold, whether it did)
    real_scrypt = hashlib.scrypt

    class Hashlib:
        @staticmethod
        def scrypt(*args: object, **kw: object) -> bytes:
            done.append(("scrypt outside the write transaction", not writing))
            if db.is_sqlite:
                done.append(("sqlite write lock free", _sqlite_writable(db)))
            return real_scrypt(*args, **kw)  # type: ignore[arg-type]

    real_parse = order_sets.parse_orders  # the order-set use cases read orders there

    def parse(*args: object, **kw: object) -> object:
        done.append(("orders read outside the write transaction", not writing))
        return real_parse(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(auth, "hashlib", Hashlib)
    monkeypatch.setattr(order_sets, "parse_orders", parse)
    j = Judge.on(db)
    body = (f"SIGNON ITALY alpha wrong\nSIGNON FRANCE alpha {password_of(france)}\n"
            "A PAR - BUR\nSTATUS\nA MAR - SPA\nF BRE - MAO\nSET PASSWORD brand-new\n")
    reply = next(m.body for m in j.send(france, body) if m.to == france)
    assert "Wrong password" in reply and "Signed on as France" in reply
    assert "A MAR - SPA" in reply and "password for game alpha is changed" in reply
    # (what was checked, whether it held) at each scrypt and each reading of orders
    assert {what for what, _ in done} >= {"scrypt outside the write transaction",
                                          "orders read outside the write transaction"}
    assert [what for what, held in done if not held] == []
    with db.reading() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        stored = gamerepo.current_orders(s, game.id, game.phase, "FRANCE")
        assert stored is not None and stored.orders == ["A PAR - BUR", "A MAR - SPA",
                                                         "F BRE - MAO"]


def _sqlite_writable(db: Database) -> bool:
    """Whether another connection could begin writing at once (nobody holds the lock)."""
    other = sqlite3.connect(str(db.url.database), timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        other.close()


def test_repeated_wrong_passwords_lock_the_seat_and_tell_the_gm_once(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    france = players["FRANCE"]
    j = Judge.on(db, signon_failures_before_lock=3)
    to_gm = []
    for i in range(5):
        sent = j.send(STRANGER, f"SIGNON FRANCE alpha guess{i}")
        to_gm.extend(m for m in sent if m.to == GM)
    assert len(to_gm) == 1 and "locked" in to_gm[0].body and "3 wrong passwords" in to_gm[0].body
    # locked: even the right password from a stranger is not checked, only held
    sent = j.send(STRANGER, f"SIGNON FRANCE alpha {password_of(france)}")
    assert "locked" in sent[0].body and "Signed on" not in sent[0].body
    # the registered player is never locked out by someone else's guesses: his mail is held
    # too, and handled once he answers the confirmation mailed to his address
    sent = j.send(france, f"SIGNON FRANCE alpha {password_of(france)}\nA PAR - BUR")
    assert "kept" in sent[0].body and "Signed on" not in sent[0].body
    done = j.confirm(j.outbound_after(0), france)
    assert any(m.to == france and "Signed on as France" in m.body for m in done)


def test_order_and_status_pairs_cost_a_bounded_amount(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    france = players["FRANCE"]
    j = Judge.on(db, max_command_lines=3001)
    body = f"SIGNON FRANCE alpha {password_of(france)}\n" + "A PAR - BUR\nSTATUS\n" * 1500
    sent = j.send(france, body)
    reply = next(m for m in sent if m.to == france).body
    assert reply.count("Orders for S1901M on file") <= 4
    assert reply.count("already asked for its orders three times") == 1500 - 3
    with db.session() as session:
        game = gamerepo.game_by_name(session, "alpha")
        assert game is not None
        row = gamerepo.current_orders(session, game.id, "S1901M", "FRANCE")
        assert row is not None and row.version <= 4


def test_the_command_line_cap_is_a_setting(db: Database) -> None:
    j = Judge.on(db, max_command_lines=2)
    sent = j.send(STRANGER, "HELP\nLIST\nLIST\nLIST\n")
    assert "Only the first 2 lines" in sent[0].body and "the 2 lines after" in sent[0].body


# ------------------------------------------------------------------ 3. blind games


def test_a_cc_with_a_wrong_password_says_nothing_about_the_copied_address(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha", options="BLIND")
    england = players["ENGLAND"]
    j = Judge.on(db)
    raw = raw_mail(STRANGER, "SIGNON FRANCE alpha wrong\nA PAR - BUR",
                   headers=f"Cc: {england}\r\n")
    sent = j.receive(raw, STRANGER)
    assert [m.to for m in sent] == [STRANGER]
    assert "Wrong password" in sent[0].body
    assert "cop" not in sent[0].body.lower().split("-- ")[0]
    assert "England" not in sent[0].body


# ------------------------------------------------------------------ 4. headers


@pytest.mark.parametrize("subject", [
    "=?utf-8?q?hi=0D=0ABcc:_x@evil.example=0D=0A=0D=0Aattacker_text?=",
    "=?utf-8?b?aGkNCkJjYzogeEBldmlsLmV4YW1wbGU=?=",
    "hi\x00there",
])
def test_no_control_character_reaches_a_reply_header(db: Database, subject: str) -> None:
    j = Judge.on(db)
    sent = j.send(STRANGER, "HELP", subject=subject)
    assert len(sent) == 1
    assert not any(ch in sent[0].subject for ch in "\r\n\x00")
    assert all(not any(ch in str(v) for ch in "\r\n\x00") for v in sent[0].headers.values())


def test_a_reply_goes_to_the_from_addr_spec_never_a_display_name(db: Database) -> None:
    j = Judge.on(db)
    # the encoded display name decodes to "Evil <admin@judge.example>"
    sent = j.receive(raw_mail("real@sender.example", "HELP",
                              from_header="=?utf-8?b?IkV2aWwgPGFkbWluQGp1ZGdlLmV4YW1wbGU+Ig==?= "
                                          "<real@sender.example>"))
    assert [m.to for m in sent] == ["real@sender.example"]
    # a Reply-To is not where answers go: it would aim the judge at anyone
    sent = j.receive(raw_mail("real@sender.example", "LIST",
                              headers=f"Reply-To: {VICTIM}\r\n"))
    assert [m.to for m in sent] == ["real@sender.example"]
    # a From with two addresses is not trusted: the envelope sender is answered
    sent = j.receive(raw_mail("", "LIST", from_header=f"a@one.example, {VICTIM}"),
                     envelope_from="env@sender.example")
    assert [m.to for m in sent] == ["env@sender.example"]


def test_set_address_takes_exactly_one_address(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    france = players["FRANCE"]
    j = Judge.on(db)
    for value in ("a@x.example, b@y.example", "a@x.example b@y.example",
                  "Evil <a@x.example>", "a@@x.example", "\"a b\"@x.example"):
        sent = j.send(france, f"SIGNON FRANCE alpha {password_of(france)}\nSET ADDRESS {value}")
        assert [m.to for m in sent] == [france], value
        assert "not a mail address" in sent[0].body or "Not applied" in sent[0].body
        assert "confirmation was sent" not in sent[0].body


# ------------------------------------------------------------------ 5. passwords at rest


def test_no_password_in_clear_in_raw_mail_replies_or_outbox(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    france = players["FRANCE"]
    secret = password_of(france)
    j = Judge.on(db)
    j.send(france, f"SIGNON FRANCE alpha {secret}\nA PAR - BUR")
    j.send(france, f"SIGNON FRANCE alpha {secret} extra\nJOIN alpha s3cr3t-join Narnia")
    j.send(france, f"SIGNON FRANCE alpha {secret}\nSET PASSWORD n3w-p4ss")
    j.send(france, "SIGNON FRANCE alpha n3w-p4ss\nSTATUS")
    for row in j.inbound():
        assert secret.encode() not in row.raw and b"n3w-p4ss" not in row.raw
        assert b"s3cr3t-join" not in row.raw
    for mail in j.outbox():
        for word in (secret, "n3w-p4ss", "s3cr3t-join"):
            assert word not in mail.body.split() and word not in mail.subject


def test_a_base64_body_with_a_password_keeps_only_its_headers(db: Database) -> None:
    import base64

    h = Harness(db)
    players = h.started_game("alpha")
    france = players["FRANCE"]
    text = f"SIGNON FRANCE alpha {password_of(france)}\r\nA PAR - BUR\r\n".encode()
    raw = (f"From: {france}\r\nTo: {JUDGE}\r\nSubject: b64\r\nMessage-ID: <b64@x>\r\n"
           "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
           ).encode() + base64.encodebytes(text)
    j = Judge.on(db)
    sent = j.receive(raw, france)
    assert "version 1" in sent[0].body
    stored = j.inbound()[-1].raw
    assert base64.encodebytes(text).strip() not in stored and b"body removed" in stored


def test_raw_mail_is_emptied_after_the_retention_time(db: Database) -> None:
    j = Judge.on(db, raw_mail_retention_days=3)
    j.send(STRANGER, "HELP")
    assert j.inbound()[0].raw
    inbox.housekeeping(db, j.settings, j.now + timedelta(days=2))
    assert j.inbound()[0].raw
    inbox.housekeeping(db, j.settings, j.now + timedelta(days=4))
    assert j.inbound()[0].raw == b""


# ------------------------------------------------------------------ 10. automatic mail


@pytest.mark.parametrize("header", [
    "Auto-Submitted: auto-replied", "X-Autoreply: yes", "X-Autorespond: vacation",
    "List-Id: <club.lists.example>", "List-Unsubscribe: <mailto:leave@lists.example>",
    "Precedence: list", "Precedence: bulk", "Precedence: junk", "Precedence: auto_reply",
    "X-Auto-Response-Suppress: All",
])
def test_automatic_mail_is_never_answered(db: Database, header: str) -> None:
    j = Judge.on(db)
    sent = j.send(STRANGER, "HELP", headers=f"{header}\r\n")
    assert sent == []
    assert j.inbound()[0].status == "done" and "no reply" in (j.inbound()[0].note or "")


def test_past_the_daily_cap_orders_are_stored_and_the_notice_sent_once(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    france = players["FRANCE"]
    j = Judge.on(db, replies_per_address_per_day=2)
    j.confirmed(*PLAYERS)
    sent = []
    for order in ("A PAR - BUR", "A PAR - PIC", "A PAR - GAS", "A PAR H", "A PAR - BUR"):
        sent.extend(j.send(france, f"SIGNON FRANCE alpha {password_of(france)}\n{order}"))
    # the harness's own replies count too: France had none today before these
    notices = [m for m in sent if m.kind == "cap_notice"]
    replies = [m for m in sent if m.kind == "reply"]
    assert len(notices) == 1 and "once" in notices[0].body
    assert len(replies) <= 2
    with db.session() as session:
        game = gamerepo.game_by_name(session, "alpha")
        assert game is not None
        row = gamerepo.current_orders(session, game.id, "S1901M", "FRANCE")
        assert row is not None and row.orders == ["A PAR - BUR"] and row.version == 5
