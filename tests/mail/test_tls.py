"""The sender speaks STARTTLS with AUTH, and implicit TLS, to a relay with a test certificate."""

from __future__ import annotations

import shutil
import ssl
import subprocess
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from judge.mail.outbox import OutboxRunner
from judge.service.uow import outbound_row
from judge.settings import Settings
from judge.storage import Database
from judge.storage.mailrepo import enqueue_outbound, list_outbound
from tests.conftest import need_service

from .peers import RelayHandler, free_port


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    if not shutil.which("openssl"):
        need_service("openssl (to make a test certificate)")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True,
    )
    return cert, key


def _server_context(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*map(str, certificate))
    return context


class Authenticator:
    def __init__(self) -> None:
        self.logins: list[str] = []

    def __call__(self, server, session, envelope, mechanism, auth_data):  # noqa: ANN001, ANN204
        ok = isinstance(auth_data, LoginPassword) and auth_data.password == b"s3cret"
        if ok:
            self.logins.append(auth_data.login.decode())
        return AuthResult(success=ok)


@pytest.fixture
def tls_relay(request: pytest.FixtureRequest,
              certificate: tuple[Path, Path]) -> Iterator[tuple[str, RelayHandler, int, Authenticator]]:
    mode = request.param
    handler, auth, port = RelayHandler(), Authenticator(), free_port()
    context = _server_context(certificate)
    if mode == "ssl":
        controller = Controller(handler, hostname="127.0.0.1", port=port, ssl_context=context)
    else:
        controller = Controller(handler, hostname="127.0.0.1", port=port, tls_context=context,
                                require_starttls=True, authenticator=auth, auth_required=True)
    controller.start()
    yield mode, handler, port, auth
    controller.stop()


@pytest.mark.parametrize("tls_relay", ["starttls", "ssl"], indirect=True)
async def test_sender_over_tls(settings: Settings, tls_relay, certificate) -> None:
    mode, handler, port, auth = tls_relay
    tls_settings = replace(settings, smtp_port=port, smtp_security=mode,
                           smtp_ca_file=str(certificate[0]),
                           smtp_user="judge" if mode == "starttls" else "",
                           smtp_password="s3cret" if mode == "starttls" else "")
    db = Database(settings.database_url)
    db.migrate()
    with db.session() as s:
        enqueue_outbound(s, outbound_row(tls_settings, datetime.now(UTC), to="p@example.org", subject="tls", body="hi"))
    runner = OutboxRunner(db, tls_settings)
    try:
        assert await runner.send_due() == 1
    finally:
        await runner.close()
    with db.session() as s:
        assert [r.status for r in list_outbound(s)] == ["sent"]
    assert len(handler.messages) == 1
    if mode == "starttls":
        assert auth.logins == ["judge"]
    db.dispose()


async def test_untrusted_certificate_is_retried_not_sent(settings: Settings,
                                                          certificate) -> None:
    handler, port = RelayHandler(), free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port,
                            ssl_context=_server_context(certificate))
    controller.start()
    try:
        tls_settings = replace(settings, smtp_port=port, smtp_security="ssl")
        db = Database(settings.database_url)
        db.migrate()
        with db.session() as s:
            enqueue_outbound(s, outbound_row(tls_settings, datetime.now(UTC), to="p@example.org", subject="tls", body="hi"))
        runner = OutboxRunner(db, tls_settings)
        try:
            assert await runner.send_due() == 0
        finally:
            await runner.close()
        with db.session() as s:
            [row] = list_outbound(s)
        assert row.status == "pending" and row.tries == 1 and handler.messages == []
        db.dispose()
    finally:
        controller.stop()
