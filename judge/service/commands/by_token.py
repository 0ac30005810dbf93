"""Command lines sent with an API token (issue 27), run as the mail pipeline runs a mail.

A GM's token may send the GM's commands (and option lines), a seat's token its press, its
secret orders for an ONP or Sommossa power (FOR blocks), its late days and its clock votes.
Rather than a second copy of each mail handler, the lines are parsed as a mail's, cut at the
same line cap, and each command goes through the mail's own ``_command`` with the token's
holder signed on, as a mail that began with the holder's SIGNON would: the same handlers,
the same per-mail bounds (the reads, the confirmations, the joined press mails), the same
answers. What differs is only who is acting (proved by the token, not a password) and that
the answers are returned to the caller instead of mailed. Any other line (SIGNON, orders,
a command of another role) is refused unrun: the token speaks for one seat of one game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from judge.parsing.command_table import Api, spec
from judge.parsing.commands import Command, Malformed, NotUnderstood, lexicon
from judge.service import computer
from judge.service.answers import CommandRefusal
from judge.service.commands import _command, refused_line
from judge.service.commands.session import Actor, MailSession, ReplyEntry
from judge.service.commands.signon_parts import close_actor, sign_on
from judge.service.mail_commands import echo_of, read_lines, read_mail
from judge.service.uow import IncomingMail
from judge.settings import Settings
from judge.storage.models import Account, Game, Seat


@dataclass(frozen=True)
class Answered:
    """One line (or block) as the mail reply repeats it, and what it was answered."""

    line: str | None
    messages: list[str]
    reasons: list[str]  # each message's key (answers.Done / CommandRefusal), for programs


def run_lines(session: Any, settings: Settings, now: datetime, game: Game,
              seat: Seat | None, account_id: int | None, lines: list[str],
              lang: str) -> list[Answered]:
    """Run ``lines`` as the holder of ``game``'s seat (``seat`` None: its GM) would by mail,
    and return the answers in ``lang``. Mails the handlers send others (press, notices,
    confirmations) are queued as the mail's would be; no reply is mailed."""
    account = session.get(Account, account_id) if account_id is not None else None
    if account is None:
        raise LookupError("the token's account is gone")
    kept, _ = read_lines(lines, settings.max_command_lines)
    read = read_mail(lines, settings.max_command_lines)
    parsed, unread = read.parsed, read.unread
    s = MailSession(mail=IncomingMail(from_addr=account.address, lines=tuple(kept)),
                    settings=settings, now=now, session=session, read=read)
    s.start_run()
    sign_on(s, Actor(game=game, seat=seat, gm=seat is None, first_entry=0))
    # which token may send a command is its row's ``api`` (judge.parsing.command_table)
    token = Api.GM if seat is None else Api.SEAT
    chatter: ReplyEntry | None = None  # as by mail: a paragraph of chat answered once
    for item in parsed.items:
        if isinstance(item, NotUnderstood) and not item.suggestion and chatter is not None \
                and s.entries and s.entries[-1] is chatter:
            chatter.echo = f"{chatter.echo}\n{echo_of(item)}"
            continue
        if isinstance(item, Command) and token in spec(item.verb).api:
            _command(s, item)
        elif isinstance(item, Malformed):
            refused_line(s, item)
        elif isinstance(item, NotUnderstood):
            entry = s.begin(item)
            suggestion = lexicon().keyword(item.suggestion, s.lang) if item.suggestion else None
            s.say(CommandRefusal.NOT_UNDERSTOOD, suggestion=suggestion)
            chatter = None if suggestion else entry
        else:
            # an order line, a SIGNON, another role's command: not this token's to send
            s.begin(item)
            s.say(CommandRefusal.NOT_BY_TOKEN)
    if unread:
        s.begin(None)
        s.say(CommandRefusal.LINES_NOT_READ, cap=settings.max_command_lines, count=unread)
    close_actor(s)
    s.flush_joined()
    if s.lang_game is not None:
        computer.advance(s.session, s.lang_game, s.now, s.settings)
    return [Answered(entry.echo, said["messages"], [key for key, _ in entry.messages])
            for entry, said in zip(s.entries, s.render_entries(s.entries, lang), strict=True)]
