"""The unit of work for one received mail: what a command handler sees and may do.

``IncomingMail`` is the decoded mail, free of any mail or database library types.
``MailContext`` is a mail's handling: the mail, its commands read once (``commands()``), the
work prepared for it, what it queued. The one context of a mail is its subclass
``judge.service.commands.session.MailSession``, which adds the command run's state; the inbox
builds it and hands it to ``judge.service.dispatch.dispatch`` inside the one transaction
that handles the mail; everything written through ``ctx.session`` and every reply queued with
``ctx.reply`` / ``ctx.send`` commits together with the inbound row being marked done, or not
at all.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from judge.i18n import N_, check_lang, tr
from judge.service import header_safety
from judge.service.caller import Prepared
from judge.service.mail_commands import ReadMail, read_mail
from judge.settings import Settings
from judge.storage import Session, playrepo
from judge.storage.mailrepo import count_recent_to, enqueue_outbound
from judge.storage.models import OutboundMail

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class IncomingMail:
    from_addr: str  # bare address, lower-cased domain
    from_name: str = ""
    to: tuple[str, ...] = ()
    cc: tuple[str, ...] = ()
    reply_to: str = ""
    subject: str = ""
    message_id: str = ""
    references: tuple[str, ...] = ()
    text: str = ""  # the chosen text part, decoded (HTML turned into text)
    lines: tuple[str, ...] = ()  # text without quotes, attributions and signature
    ignored_attachments: tuple[str, ...] = ()
    oversized: bool = False
    size: int = 0
    notes: tuple[str, ...] = ()  # what decoding had to guess, said back to the sender
    loop_reason: str | None = None  # set when answering could start a mail loop
    # the same notes as (NOTE_TEXTS key, params), so the reply can say them in its language
    note_codes: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    # a delivery report (flufl.bounce): recipients that failed for good, and for now
    failed_recipients: tuple[str, ...] = ()
    delayed_recipients: tuple[str, ...] = ()
    envelope_to: tuple[str, ...] = ()  # the envelope recipients, set by the drain


# What decoding had to guess or leave out, said back to the sender in the reply's language
# (English msgids of the catalogs, judge/locale).
NOTE_TEXTS: dict[str, str] = {
    "attachment_ignored": N_("Attachment %(name)s ignored."),
    "html_read": N_("Your mail had no plain-text part: its HTML part was read as text."),
    "unknown_charset": N_("Unknown character set %(charset)s: your text was read as %(used)s."),
    "bad_charset": N_("Your text was not valid %(charset)s: it was read as %(used)s."),
    "unreadable": N_("Your mail could not be read (its MIME structure is broken or too deeply "
                     "nested): nothing in it was read as commands."),
}


def note_text(key: str, params: dict[str, str] | tuple[tuple[str, str], ...],
              lang: str | None = "en") -> str:
    """One note in ``lang`` (English when the language is unknown or not translated)."""
    values = dict(params)
    if key == "unknown_charset" and "charset" in values:
        values["charset"] = repr(values["charset"])  # quoted: it is what the sender wrote
    return tr(check_lang(lang), NOTE_TEXTS[key], **values) if values else \
        tr(check_lang(lang), NOTE_TEXTS[key])


# the one notice a day that says the daily reply cap was reached (kind of its outbox row)
CAP_NOTICE = "cap_notice"
# The answers to a mail, by what the mail proved (issue 25): each kind has its own daily
# budget per address, so strangers and forgers cannot use up a player's answers.
# SIGNED: a right password (or the GM's, a confirmation's token, a relay secret) was given;
# ANONYMOUS: a command was read but nothing proved who wrote it (wrong passwords included);
# UNREAD: not one command was read (an auto-responder's exchange stops after three a day).
SIGNED, ANONYMOUS, UNREAD = "reply", "reply_anon", "reply_unread"
CAP_SUBJECT = N_("Reply limit reached")
CAP_TEXT = N_(
    "This judge has reached its daily limit of answers to this address (%(cap)s in 24 hours). "
    "Your later mails are still read and applied (orders are stored), but they get no answer "
    "until the limit clears; this notice is sent once.\n"
)
CAP_TEXT_UNSIGNED = N_(
    "This judge has reached its daily limit of answers to this address for mail that did not "
    "sign on with a right password (%(cap)s in 24 hours). Your later mails are still read and "
    "applied, but only mail that signs on with the right password gets an answer until the "
    "limit clears; this notice is sent once.\n"
)


def new_message_id(domain: str) -> str:
    return f"<{uuid.uuid4().hex}@{domain}>"


def list_id(game_name: str, domain: str) -> str:
    return f"<{game_name.lower()}.{domain}>"


@dataclass
class MailContext:
    mail: IncomingMail
    settings: Settings
    now: datetime
    session: Session  # for the repository calls the handlers make through the service
    inbound_id: int | None = None
    queued: list[OutboundMail] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    # Batched drain: rows go to ``outbox`` and the drain inserts them all in one statement
    # before the same commit (None: each row is added and flushed at once). ``reply_counts``
    # caches the daily reply count per address across the mails of one transaction.
    outbox: list[OutboundMail] | None = None
    reply_counts: dict[str, int] | None = None
    # set when the mail is kept unhandled until its sender confirms the address
    held: bool = False
    drop_note: str | None = None  # why this mail got no reply, when not the daily cap
    # the mail's commands, read once (``commands()``): the drain reads them before the
    # write transaction to prepare the mail and to mask its raw copy
    read: ReadMail | None = None
    # scrypt checks and hashes, order parses done before the write transaction began
    prepared: Prepared | None = None
    # the passwords this mail carries: masked in its stored raw copy once it is handled
    secrets: set[str] = field(default_factory=set)
    # a held mail: each password -> the placeholder its stored copy carries (issue 25)
    held_mask: dict[str, str] | None = None
    _notes_said: bool = False

    def commands(self) -> ReadMail:
        """The mail's commands, read the first time they are asked for."""
        if self.read is None:
            self.read = read_mail(self.mail.lines, self.settings.max_command_lines)
        return self.read

    def sender_language(self) -> str:
        """The language of the sender's newest game, for what is said before a command is
        read (the cap notice, an oversized mail); English for a stranger."""
        account = playrepo.account_by_address(self.session, self.mail.from_addr)
        found = playrepo.latest_game_language(self.session, account.id) if account else None
        return check_lang(found)

    def notices(self, lang: str | None = None) -> list[str]:
        """Lines telling the sender what was not read (attachments, charset guesses), in
        ``lang`` (the reply's language; English when unknown)."""
        lines = [note_text("attachment_ignored", {"name": name}, lang)
                 for name in self.mail.ignored_attachments]
        if self.mail.note_codes:
            lines.extend(note_text(key, params, lang) for key, params in self.mail.note_codes)
        else:
            lines.extend(self.mail.notes)  # a mail decoded without codes: as written
        return lines

    def reply(self, text: str, subject: str | None = None,
              lang: str | None = None, kind: str = SIGNED) -> OutboundMail | None:
        """Queue an answer to the sender (threaded, auto-replied, under the daily cap).

        The answer goes to the From addr-spec, never to Reply-To: a Reply-To is whatever the
        sender wrote, and answering it would let anyone aim the judge at a third party.
        Past the daily cap of its ``kind`` (``SIGNED``, ``ANONYMOUS``, ``UNREAD``) the answer
        is dropped, and the first answer dropped that day is replaced by one short notice
        saying so (the mail's commands were still applied); one notice a day whatever the
        budget, so the notice cannot be made to spam. An exchange in which no command is read
        simply stops. ``lang``: the language ``text`` is written in, for the notes appended."""
        to = header_safety.addr_spec(self.mail.from_addr)
        if to is None:
            log.info("no reply: sender %r is not a plain address", self.mail.from_addr)
            self.drop_note = "no reply: the sender is not a plain address"
            return None
        cap = self._over_cap(to, kind)
        if cap is not None:
            log.warning("reply to %s dropped: over %d %s a day", to, cap, kind)
            self.dropped.append(to)
            if kind == UNREAD:
                self.drop_note = f"no reply: {cap} answers today to mail with no command read"
                return None
            if not self._cap_notice_sent(to):
                said = check_lang(lang) if lang else self.sender_language()  # the reply's
                self._queue(to=to, subject=tr(said, CAP_SUBJECT),
                            body=tr(said, CAP_TEXT if kind == SIGNED else CAP_TEXT_UNSIGNED,
                                    cap=cap),
                            kind=CAP_NOTICE, in_reply_to=self._in_reply_to())
            return None
        notices = [] if self._notes_said else self.notices(lang)
        if notices:
            text = text.rstrip("\n") + "\n\n" + "\n".join(notices) + "\n"
            self._notes_said = True
        original = header_safety.one_line(self.mail.subject or "")
        if subject is None:
            subject = original if original.lower().startswith("re:") else f"Re: {original}".strip()
        return self._queue(
            to=to, subject=subject, body=text, kind=kind,
            in_reply_to=self._in_reply_to(),
            references=header_safety.references([*self.mail.references,
                                                 self.mail.message_id]),
        )

    def _cap_notice_sent(self, to: str) -> bool:
        """Whether today's cap notice to ``to`` went (or is queued in this transaction)."""
        key = f"\0{CAP_NOTICE}:{to}"  # a key no address can be
        counts = self.reply_counts
        if counts is not None and key in counts:
            return True
        sent = count_recent_to(self.session, to, self.now - timedelta(days=1),
                               kind=CAP_NOTICE) > 0
        if counts is not None:
            counts[key] = 1
        return sent

    def _in_reply_to(self) -> str | None:
        return header_safety.message_id(self.mail.message_id)

    def _over_cap(self, to: str, kind: str) -> int | None:
        """The cap an answer of ``kind`` to ``to`` would pass, or None when it may go.
        Unsigned answers share the anonymous budget; unread ones also have their own."""
        settings = self.settings
        if kind == SIGNED:
            cap = settings.replies_per_address_per_day
            return cap if self._replies_today(to, SIGNED) >= cap else None
        if kind == UNREAD and self._replies_today(to, UNREAD) \
                >= settings.unread_replies_per_address_per_day:
            return settings.unread_replies_per_address_per_day
        cap = settings.anonymous_replies_per_address_per_day
        unsigned = self._replies_today(to, ANONYMOUS) + self._replies_today(to, UNREAD)
        return cap if unsigned >= cap else None

    def _replies_today(self, to: str, kind: str = SIGNED) -> int:
        counts = self.reply_counts
        if counts is None:
            return count_recent_to(self.session, to, self.now - timedelta(days=1), kind=kind)
        key = to if kind == SIGNED else f"\0{kind}:{to}"  # a key no address can be
        if key not in counts:
            # rows queued earlier in this transaction are not in the table yet: the cache
            # counts them (``_queue``); the first look for an address reads the table
            counts[key] = count_recent_to(self.session, to, self.now - timedelta(days=1),
                                          kind=kind)
        return counts[key]

    def send(self, to: str, subject: str, body: str, game: Any = None,
             kind: str = "notice", attachments: list[dict[str, Any]] | None = None,
             ) -> OutboundMail | None:
        """Queue a mail to anyone (bulletins, copies, press). ``game``: a Game row or name.
        None (logged) when ``to`` is not one plain address."""
        if header_safety.addr_spec(to) is None:
            log.warning("mail to %r not queued: not a plain address", to)
            return None
        return self._queue(to=to, subject=subject, body=body, kind=kind, game=game,
                           attachments=attachments)

    def _queue(self, **kw: Any) -> OutboundMail:
        row = outbound_row(self.settings, self.now, inbound_id=self.inbound_id, **kw)
        if self.outbox is None:
            enqueue_outbound(self.session, row)
        else:
            self.outbox.append(row)
        if self.reply_counts is not None and row.kind in (SIGNED, ANONYMOUS, UNREAD):
            key = row.to_addr if row.kind == SIGNED else f"\0{row.kind}:{row.to_addr}"
            if key in self.reply_counts:
                self.reply_counts[key] += 1
        self.queued.append(row)
        return row


REPLY_KINDS = (SIGNED, ANONYMOUS, UNREAD, CAP_NOTICE)


def outbound_row(
    settings: Settings,
    now: datetime,
    *,
    to: str,
    subject: str,
    body: str,
    kind: str = "notice",
    game: Any = None,
    in_reply_to: str | None = None,
    references: str | None = None,
    inbound_id: int | None = None,
    attachments: list[dict[str, Any]] | None = None,
) -> OutboundMail:
    """An outbox row with its Message-ID fixed now, so a resend after a crash reuses it."""
    game_name = game if isinstance(game, str) else getattr(game, "name", None)
    game_id = getattr(game, "id", None) if not isinstance(game, str) else None
    headers = {"Auto-Submitted": "auto-replied" if kind in REPLY_KINDS else "auto-generated"}
    if kind not in REPLY_KINDS:
        headers["Precedence"] = "bulk"
    return OutboundMail(
        to_addr=to,
        subject=header_safety.one_line(subject),
        headers=headers,
        body=body,
        attachments=list(attachments or []),
        kind=kind,
        game_id=game_id,
        list_id=list_id(game_name, settings.domain) if game_name else None,
        inbound_id=inbound_id,
        in_reply_to=in_reply_to,
        references=references,
        message_id=new_message_id(settings.domain),
        status="pending",
        tries=0,
        next_attempt_at=now,
        created=now,
    )
