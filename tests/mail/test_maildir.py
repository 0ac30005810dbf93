"""Trying the judge without an MTA: outgoing mail written to a Maildir, ``judge send`` and
``judge read`` against a running judge (the README's tour)."""

from __future__ import annotations

import asyncio
import email
import email.policy
import mailbox
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from judge.cli import main
from judge.mail.maildir import MaildirTransport
from judge.mail.transport import SendFailure
from judge.settings import Settings
from judge.storage.mailrepo import list_outbound

from .conftest import RunningJudge, start_judge
from .peers import CapturingRelay, make_mail


def _config(tmp_path: Path, judge: RunningJudge, maildir: Path) -> Path:
    """The settings file `judge send` and `judge read` share with the running judge."""
    path = tmp_path / "judge.toml"
    path.write_text(f'address = "{judge.ctx.settings.address}"\n'
                    f"lmtp_port = {judge.lmtp_port}\n"
                    f'outbox_maildir = "{maildir}"\n', encoding="utf-8")
    return path


async def _judge(cmd: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run a `judge` command in a thread (it blocks; the judge serves in this loop)."""
    code = await asyncio.to_thread(main, cmd)
    out, err = capsys.readouterr()
    return code, out, err


async def _send(config: Path, tmp_path: Path, body: str, capsys: pytest.CaptureFixture[str],
                *extra: str) -> tuple[int, str, str]:
    mail = tmp_path / "body.txt"
    mail.write_text(body, encoding="utf-8")
    return await _judge(["send", "--config", str(config), *extra, str(mail)], capsys)


@pytest.fixture
async def maildir_judge(settings: Settings, tmp_path: Path) -> AsyncIterator[RunningJudge]:
    running = await start_judge(replace(settings, outbox_maildir=str(tmp_path / "mail")))
    yield running
    await running.stop()
    running.task.result()


async def test_send_help_and_the_answer_is_in_the_maildir(
        maildir_judge: RunningJudge, relay: CapturingRelay, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    maildir = tmp_path / "mail"
    config = _config(tmp_path, maildir_judge, maildir)
    code, out, err = await _send(config, tmp_path, "HELP\n", capsys,
                                 "--from", "alice@example.org")
    assert code == 0, err
    assert "took the mail from alice@example.org" in err
    # the answer, printed: the judge's reply to that mail, with its command list
    assert "To: alice@example.org" in out and "Subject: Re: judge send" in out
    assert "Commands understood" in out
    # one file in the Maildir, moved to cur/ (seen) once printed; nothing went to the relay
    box = mailbox.Maildir(maildir, create=False)
    [key] = box.keys()
    assert box.get_message(key).get_subdir() == "cur" and "S" in box.get_message(key).get_flags()
    raw = box.get_bytes(key)
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert message["Delivered-To"] == "alice@example.org"
    assert message["Return-Path"].startswith("<judge+bounce-")  # the VERP envelope sender
    assert message["From"] == "judge@example.org"
    assert relay.messages == []
    # written, then recorded sent: the outbox says so
    with maildir_judge.db.session() as session:
        assert [row.status for row in list_outbound(session)] == ["sent"]


async def test_create_confirm_and_read(maildir_judge: RunningJudge, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    maildir = tmp_path / "mail"
    config = _config(tmp_path, maildir_judge, maildir)
    code, out, err = await _send(config, tmp_path, "CREATE tour secret\n", capsys,
                                 "--from", "gm@example.org")
    assert code == 0, err
    # a new address: the judge asks for a confirmation first
    token = next(line.split()[2] for line in out.splitlines()
                 if line.startswith("Subject: confirm "))
    assert out.startswith("Date:") and "Subject: confirm " in out
    code, out, err = await _send(config, tmp_path, f"CONFIRM {token}\n", capsys,
                                 "--from", "gm@example.org")
    assert code == 0, err
    assert "Address confirmed" in out
    # the held CREATE is answered in a mail of its own: `judge read` shows it, once
    for _ in range(200):
        code, out, err = await _judge(["read", "--config", str(config)], capsys)
        if "Game tour created" in out:
            break
        await asyncio.sleep(0.05)
    assert "Game tour created" in out and "> CREATE tour ****" in out
    assert "secret" not in out  # the password is masked in the echo
    code, again, err = await _judge(["read", "--config", str(config)], capsys)
    assert "Game tour created" not in again and "no new mail" in err
    code, everything, err = await _judge(["read", "--config", str(config), "--all"], capsys)
    assert everything.count("Date: ") == 3  # the confirmation, its answer, the CREATE's


async def test_raw_message_is_sent_as_it_is(maildir_judge: RunningJudge, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    config = _config(tmp_path, maildir_judge, tmp_path / "mail")
    raw = tmp_path / "whole.eml"
    raw.write_bytes(make_mail("HELP\n", sender="bob@example.org",
                              message_id="<raw-1@example.org>", subject="by hand"))
    code, out, err = await _judge(["send", "--config", str(config), "--raw", str(raw)], capsys)
    assert code == 0 and "from bob@example.org" in err
    assert out == ""  # --raw does not wait: judge read shows the answer
    for _ in range(200):
        code, out, err = await _judge(["read", "--config", str(config), "--to", "bob@"],
                                      capsys)
        if out:
            break
        await asyncio.sleep(0.05)
    assert "Subject: Re: by hand" in out and "Commands understood" in out


async def test_nothing_is_marked_sent_until_the_file_is_written(
        settings: Settings, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the Maildir's place is taken by a plain file: every write fails, as on a full disk
    blocked = tmp_path / "mail"
    blocked.write_text("not a folder", encoding="utf-8")
    judge = await start_judge(replace(settings, outbox_maildir=str(blocked)))
    try:
        config = _config(tmp_path, judge, blocked)
        code, out, err = await _send(config, tmp_path, "HELP\n", capsys, "--wait", "0")
        assert code == 0, err
        for _ in range(400):
            with judge.db.session() as session:
                rows = list_outbound(session)
            if rows and rows[0].tries >= 1:
                break
            await asyncio.sleep(0.05)
        [row] = rows
        assert row.status == "pending" and "Maildir" in (row.last_error or "")
        # the disk is back: the retry writes the message, and only then is it sent
        blocked.unlink()
        for _ in range(400):
            with judge.db.session() as session:
                [row] = list_outbound(session)
            if row.status == "sent":
                break
            await asyncio.sleep(0.05)
        assert row.status == "sent"
        assert len(mailbox.Maildir(blocked, create=False).keys()) == 1
    finally:
        await judge.stop()


async def test_transport_failure_is_a_retry_and_build_errors_pass(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    transport = MaildirTransport(tmp_path / "file" / "mail")
    with pytest.raises(SendFailure) as failure:
        await transport.send("judge@example.org", "a@example.org", lambda _eight: b"x\n")
    assert not failure.value.permanent and failure.value.text.startswith("relay unreachable")

    def unbuildable(_eight: bool) -> bytes:
        raise ValueError("cannot")

    with pytest.raises(ValueError):
        await MaildirTransport(tmp_path / "ok").send("j@x", "a@x", unbuildable)


async def test_send_without_a_running_judge_says_so(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from .peers import free_port

    config = tmp_path / "judge.toml"
    config.write_text(f"lmtp_port = {free_port()}\n", encoding="utf-8")
    code, out, err = await _send(config, tmp_path, "HELP\n", capsys)
    assert code == 1 and "no judge answers LMTP" in err and "judge serve" in err


async def _read_until(config: Path, capsys: pytest.CaptureFixture[str], *wanted: str) -> str:
    """`judge read` until every text of ``wanted`` has been printed (mail keeps coming)."""
    seen = ""
    for _ in range(600):
        code, out, err = await _judge(["read", "--config", str(config)], capsys)
        assert code == 0, err
        seen += out
        if all(text in seen for text in wanted):
            return seen
        await asyncio.sleep(0.05)
    raise AssertionError(f"never read {wanted}: {seen[-2000:]}")


async def test_the_readme_tour(maildir_judge: RunningJudge, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    """README.md's tour, mail by mail: a solo game against the computer, created, confirmed,
    started and played for one phase, every answer read from the Maildir."""
    config = _config(tmp_path, maildir_judge, tmp_path / "mail")
    you = ("--from", "you@example.org")
    code, out, err = await _send(config, tmp_path, "HELP\n", capsys, *you)
    assert code == 0 and "Commands understood" in out
    code, out, err = await _send(config, tmp_path, "CREATE tour secret\nBOTS FRANCE\nSTART\n",
                                 capsys, *you)
    token = next(line.split()[2] for line in out.splitlines()
                 if line.startswith("Subject: confirm "))
    code, out, err = await _send(config, tmp_path, f"CONFIRM {token}\n", capsys, *you)
    assert code == 0 and "Address confirmed" in out
    started = await _read_until(config, capsys, "Game tour created", "You play France")
    assert "(a computer power) writes to France" in started
    orders = "SIGNON FRANCE tour secret\nA Par - Bur\nA Mar - Spa\nF Bre - Mid\n"
    code, out, err = await _send(config, tmp_path, orders, capsys, *you)
    assert code == 0 and "F BRE - MAO" in out
    results = await _read_until(config, capsys, "Spring 1901 Movement results")
    assert "France:  Army Paris -> Burgundy." in results
    assert "[attachment: " in results and "image/png" in results  # the map
