"""``judge send``: hand one mail to a running judge, the way an MTA does.

The mail goes over the judge's own LMTP listener (``lmtp_host``:``lmtp_port``), so it takes
exactly the path of real mail: stored, acknowledged once committed, then handled by the inbox
drain. ``compose`` writes the headers around a body of command lines, for trying the judge by
hand; a whole message (``--raw``) is sent as it is.
"""

from __future__ import annotations

import email
import email.policy
import smtplib
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr

from judge.settings import Settings


class InjectError(Exception):
    """The judge did not take the mail (not running, or it refused it): the text says why."""


def compose(body: str, sender: str, to: str, subject: str) -> EmailMessage:
    """A plain-text mail from ``sender`` to ``to`` whose body is ``body``."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=True)
    domain = parseaddr(sender)[1].rpartition("@")[2] or "localhost"
    message["Message-ID"] = make_msgid(domain=domain)
    message.set_content(body)
    return message


def envelope_sender(raw: bytes) -> str:
    """The address of a whole message's From header (the envelope sender ``--raw`` uses)."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    address = parseaddr(str(message.get("From", "")))[1]
    if not address:
        raise InjectError("the message has no From address (give one with --from)")
    return address


def deliver(settings: Settings, raw: bytes, mail_from: str, rcpt: str) -> None:
    """Deliver ``raw`` to ``rcpt`` through the judge's LMTP listener; returns once the judge
    answered 250 (the mail is then committed to its database), raises ``InjectError``."""
    host, port = settings.lmtp_host, settings.lmtp_port
    try:
        with smtplib.LMTP(host, port, timeout=settings.smtp_timeout_seconds) as client:
            client.sendmail(mail_from, [rcpt], raw)
    except smtplib.SMTPRecipientsRefused as exc:
        code, refusal = next(iter(exc.recipients.values()))
        raise InjectError(f"the judge refused {rcpt}: {code} "
                          f"{refusal.decode(errors='replace')}") from exc
    except smtplib.SMTPResponseException as exc:
        said = exc.smtp_error
        text = said.decode(errors="replace") if isinstance(said, bytes) else said
        raise InjectError(f"the judge answered {exc.smtp_code} {text}") from exc
    except (OSError, smtplib.SMTPException) as exc:
        raise InjectError(f"no judge answers LMTP at {host}:{port} (is `judge serve` "
                          f"running with the same settings?): {exc}") from exc
