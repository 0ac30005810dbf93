"""Settings layering and the mail subcommands (outbox, retry-failed)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from judge import cli_mail
from judge.service.uow import outbound_row
from judge.settings import Settings, load
from judge.storage import Database
from judge.storage.mailrepo import enqueue_outbound, mark_inbound, mark_outbound, store_inbound

from .peers import make_mail

NOW = datetime(2026, 3, 2, 10, tzinfo=UTC)


def test_defaults_then_file_then_environment(tmp_path: Path) -> None:
    assert load(environ={}) == Settings()
    config = tmp_path / "judge.toml"
    config.write_text('address = "dip@example.org"\nlmtp_port = 9024\nsmtp_port = 2525\n')
    env = {"JUDGE_CONFIG": str(config), "JUDGE_LMTP_PORT": "7024",
           "JUDGE_SMTP_SECURITY": "starttls", "JUDGE_IMAP_HOST": "imap.example.org"}
    settings = load(environ=env)
    assert settings.address == "dip@example.org" and settings.domain == "example.org"
    assert settings.lmtp_port == 7024  # the environment wins over the file
    assert settings.smtp_port == 2525
    assert settings.smtp_security == "starttls" and settings.imap_host == "imap.example.org"
    with pytest.raises(ValueError, match="smtp_security"):
        load(environ={"JUDGE_SMTP_SECURITY": "tls"})
    with pytest.raises(ValueError, match="lmtp_port"):
        load(environ={"JUDGE_LMTP_PORT": "many"})


def test_outbox_and_retry_failed_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'judge.db'}"
    monkeypatch.setenv("JUDGE_DATABASE_URL", url)
    monkeypatch.delenv("JUDGE_CONFIG", raising=False)
    db = Database(url)
    db.migrate()
    settings = Settings(database_url=url)
    with db.session() as s:
        row = outbound_row(settings, NOW, to="dead@example.org", subject="Lost", body="x")
        enqueue_outbound(s, row)
        s.flush()
        mark_outbound(s, row.id, status="dead", last_error="550 no such user", tries=1)
        enqueue_outbound(s, outbound_row(settings, NOW, to="ok@example.org", subject="Fine",
                                         body="x"))
        inbound = store_inbound(s, raw=make_mail("HELP\n"), message_id="<f@x>",
                                envelope_from="player@example.org", envelope_to=["judge@x"],
                                source="lmtp", now=NOW, max_bytes=10_000)
        assert inbound is not None
        s.flush()
        mark_inbound(s, inbound.id, "failed", NOW, error="Traceback: boom")
    assert cli_mail.main(["outbox", "--status", "dead"]) == 0
    out = capsys.readouterr().out
    assert "dead@example.org" in out and "550 no such user" in out and "ok@example.org" not in out
    assert cli_mail.main(["retry-failed", str(inbound.id)]) == 0
    out = capsys.readouterr().out
    assert f"requeued 1 failed mail(s): {inbound.id}" in out and f"{inbound.id}: done" in out
    assert cli_mail.main(["outbox", "--status", "pending"]) == 0
    assert "Re: orders" in capsys.readouterr().out
    db.dispose()
