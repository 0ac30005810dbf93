"""The command dispatcher: one call per received mail, inside that mail's transaction.

Contract:

* ``dispatch(ctx)`` is handed the mail's one context (``MailSession``, the inbox builds it)
  and reads ``ctx.mail`` (an ``IncomingMail``: sender, To/Cc, subject, cleaned
  body ``lines``, Message-ID, ignored attachments) and may change game state through
  ``ctx.session`` with the repository functions of ``judge.storage``.
* It answers with ``ctx.reply(text)`` (to the sender, threaded) and ``ctx.send(to, subject,
  body, game=...)`` (anyone else). Nothing is sent directly: rows go to the outbox and leave
  after the transaction commits.
* Time is ``ctx.now``; settings are ``ctx.settings``.
* Raising an exception rolls back every change and every queued reply; the mail is then marked
  failed with the traceback and can be re-run with ``judge retry-failed``.
* Loop mail (auto-replies, bounces) and oversized mail never reach ``dispatch``.

The command language is ``judge.parsing.commands``; the handlers are
``judge.service.commands`` (HELP is generated there from the commands' own metadata).
"""

from __future__ import annotations

from judge.service.caller import Prepared
from judge.service.commands import prepare_mail, reply_language_of, run
from judge.service.commands.session import MailSession
from judge.service.mail_commands import ReadMail
from judge.service.uow import IncomingMail
from judge.storage import Session


def dispatch(ctx: MailSession) -> None:
    run(ctx)


def prepare(session: Session, mail: IncomingMail, read: ReadMail) -> Prepared:
    """Do the slow part of ``mail``'s handling (scrypt, reading its orders) in a read-only
    session before its write transaction, from its commands ``read`` once
    (``judge.service.mail_commands``); ``dispatch`` then finds the results in
    ``MailSession.prepared``."""
    return prepare_mail(session, mail, read)


def reply_language(session: Session, mail: IncomingMail) -> str:
    """The language to answer ``mail`` in when its handling could not say (it failed)."""
    return reply_language_of(session, mail)
