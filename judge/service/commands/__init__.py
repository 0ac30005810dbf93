"""The mail command handlers: ``run(s)`` reads one mail's commands and applies them.

Handlers live in modules by who may use them (``anyone``, ``player``, ``gm``) plus ``order_commands``;
importing them fills ``registry.BINDINGS``. Everything else about a command (who may use it,
its password, what it does with the orders and the sign-on) is its row in
``judge.parsing.command_table``: ``_command`` and ``prepare_mail`` read those rows, never a verb.
"""

from __future__ import annotations

from typing import Any

from judge.parsing.command_table import Orders, SecretUse, SignOn, spec
from judge.parsing.commands import (
    GM,
    Command,
    Malformed,
    NotUnderstood,
    OrderLine,
    Problem,
    Role,
    Verb,
    lexicon,
    parse_mail,
)
from judge.service import computer, confirm, gamelog, press, usecases
from judge.service.answers import CommandRefusal, Done
from judge.service.caller import HASHES_PER_REQUEST, Prepared
from judge.service.commands import (  # noqa: F401  (importing fills the registry)
    anyone,
    api_token,
    away,
    gm,
    gm_vote,
    guard,
    negotiation,
    order_commands,
    player,
    reply_text,
    webhook_command,
)
from judge.service.commands.order_commands import flush_orders
from judge.service.commands.registry import BINDINGS
from judge.service.commands.session import READS_PER_MAIL, MailSession, ReplyEntry
from judge.service.commands.signon_parts import close_actor, finish, settle
from judge.service.mail_commands import (  # noqa: F401  (the mail's reading, used by tests)
    MASKED,
    ReadMail,
    echo_of,
    read_lines,
    secrets_of,
)
from judge.service.rawmask import is_placeholder
from judge.service.store import Store
from judge.service.uow import IncomingMail


class _Preparation:
    """``prepare_mail``'s pass over the mail's commands, read from their declarations: the
    password each one checks or hashes (``CommandSpec.secret``), the orders it reads
    (``orders``), the sign-on it opens (``signon``), within the mail's budgets."""

    def __init__(self, store: Store, prepared: Prepared, budget: int) -> None:
        self.store, self.prepared, self.budget = store, prepared, budget
        self.checked: set[tuple[str, str]] = set()
        self.acting: tuple[Any, str] | None = None  # the verified signon's game and power
        self.kept: list[str] = []  # its lines stored so far (a mail's lines are ONE set)
        self.pending: list[str] = []
        self.reads = READS_PER_MAIL
        self.signed_on = False

    def flush(self) -> None:
        if self.acting is not None and self.pending:
            self.kept.extend(self.pending)
            usecases.prepare_orders(self.prepared, self.acting[0], self.acting[1], self.kept)
        self.pending = []

    def command(self, cmd: Command) -> None:
        declared = spec(cmd.verb)
        if declared.reads_orders and self.reads > 0:
            self.reads -= 1
            self.flush()
            if declared.orders is Orders.CLEARS:
                self.kept = []
            elif declared.orders is Orders.BLOCK and self.acting is not None and cmd.power:
                usecases.prepare_orders(self.prepared, self.acting[0], cmd.power, list(cmd.body))
        if declared.signon in (SignOn.OPENS, SignOn.SWITCHES):
            self.flush()
            self.acting, self.kept = None, []
        secret = declared.secret
        value = secret.of(cmd) if secret is not None else None
        if secret is None or not value or is_placeholder(value) or self.budget <= 0:
            return  # a held mail's password: the confirmation carries what it needs
        if secret.use is SecretUse.CHECKED:
            self.check(cmd, value)
        elif declared.role is Role.ANYONE or self.signed_on:
            self.budget -= 1
            self.prepared.hash(value)

    def check(self, cmd: Command, password: str) -> None:
        """A sign-on's password, checked once per power as ``Caller.check`` will."""
        key = ((cmd.game or "").lower(), cmd.power or "")
        if not cmd.game or key in self.checked:
            return
        self.checked.add(key)
        stored = self.store.stored_hash(cmd.game, cmd.power or "")
        if not stored:
            return
        self.budget -= 1
        self.prepared.verify(password, stored)
        if self.prepared.verified[(password, stored)]:
            self.signed_on = True
            game = self.store.game_by_name(cmd.game)
            if game is not None and game.position and cmd.power != GM:
                self.acting = (game, cmd.power or "")


def prepare_mail(session: Any, mail: IncomingMail, read: ReadMail) -> Prepared:
    """The slow work one mail's handling will ask for, done ahead in a read-only session.

    scrypt: the first SIGNON of each power (the only check ``Caller.check`` may make for it),
    the new passwords of the commands that give one and of a REPLACE's confirmation, within
    the mail's budget. Orders: each set of order lines a verified signon will store, at the
    points the handlers store it (a command that reads the orders, the next sign-on, the end
    of the mail). What differs at handling time is simply done then.
    """
    prepared = Prepared()
    if mail.loop_reason or mail.oversized or not mail.from_addr:
        return prepared
    budget = HASHES_PER_REQUEST
    if read.answer is not None and read.answer.password:
        prepared.hash(read.answer.password)
        budget -= 1
    ahead = _Preparation(Store(session), prepared, budget)
    for item in read.parsed.items:
        if isinstance(item, OrderLine):
            ahead.pending.append(item.text)
        elif isinstance(item, Command):
            ahead.command(item)
    ahead.flush()
    return prepared


def reply_language_of(session: Any, mail: IncomingMail) -> str:
    """The language of the mail's first keyword, else its sender's, else English."""
    try:
        lines, _ = read_lines(mail.lines, 50)
        lang = parse_mail(lines).lang
    except Exception:  # the mail whose handling failed may be the one the parser fails on
        lang = None
    if lang is None:
        account = Store(session).account_by_address(mail.from_addr)
        lang = account.language if account is not None else None
    return reply_text.check_lang(lang)


def refused_line(s: MailSession, item: Malformed) -> None:
    """Answer a command line the parser could not read."""
    s.begin(item)
    if item.problem is Problem.UNCLOSED_BLOCK:
        s.say(CommandRefusal.UNCLOSED_BLOCK)
        return
    detail = item.detail
    if spec(item.verb).secret is not None and item.problem is Problem.TOO_MANY_ARGUMENTS:
        detail = MASKED  # the extra word may be the rest of a password
    s.say(CommandRefusal.MALFORMED, problem=item.problem.value, detail=detail,
          keyword=_keyword(item.verb, s.lang))


def run(s: MailSession) -> None:
    read = s.commands()
    parsed, unread = read.parsed, read.unread
    s.secrets.update(read.secrets)
    s.start_run()
    # a held mail handled again: what it carried of its passwords, the locks lifted for it
    s.caller.unlocked |= confirm.restore(s, s.caller.prepared)
    if guard.answer(s) or guard.hold_unconfirmed(s) or guard.hold_locked(s):
        finish(s)
        return
    if press.relay_anonymous(s):
        finish(s)
        return
    if order_commands.refuse_cc(s):
        finish(s)
        return
    chatter: ReplyEntry | None = None  # the answer to the lines of chat just above
    # a player who pressed "reply" on a press mail is told how press is answered (issue 28)
    answered = press.answered_press(s) if any(
        isinstance(item, NotUnderstood) for item in parsed.items) else None
    if answered is not None:
        s.touch(answered)
    for item in parsed.items:
        if isinstance(item, NotUnderstood) and not item.suggestion and chatter is not None \
                and s.entries and s.entries[-1] is chatter:
            # a greeting or a paragraph of chat is answered once, its lines quoted together
            chatter.echo = f"{chatter.echo}\n{echo_of(item)}"
            continue
        if isinstance(item, OrderLine):
            _order_line(s, item)
        elif isinstance(item, NotUnderstood):
            entry = s.begin(item)
            suggestion = lexicon().keyword(item.suggestion, s.lang) if item.suggestion else None
            s.say(CommandRefusal.NOT_UNDERSTOOD, suggestion=suggestion)
            chatter = None if suggestion else entry
            if answered is not None and chatter is not None:
                s.say(Done.PRESS_REPLY_HINT, **press.reply_hint(s, answered))
                answered = None  # once a mail
        elif isinstance(item, Malformed):
            refused_line(s, item)
        else:
            _command(s, item)
    if unread:
        close_actor(s)
        s.begin(None)
        s.say(CommandRefusal.LINES_NOT_READ, cap=s.settings.max_command_lines, count=unread)
    finish(s)
    if s.lang_game is not None:
        # a solo game is processed as soon as its player's orders are in (issue 14)
        computer.advance(s.session, s.lang_game, s.now, s.settings)


def _keyword(verb: Verb, lang: str) -> str:
    # an option line has no keyword of its own (its words are the options')
    return lexicon().keyword(verb, lang) if spec(verb).own_words else ""


def _order_line(s: MailSession, item: OrderLine) -> None:
    if s.actor is not None and s.actor.seat is not None:
        s.pending_orders.append(item)
        return
    s.begin(item)
    s.say(CommandRefusal.SKIPPED_AFTER_BAD_SIGNON if s.auth_failed else CommandRefusal.NOT_SIGNED_ON)


def _command(s: MailSession, cmd: Command) -> None:
    """Run one command line: what its declaration says comes first (the orders above it
    stored, the sign-on before it settled, who may send it), then its handler."""
    declared, handler = spec(cmd.verb), BINDINGS[cmd.verb]
    if declared.reads_orders:
        # the orders given above this line in the mail go in first, a bounded number of times
        if s.reads_left <= 0:
            s.begin(cmd)
            s.say(CommandRefusal.TOO_MANY, what="reads")
            return
        s.reads_left -= 1
        flush_orders(s)
    if declared.signon is SignOn.OPENS:
        # what the previous signon did is settled before this line starts a new part
        close_actor(s)
    elif declared.signon is SignOn.SWITCHES:
        # copies owed so far go now: a player's copy must hold only its own power's part
        settle(s)
    entry = s.begin(cmd)
    role = declared.role
    entry.gm_only = role is Role.GM
    if role is not Role.ANYONE and s.auth_failed:
        s.say(CommandRefusal.SKIPPED_AFTER_BAD_SIGNON)
        return
    if declared.after_create and s.creating is not None and (
            s.actor is None or s.actor.game is s.creating):
        handler(s, cmd)
        return
    if role is Role.GM and (s.actor is None or not s.actor.gm):
        s.say(CommandRefusal.NOT_GM if s.actor is not None else CommandRefusal.NOT_SIGNED_ON)
        return
    if role is Role.GM and s.actor is not None:
        # the verb alone: a GM command's arguments may be an address or a password
        gamelog.event(s.actor.game, "GM command", verb=cmd.verb.name)
    if role is Role.PLAYER and declared.gm_may and s.actor is not None and s.actor.gm:
        handler(s, cmd)
        return
    if role is Role.PLAYER and s.actor is None and s.joined is not None:
        # a player who joined in this mail: what concerns him alone applies; the rest waits
        # for the start (he has no power yet), and he is told that rather than "sign on"
        if declared.joiner_may:
            handler(s, cmd)
        else:
            s.say(CommandRefusal.JOINED_NOT_STARTED, game=s.joined.name)
        return
    if role is Role.PLAYER and (s.actor is None or s.actor.seat is None):
        s.say(CommandRefusal.NOT_A_PLAYER if s.actor is not None else CommandRefusal.NOT_SIGNED_ON)
        return
    handler(s, cmd)
