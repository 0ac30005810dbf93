"""Real mail peers for tests: a capturing SMTP relay (aiosmtpd) and a Dovecot server."""

from __future__ import annotations

import email
import os
import shutil
import signal
import smtplib
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from email.message import Message
from pathlib import Path

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_port(port: int, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listening on port {port}")


@dataclass
class Captured:
    mail_from: str
    rcpt_tos: list[str]
    raw: bytes
    message: Message
    at: float


@dataclass
class RelayHandler:
    """Records every message; answers from ``script`` first (e.g. ["451 ...", "250 OK"])."""

    script: list[str] = field(default_factory=list)
    messages: list[Captured] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    lock: threading.Condition = field(default_factory=threading.Condition)

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        with self.lock:
            answer = self.script.pop(0) if self.script else "250 2.0.0 OK"
            raw = envelope.original_content or b""
            if answer.startswith("250"):
                self.messages.append(Captured(envelope.mail_from or "", list(envelope.rcpt_tos),
                                              raw, email.message_from_bytes(raw),
                                              time.monotonic()))
            else:
                self.refused.append(answer)
            self.lock.notify_all()
        return answer


class CapturingRelay:
    def __init__(self) -> None:
        self.handler = RelayHandler()
        self.port = free_port()
        self.controller = Controller(self.handler, hostname="127.0.0.1", port=self.port)

    def start(self) -> CapturingRelay:
        self.controller.start()
        return self

    def stop(self) -> None:
        self.controller.stop()

    @property
    def messages(self) -> list[Captured]:
        with self.handler.lock:
            return list(self.handler.messages)

    def answer_next(self, *answers: str) -> None:
        with self.handler.lock:
            self.handler.script.extend(answers)

    def wait_for(self, count: int, timeout: float = 20.0) -> list[Captured]:
        """Block until ``count`` messages arrived (call from a thread in async tests)."""
        end = time.monotonic() + timeout
        with self.handler.lock:
            while len(self.handler.messages) < count:
                left = end - time.monotonic()
                if left <= 0:
                    break
                self.handler.lock.wait(left)
            return list(self.handler.messages)


def make_mail(
    body: str = "HELP\n",
    sender: str = "player@example.org",
    to: str = "judge@example.org",
    message_id: str | None = None,
    subject: str = "orders",
    extra_headers: str = "",
) -> bytes:
    mid = message_id or f"<{os.urandom(8).hex()}@example.org>"
    head = (f"From: Player <{sender}>\r\nTo: {to}\r\nSubject: {subject}\r\n"
            f"Message-ID: {mid}\r\nDate: Mon, 2 Mar 2026 10:00:00 +0000\r\n{extra_headers}")
    if "Content-Type" not in extra_headers:
        head += "Content-Type: text/plain; charset=utf-8\r\n"
    return (head + "\r\n" + body.replace("\r\n", "\n").replace("\n", "\r\n")).encode("utf-8")


def deliver(port: int, raw: bytes, sender: str = "player@example.org",
            rcpt: str = "judge@example.org", lmtp: bool = True) -> int:
    """Deliver one mail; returns the server's code for it (250 on success)."""
    client = smtplib.LMTP("127.0.0.1", port) if lmtp else smtplib.SMTP("127.0.0.1", port)
    try:
        client.sendmail(sender, [rcpt], raw)
        return 250
    except smtplib.SMTPDataError as exc:
        return int(exc.smtp_code)
    except smtplib.SMTPSenderRefused as exc:
        return int(exc.smtp_code)
    finally:
        try:
            client.quit()
        except (smtplib.SMTPException, OSError):
            client.close()


DOVECOT_TEMPLATE = Path(__file__).resolve().parents[2].parent / "shared/services/dovecot-test.conf"


class Dovecot:
    """A private Dovecot (IMAP + LMTP) in ``base``, on free loopback ports."""

    user = "judge@example.org"
    password = "secret"

    def __init__(self, base: Path) -> None:
        self.base = base
        self.imap_port = free_port()
        self.lmtp_port = free_port()
        self.conf = base / "dovecot.conf"

    @staticmethod
    def available() -> str | None:
        if not shutil.which("dovecot") or not shutil.which("doveadm"):
            return "dovecot is not installed (apt-get install -y dovecot-imapd dovecot-lmtpd)"
        if os.geteuid() != 0:
            return "the Dovecot test config runs as root"
        return None

    def start(self) -> Dovecot:
        base = self.base
        for sub in ("run", "state", "mail"):
            (base / sub).mkdir(parents=True, exist_ok=True)
        os.chmod(base, 0o755)
        os.chmod(base / "run", 0o755)
        os.chmod(base / "mail", 0o777)
        (base / "users").write_text(f"{self.user}:{{PLAIN}}{self.password}\n")
        text = _dovecot_config().replace("@DIR@", str(base))
        text = text.replace("port = 10143", f"port = {self.imap_port}")
        text = text.replace("port = 10024", f"port = {self.lmtp_port}")
        self.conf.write_text(text)
        # the daemon keeps inherited pipes open: never capture its output
        subprocess.run(["dovecot", "-c", str(self.conf)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.imap_port)
        wait_port(self.lmtp_port)
        return self

    def stop(self) -> None:
        pid_file = self.base / "run" / "master.pid"
        try:
            pid = int(pid_file.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            subprocess.run(["doveadm", "-c", str(self.conf), "stop"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            return
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                return
            end = time.monotonic() + 5
            while time.monotonic() < end:
                if not _alive(pid):
                    return
                time.sleep(0.05)

    def log(self) -> str:
        path = self.base / "dovecot.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def deliver(self, raw: bytes) -> int:
        return deliver(self.lmtp_port, raw, rcpt=self.user, lmtp=True)


def _alive(pid: int) -> bool:
    """True while ``pid`` runs; a zombie (no init reaps it in some containers) counts as gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def _dovecot_config() -> str:
    if DOVECOT_TEMPLATE.exists():
        return DOVECOT_TEMPLATE.read_text()
    return _FALLBACK_CONFIG


# used when ../shared is not beside the repository (e.g. in a container build)
_FALLBACK_CONFIG = """\
protocols = imap lmtp
listen = 127.0.0.1
base_dir = @DIR@/run
state_dir = @DIR@/state
log_path = @DIR@/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:@DIR@/mail/%u
default_login_user = dovenull
default_internal_user = dovecot
default_internal_group = dovecot
first_valid_uid = 1
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u @DIR@/users
}
userdb {
  driver = static
  args = uid=65534 gid=65534 home=@DIR@/mail/%u
}
service imap-login {
  inet_listener imap {
    port = 10143
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = 10024
  }
}
"""
