"""Safe on a public address, round two (issue 25): what a determined attacker tried against a
running judge, over real LMTP (and the judge's real outbox and SMTP relay), on SQLite and
PostgreSQL. Each test says what was seen and what must hold now.

The games are set up with the commands harness on the judge's own database (the judge runs
meanwhile); what the attacker sends then goes through LMTP, the inbox drain and the outbox.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import select, update

from judge.mail.loopguard import loop_reason
from judge.service.auth import verify_password
from judge.service.confirm import token_in_subject
from judge.settings import Settings
from judge.storage import guardrepo
from judge.storage.mailrepo import list_inbound, list_outbound
from judge.storage.models import Confirmation, InboundMail, OutboundMail, Seat
from tests.service.commands_harness import GM, PLAYERS, Harness, password_of

from .conftest import RunningJudge, start_judge
from .peers import CapturingRelay, deliver, make_mail

BOTH = pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
ATTACKER = "attacker@evil.example"
JUDGE = "judge@example.org"


async def _send(judge: RunningJudge, sender: str, body: str, subject: str = "orders",
                envelope: str = ATTACKER, headers: str = "", to: str = JUDGE) -> None:
    """One mail over LMTP; ``sender`` is its From (forged or not), ``envelope`` the MAIL FROM."""
    raw = make_mail(body, sender=sender, subject=subject, extra_headers=headers, to=to)
    assert await asyncio.to_thread(deliver, judge.lmtp_port, raw, envelope) == 250


async def _settled(judge: RunningJudge, count: int, timeout: float = 90.0) -> list[InboundMail]:
    """Wait until ``count`` mails are stored and none is new or being handled."""
    for _ in range(int(timeout / 0.05)):
        with judge.db.session() as s:
            rows = list_inbound(s)
        statuses = {r.status for r in rows}
        if len(rows) >= count and not {"new", "processing"} & statuses:
            return sorted(rows, key=lambda r: r.id)
        await asyncio.sleep(0.05)
    raise AssertionError("mail not handled in time")


def _outbox(judge: RunningJudge, after: int = 0) -> list[OutboundMail]:
    with judge.db.session() as s:
        return sorted((r for r in list_outbound(s, limit=100_000) if r.id > after),
                      key=lambda r: r.id)


def _last_out(judge: RunningJudge) -> int:
    return max((r.id for r in _outbox(judge)), default=0)


async def _club(judge: RunningJudge, options: str = "") -> tuple[Harness, dict[str, str]]:
    """A started seven-player game ``alpha`` on the judge's database; what setting it up
    queued is marked sent (it counts towards the caps, it is not what the tests look at)."""
    h = Harness(judge.db, settings=replace(Harness(judge.db).settings, address=JUDGE))
    players = await asyncio.to_thread(h.started_game, "alpha", options)
    with judge.db.session() as s:
        s.execute(update(OutboundMail).values(status="sent"))
    return h, players


def _settings(settings: Settings, **changes: object) -> Settings:
    return replace(settings, **changes)


@pytest.fixture
async def strict(settings: Settings) -> RunningJudge:  # type: ignore[misc]
    """A judge with small limits, so that the tests reach them with a few mails."""
    running = await start_judge(_settings(
        settings, signon_failures_before_lock=3, anonymous_replies_per_address_per_day=5,
        replies_per_address_per_day=50, press_per_seat_per_day=30))
    yield running
    if not running.task.done():
        await running.stop()
    running.task.result()


# ------------------------------------------------------------------ 1. guessing, forged From


@BOTH
async def test_guesses_under_the_seats_own_forged_address_lock_it_and_only_its_player_unlocks(
        strict: RunningJudge, relay: CapturingRelay) -> None:
    judge = strict
    _, players = await _club(judge)
    france = players["FRANCE"]
    before = _last_out(judge)
    # seen: wrong passwords under a forged From of the seat's own address did not count
    for guess in range(5):
        await _send(judge, france, f"SIGNON FRANCE alpha guess{guess}")
    await _send(judge, france, f"SIGNON FRANCE alpha {password_of(france)}\nA PAR - BUR")
    rows = await _settled(judge, 6)
    with judge.db.session() as s:
        game_id = s.scalar(select(Confirmation.game_id).where(Confirmation.action == "signon"))
        lock = guardrepo.signon_lock(s, game_id, "FRANCE")
        assert lock is not None and lock.failures == 3 and lock.locked_until is not None
    # past the lock nothing is checked: the last three mails are held, the right one too
    assert [r.status for r in rows[-6:]] == ["done"] * 3 + ["held"] * 3
    out = _outbox(judge, before)
    assert not any("Signed on" in m.body for m in out)
    # ONE confirmation, to the seat's registered address; the GM and the player told once
    confirmations = [m for m in out if m.kind == "confirmation"]
    assert [m.to_addr for m in confirmations] == [france]
    locked = [m for m in out if "wrong passwords were given for France" in m.body]
    assert sorted(m.to_addr for m in locked) == sorted([GM, france])
    # every answer went to the forged From, the seat's own mailbox: the guesser got nothing
    assert {m.to_addr for m in out} <= {france, GM}
    # the real player answers: the mails held for his seat are handled, his own signs on
    token = token_in_subject(confirmations[0].subject)
    mark = _last_out(judge)
    await _send(judge, france, f"CONFIRM {token}\n", subject=f"Re: confirm {token}",
                envelope=france)
    await _settled(judge, 7)
    for _ in range(200):  # the released mails are handled after the answer
        rows = await _settled(judge, 7)
        if "held" not in {r.status for r in rows}:
            break
        await asyncio.sleep(0.05)
    after = _outbox(judge, mark)
    signed = [m for m in after if m.to_addr == france and "Signed on as France" in m.body]
    assert len(signed) == 1 and "A PAR - BUR" in signed[0].body
    # his right password, in a mail his own mailbox released, clears the lock: a guesser
    # who cannot read that mailbox gets three more tries at most
    with judge.db.session() as s:
        lock = guardrepo.signon_lock(s, game_id, "FRANCE")
        assert lock is not None and lock.failures == 0 and lock.locked_until is None


# ------------------------------------------------------------------ 2. the reply cap


@BOTH
async def test_forged_mail_cannot_use_up_a_signed_players_answers(
        strict: RunningJudge, relay: CapturingRelay) -> None:
    judge = strict
    _, players = await _club(judge)
    france = players["FRANCE"]
    before = _last_out(judge)
    # seen: 60 HELP mails forged in a player's name used up his answers of the day
    for _ in range(12):
        await _send(judge, france, "HELP")
    await _send(judge, france, f"SIGNON FRANCE alpha {password_of(france)}\nA PAR - BUR",
                envelope=france)
    await _settled(judge, 13)
    out = [m for m in _outbox(judge, before) if m.to_addr == france]
    kinds = Counter(m.kind for m in out)
    # the strangers' budget (5, the answer to his JOIN included) and ONE notice; the
    # signed-on mail answered all the same
    anonymous = [m for m in _outbox(judge) if m.to_addr == france and m.kind == "reply_anon"]
    assert len(anonymous) == 5 and kinds["cap_notice"] == 1
    assert kinds["reply"] == 1
    assert "Signed on as France" in next(m.body for m in out if m.kind == "reply")
    # the notice cannot be made to spam: more forged mail, no second notice today
    for _ in range(3):
        await _send(judge, france, "HELP")
    await _settled(judge, 16)
    out = [m for m in _outbox(judge, before) if m.to_addr == france]
    assert Counter(m.kind for m in out)["cap_notice"] == 1


# ------------------------------------------------------------------ 3. robots confirm nothing


VICTIM = "victim@innocent.example"


@BOTH
async def test_an_out_of_office_reply_confirms_nothing_and_conferma_does(
        judge: RunningJudge, relay: CapturingRelay) -> None:
    await _club(judge)
    # the attacker forges OBSERVE in the victim's name: held, the victim asked to confirm
    await _send(judge, VICTIM, "OBSERVE alpha")
    await _settled(judge, 1)
    [asked] = [m for m in _outbox(judge) if m.to_addr == VICTIM]
    token = token_in_subject(asked.subject)
    assert token and "CONFIRM " + token in asked.body
    quoted = "\n".join(f"> {line}" for line in asked.body.splitlines())
    # seen: an out-of-office reply without RFC 3834 markers, quoting the mail, confirmed it
    await _send(judge, VICTIM, f"I am away until Monday.\n\n{asked.body}",
                subject=f"Out of office: Re: confirm {token}", envelope=VICTIM)
    await _send(judge, VICTIM, f"Risposta automatica.\n{quoted}",
                subject=f"Risposta automatica: {asked.subject}", envelope=VICTIM)
    # a reply that keeps the subject and quotes the token confirms nothing either
    await _send(judge, VICTIM, f"Thanks!\n\n{quoted}", subject=f"Re: confirm {token}",
                envelope=VICTIM)
    # nor does the token quoted Outlook-style, below the original message's separator
    await _send(judge, VICTIM, f"ok\n________________________________\n{asked.body}",
                subject=f"RE: confirm {token}", envelope=VICTIM)
    rows = await _settled(judge, 5)
    assert rows[0].status == "held"
    with judge.db.session() as s:
        assert s.scalar(select(Confirmation.status)) == "pending"
    # the person answers, in Italian: confirmed, and told so in Italian (issue 28)
    mark = _last_out(judge)
    await _send(judge, VICTIM, f"CONFERMA {token}\n", subject=f"Re: confirm {token}",
                envelope=VICTIM)
    await _settled(judge, 6)
    with judge.db.session() as s:
        assert s.scalar(select(Confirmation.status)) == "confirmed"
    said = [m.body for m in _outbox(judge, mark) if m.to_addr == VICTIM]
    assert any("Indirizzo confermato" in body for body in said), said


@BOTH
async def test_confirmer_is_understood_and_answered_in_french(
        judge: RunningJudge, relay: CapturingRelay) -> None:
    await _send(judge, VICTIM, "CREER partie motdepasse", envelope=VICTIM)
    await _settled(judge, 1)
    [asked] = [m for m in _outbox(judge) if m.to_addr == VICTIM]
    token = token_in_subject(asked.subject)
    assert f"CONFIRMER {token}" in asked.body  # the word of the mail's language
    mark = _last_out(judge)
    await _send(judge, VICTIM, f"confirmer {token}", subject="oui", envelope=VICTIM)
    await _settled(judge, 2)
    said = [m.body for m in _outbox(judge, mark) if m.to_addr == VICTIM]
    assert any("Adresse confirmée" in body for body in said), said
    assert not any("Not understood" in body for body in said)


@BOTH
async def test_an_auto_responder_gets_three_answers_a_day(judge: RunningJudge,
                                                         relay: CapturingRelay) -> None:
    robot = "always-answers@example.net"
    # seen: 31 answers in 30 rounds with an auto-responder, "Re: Re: Re: ..." growing
    subject = "hello"
    for _ in range(30):
        await _send(judge, robot, "Thank you for your mail, I will read it soon.",
                    subject=subject, envelope=robot)
        subject = f"Re: {subject}"
    await _settled(judge, 30)
    answers = [m for m in _outbox(judge) if m.to_addr == robot]
    assert len(answers) == 3


# ------------------------------------------------------------------ 4. press


@BOTH
async def test_forty_broadcast_blocks_make_one_mail_per_reader(
        strict: RunningJudge, relay: CapturingRelay) -> None:
    judge = strict
    _, players = await _club(judge)
    france = players["FRANCE"]
    before = _last_out(judge)
    blocks = "".join(f"BROADCAST\nnews number {n}\nENDPRESS\n" for n in range(40))
    await _send(judge, france, f"SIGNON FRANCE alpha {password_of(france)}\n{blocks}",
                envelope=france)
    await _settled(judge, 1)
    out = _outbox(judge, before)
    press = [m for m in out if m.kind == "press"]
    readers = Counter(m.to_addr for m in press)
    # seen: 321 mails, up to 40 to one reader; now one each: six players and the GM
    assert set(readers.values()) == {1} and len(readers) == 7
    assert france not in readers
    one = next(m.body for m in press if m.to_addr == players["ITALY"])
    assert "news number 0" in one and "news number 29" in one and "news number 30" not in one
    # the daily budget (30) was reached: the reply says what was not sent
    [reply] = [m for m in out if m.to_addr == france]
    assert reply.body.count("at most 30 press messages in 24 hours") == 10


# ------------------------------------------------------------------ 6. addresses


@BOTH
async def test_a_strangers_list_and_summary_show_no_address(judge: RunningJudge,
                                                             relay: CapturingRelay) -> None:
    _, players = await _club(judge)
    await _send(judge, "nosy@evil.example", "LIST alpha\nSUMMARY alpha",
                envelope="nosy@evil.example")
    await _send(judge, players["ITALY"], "LIST alpha", envelope=players["ITALY"])
    await _send(judge, GM, "SUMMARY alpha", envelope=GM)
    await _settled(judge, 3)
    out = {m.to_addr: m.body for m in _outbox(judge) if m.kind.startswith("reply")}
    stranger, player, gm = out["nosy@evil.example"], out[players["ITALY"]], out[GM]
    assert "France" in stranger and not any(p in stranger for p in PLAYERS)
    # a player of a white-press game sees them (press shows them anyway); the GM always
    assert all(p in player for p in PLAYERS) and all(p in gm for p in PLAYERS)


@BOTH
async def test_a_players_list_of_a_game_without_white_press_shows_no_address(
        judge: RunningJudge, relay: CapturingRelay) -> None:
    _, players = await _club(judge, "PRESS NONE")
    mark = _last_out(judge)
    await _send(judge, players["ITALY"], "LIST alpha", envelope=players["ITALY"])
    await _settled(judge, 1)
    [reply] = [m.body for m in _outbox(judge, mark) if m.to_addr == players["ITALY"]]
    assert "France" in reply
    assert [p for p in PLAYERS if p in reply] == [players["ITALY"]]  # his own only


# ------------------------------------------------------------------ 7. no password on disk


SECRET = "Zq7-unforgettable-Pw"


def _sqlite_files(url: str) -> list[Path]:
    path = Path(url.split("///", 1)[1])
    return [p for p in path.parent.iterdir() if p.name.startswith(path.name)]


def _in_files(url: str, needle: bytes) -> list[str]:
    if not url.startswith("sqlite"):
        return []
    return [p.name for p in _sqlite_files(url) if p.is_file() and needle in p.read_bytes()]


def _in_tables(judge: RunningJudge, needle: str) -> list[str]:
    found = []
    with judge.db.session() as s:
        for row in s.scalars(select(InboundMail)):
            if needle.encode() in (row.raw or b""):
                found.append(f"inbound {row.id}")
        for row in s.scalars(select(Confirmation)):
            if needle in repr(row.payload):
                found.append(f"confirmation {row.id}")
        for row in s.scalars(select(OutboundMail)):
            if needle in (row.body or ""):
                found.append(f"outbound {row.id}")
    return found


@BOTH
async def test_a_held_join_leaves_no_password_in_any_file(judge: RunningJudge,
                                                          relay: CapturingRelay,
                                                          settings: Settings) -> None:
    h = Harness(judge.db, settings=replace(Harness(judge.db).settings, address=JUDGE))
    await asyncio.to_thread(h.mail, GM, "CREATE beta gmpass")
    newcomer = "newcomer@example.net"
    # seen: the password of a JOIN from an address still to confirm stayed in the -wal file
    await _send(judge, newcomer, f"JOIN beta {SECRET}", envelope=newcomer)
    rows = await _settled(judge, 1)
    assert rows[0].status == "held"
    assert _in_tables(judge, SECRET) == []
    assert await _files_cleared(settings.database_url, SECRET.encode()) == []
    # the held mail carries what its handling needs: the newcomer joins with that password
    [asked] = [m for m in _outbox(judge) if m.to_addr == newcomer]
    token = token_in_subject(asked.subject)
    await _send(judge, newcomer, f"CONFIRM {token}", envelope=newcomer)
    for _ in range(400):
        rows = await _settled(judge, 2)
        if "held" not in {r.status for r in rows}:
            break
        await asyncio.sleep(0.05)
    joined = [m.body for m in _outbox(judge) if m.to_addr == newcomer]
    assert any("joined" in body.lower() for body in joined), joined
    with judge.db.session() as s:
        account = guardrepo.account_by_address(s, newcomer)
        assert account is not None
        [seat] = s.scalars(select(Seat).where(Seat.account_id == account.id)).all()
        assert verify_password(SECRET, seat.password_hash)
    assert _in_tables(judge, SECRET) == []
    assert await _files_cleared(settings.database_url, SECRET.encode()) == []
    # a mail handled at once (not held) leaves none either, once masked: the listener's
    # clear copy is gone from the -wal file too
    await _send(judge, GM, "SIGNON GM beta gmpass\nSET PASSWORD Other-Secret-77", envelope=GM)
    await _settled(judge, 3)
    for secret in ("gmpass", "Other-Secret-77"):
        assert _in_tables(judge, secret) == []
        assert await _files_cleared(settings.database_url, secret.encode()) == []


async def _files_cleared(url: str, needle: bytes) -> list[str]:
    """The files still holding ``needle`` once the drain truncated the -wal file: a reader
    busy at that moment makes it try again at its next round (``Database.wal_dirty``)."""
    for _ in range(100):
        found = _in_files(url, needle)
        if not found:
            return found
        await asyncio.sleep(0.1)
    return _in_files(url, needle)


@pytest.mark.parametrize("subject", [
    "Out of office: Re: confirm 0123", "Automatic reply: orders", "Risposta automatica: ordini",
    "Réponse automatique : ordres", "AW: Abwesenheitsnotiz", "Fuori sede", "Auto: hello",
    "RE: Absence du bureau",
])
def test_auto_reply_subjects_are_automatic_mail(subject: str) -> None:
    assert loop_reason({"subject": subject}, "person@example.net", JUDGE) is not None


@pytest.mark.parametrize("subject", ["Re: confirm 0123", "absent-minded orders", "orders",
                                     "Re: " * 5000 + "hello"])
def test_a_persons_subjects_are_not(subject: str) -> None:
    # the last one: the match must stay linear in a pile of "Re:" (it once hung the drain)
    assert loop_reason({"subject": subject}, "person@example.net", JUDGE) is None
