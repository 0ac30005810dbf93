"""The unit of work for one received mail: what a command handler sees and may do.

``IncomingMail`` is the decoded mail, free of any mail or database library types.
``MailContext`` is handed to ``judge.service.dispatch.dispatch`` inside the one transaction
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

from judge.service import header_safety
from judge.service.caller import Prepared
from judge.settings import Settings
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


# What decoding had to guess or leave out, said back to the sender in the reply's language.
NOTE_TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "attachment_ignored": "Attachment {name} ignored.",
        "html_read": "Your mail had no plain-text part: its HTML part was read as text.",
        "unknown_charset": "Unknown character set {charset!r}: your text was read as {used}.",
        "bad_charset": "Your text was not valid {charset}: it was read as {used}.",
        "unreadable": "Your mail could not be read (its MIME structure is broken or too "
                      "deeply nested): nothing in it was read as commands.",
    },
    "it": {
        "attachment_ignored": "Allegato {name} ignorato.",
        "html_read": "La tua mail non aveva una parte in testo semplice: la sua parte HTML è "
                     "stata letta come testo.",
        "unknown_charset": "Set di caratteri sconosciuto {charset!r}: il tuo testo è stato "
                           "letto come {used}.",
        "bad_charset": "Il tuo testo non era {charset} valido: è stato letto come {used}.",
        "unreadable": "Non è stato possibile leggere la tua mail (struttura MIME rotta o "
                      "annidata troppo a fondo): niente è stato letto come comando.",
    },
    "fr": {
        "attachment_ignored": "Pièce jointe {name} ignorée.",
        "html_read": "Votre courrier n'avait pas de partie en texte brut : sa partie HTML a "
                     "été lue comme du texte.",
        "unknown_charset": "Jeu de caractères inconnu {charset!r} : votre texte a été lu "
                           "comme {used}.",
        "bad_charset": "Votre texte n'était pas du {charset} valide : il a été lu comme "
                       "{used}.",
        "unreadable": "Votre courrier n'a pas pu être lu (structure MIME cassée ou trop "
                      "imbriquée) : rien n'y a été lu comme commande.",
    },
}


def note_text(key: str, params: dict[str, str] | tuple[tuple[str, str], ...],
              lang: str | None = "en") -> str:
    """One note in ``lang`` (English when the language is unknown or not translated)."""
    texts = NOTE_TEXTS.get(lang or "en", NOTE_TEXTS["en"])
    return texts.get(key, NOTE_TEXTS["en"][key]).format(**dict(params))


# the one notice a day that says the daily reply cap was reached (kind of its outbox row)
CAP_NOTICE = "cap_notice"
CAP_SUBJECTS = {"en": "Reply limit reached", "it": "Limite di risposte raggiunto",
                "fr": "Limite de réponses atteinte"}
CAP_TEXTS = {
    "en": "This judge has reached its daily limit of answers to this address ({cap} in 24 "
          "hours). Your later mails are still read and applied (orders are stored), but they "
          "get no answer until the limit clears; this notice is sent once.\n",
    "it": "Questo judge ha raggiunto il suo limite giornaliero di risposte a questo indirizzo "
          "({cap} in 24 ore). Le tue mail successive sono comunque lette e applicate (gli "
          "ordini sono registrati), ma non ricevono risposta finché il limite non si libera; "
          "questo avviso è inviato una volta sola.\n",
    "fr": "Ce juge a atteint sa limite quotidienne de réponses à cette adresse ({cap} en 24 "
          "heures). Vos courriers suivants sont toujours lus et appliqués (les ordres sont "
          "enregistrés), mais ils restent sans réponse jusqu'à ce que la limite se libère ; cet "
          "avis n'est envoyé qu'une fois.\n",
}
CAP_SUBJECT, CAP_TEXT = CAP_SUBJECTS["en"], CAP_TEXTS["en"]


def new_message_id(domain: str) -> str:
    return f"<{uuid.uuid4().hex}@{domain}>"


def list_id(game_name: str, domain: str) -> str:
    return f"<{game_name.lower()}.{domain}>"


@dataclass
class MailContext:
    mail: IncomingMail
    settings: Settings
    now: datetime
    session: Any  # judge.storage session for repository calls (kept untyped here on purpose)
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
    # scrypt checks and hashes, order parses done before the write transaction began
    prepared: Prepared | None = None
    # the passwords this mail carries: masked in its stored raw copy once it is handled
    secrets: set[str] = field(default_factory=set)
    _notes_said: bool = False

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
              lang: str | None = None) -> OutboundMail | None:
        """Queue an answer to the sender (threaded, auto-replied, under the daily cap).

        The answer goes to the From addr-spec, never to Reply-To: a Reply-To is whatever the
        sender wrote, and answering it would let anyone aim the judge at a third party.
        Past the daily cap the answer is dropped, and the first answer dropped that day is
        replaced by one short notice saying so (the mail's commands were still applied).
        ``lang``: the language ``text`` is written in, for the notes appended to it."""
        to = header_safety.addr_spec(self.mail.from_addr)
        if to is None:
            log.info("no reply: sender %r is not a plain address", self.mail.from_addr)
            self.drop_note = "no reply: the sender is not a plain address"
            return None
        cap = self.settings.replies_per_address_per_day
        if self._replies_today(to) >= cap:
            log.warning("reply to %s dropped: over %d replies a day", to, cap)
            self.dropped.append(to)
            if not self._cap_notice_sent(to):
                said = lang if lang in CAP_TEXTS else "en"  # the language the reply had
                self._queue(to=to, subject=CAP_SUBJECTS[said],
                            body=CAP_TEXTS[said].format(cap=cap),
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
            to=to, subject=subject, body=text, kind="reply",
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

    def _replies_today(self, to: str) -> int:
        counts = self.reply_counts
        if counts is None:
            return count_recent_to(self.session, to, self.now - timedelta(days=1))
        if to not in counts:
            # rows queued earlier in this transaction are not in the table yet: the cache
            # counts them (``_queue``); the first look for an address reads the table
            counts[to] = count_recent_to(self.session, to, self.now - timedelta(days=1))
        return counts[to]

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
        if self.reply_counts is not None and row.to_addr in self.reply_counts \
                and row.kind == "reply":
            self.reply_counts[row.to_addr] += 1
        self.queued.append(row)
        return row


REPLY_KINDS = ("reply", CAP_NOTICE)


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
