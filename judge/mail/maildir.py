"""Outgoing mail written to a Maildir instead of a relay: the judge tried without an MTA.

With ``outbox_maildir`` set, the outbox runner's transport is :class:`MaildirTransport`: each
message becomes one file of that Maildir (the standard library's ``mailbox.Maildir``), and
that file is its delivery, as a relay's 250 is otherwise. ``Maildir.add`` writes the message
under ``tmp/``, flushes it to disk and only then links it into ``new/`` (one atomic step);
the transport also syncs ``new/`` itself before it returns, so the outbox records a message
sent only once its file is there for good, and a crash in between leaves at most that one
message to be written again (with the same Message-ID), as with a relay.

``Delivered-To`` and ``Return-Path`` head each file, as a local delivery agent writes them,
so a reader sees the envelope (the recipient, the VERP return path). The rest of the module
reads the Maildir back for ``judge send`` and ``judge read`` (judge/cli_mail.py).
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import mailbox
import os
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

from judge.mail.transport import Build, SendFailure


class MaildirTransport:
    """A ``Transport`` (judge.mail.transport) whose delivery is a file in a Maildir."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    async def send(self, mail_from: str, rcpt: str, build: Build) -> None:
        data = build(True)  # a file takes 8-bit text as it is; build's errors pass through
        try:
            await asyncio.to_thread(self._write, mail_from, rcpt, data)
        except OSError as exc:
            # the outbox treats an unreachable relay as "this lane waits and retries"; a
            # full disk or a missing permission is that for a Maildir
            raise SendFailure(f"relay unreachable: Maildir {self.path}: {exc}",
                              permanent=False) from exc

    def _write(self, mail_from: str, rcpt: str, data: bytes) -> None:
        box = mailbox.Maildir(self.path, create=True)
        envelope = f"Delivered-To: {rcpt}\nReturn-Path: <{mail_from}>\n".encode()
        box.add(envelope + data.replace(b"\r\n", b"\n"))
        # the link into new/ is a change of the directory: synced, the file cannot vanish
        fd = os.open(self.path / "new", os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    async def close(self) -> None:
        """Nothing is kept open between messages."""


def _parsed(box: mailbox.Maildir, key: str) -> EmailMessage:
    with box.get_file(key) as fh:
        raw = fh.read()
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)  # the default policy's factory
    return message


def _listed(path: str | os.PathLike[str], only_new: bool
            ) -> Iterator[tuple[str, EmailMessage]]:
    box = mailbox.Maildir(path, create=True)
    found = []
    for key in box.iterkeys():  # (iterating the Maildir itself gives messages, not keys)
        entry = box.get_message(key)
        if not only_new or entry.get_subdir() == "new":
            found.append((entry.get_date(), key))
    # by the time the file was delivered, then by its name (which begins with that time)
    for _date, key in sorted(found):
        yield key, _parsed(box, key)


def unread(path: str | os.PathLike[str]) -> Iterator[tuple[str, EmailMessage]]:
    """The messages of ``new/`` (not yet read), oldest first: (key, message)."""
    return _listed(path, only_new=True)


def every_message(path: str | os.PathLike[str]) -> Iterator[tuple[str, EmailMessage]]:
    """Every message of the Maildir, read or not, oldest first."""
    return _listed(path, only_new=False)


def mark_read(path: str | os.PathLike[str], key: str) -> None:
    """Move a message from ``new/`` to ``cur/`` with the Seen flag, as a mail reader does."""
    box = mailbox.Maildir(path, create=True)
    message = box.get_message(key)
    message.set_subdir("cur")
    message.add_flag("S")
    box[key] = message


def reply_to(path: str | os.PathLike[str], message_id: str) -> tuple[str, EmailMessage] | None:
    """The unread message answering ``message_id`` (its In-Reply-To), if it has come."""
    for key, message in unread(path):
        if str(message.get("In-Reply-To", "")).strip() == message_id:
            return key, message
    return None


def readable(message: EmailMessage) -> str:
    """A message as a terminal shows it: the headers a reader looks at, the text, and one line
    per attachment (the map of a bulletin)."""
    lines = [f"{name}: {message[name]}" for name in ("Date", "From", "To", "Subject")
             if message[name]]
    body = message.get_body(preferencelist=("plain",))
    text = body.get_content() if body is not None else ""
    lines += ["", text.rstrip("\n")]
    for part in message.iter_attachments():
        size = len(part.get_payload(decode=True) or b"")
        lines.append(f"[attachment: {part.get_filename() or 'unnamed'}, "
                     f"{part.get_content_type()}, {size:,} bytes]")
    return "\n".join(lines) + "\n"
