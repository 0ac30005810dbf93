"""The mail command handlers: ``run(ctx)`` reads one mail's commands and applies them.

Handlers live in modules by who may use them (``anyone``, ``player``, ``gm``) plus ``order_commands``;
importing them fills ``registry.BINDINGS``. Who may use a command (its role, and whether the
GM may use a player command as GM) is its row in ``judge.parsing.command_table``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from judge.parsing.command_table import spec
from judge.parsing.commands import (
    Command,
    Malformed,
    NotUnderstood,
    OrderLine,
    ParsedMail,
    Problem,
    Role,
    Verb,
    lexicon,
    parse_mail,
)
from judge.service import confirm, press
from judge.service.answers import CommandRefusal
from judge.service.auth import verify_password
from judge.service.commands import anyone, gm, guard, order_commands, player  # noqa: F401
from judge.service.commands.registry import BINDINGS
from judge.service.commands.session import (
    HASHES_PER_MAIL,
    KEPT_WORDS,
    MASKED,
    MailSession,
    ReplyEntry,
    echo_of,
)
from judge.service.uow import IncomingMail, MailContext
from judge.settings import Settings
from judge.storage import playrepo


def read_lines(lines: tuple[str, ...] | list[str], cap: int) -> tuple[list[str], int]:
    """The first ``cap`` non-blank lines (with the blank lines between them) and how many
    non-blank lines were left unread: the work one mail may cause is bounded by its lines."""
    kept: list[str] = []
    seen = 0
    for index, line in enumerate(lines):
        if line.strip():
            if seen == cap:
                return kept, sum(1 for rest in lines[index:] if rest.strip())
            seen += 1
        kept.append(line)
    return kept, 0


def prepare_passwords(session: Any, mails: Sequence[IncomingMail], settings: Settings,
                      ) -> dict[tuple[str, str], bool]:
    """(password, stored hash) -> matched for the first SIGNON of each power in each mail
    (the only ones ``MailSession.check`` may try), read-only."""
    verified: dict[tuple[str, str], bool] = {}
    for mail in mails:
        if mail.loop_reason or mail.oversized or not mail.from_addr:
            continue
        lines, _ = read_lines(mail.lines, settings.max_command_lines)
        seen: set[tuple[str, str]] = set()
        for cmd in parse_mail(lines).commands():
            if cmd.verb is not Verb.SIGNON or not cmd.game or len(seen) >= HASHES_PER_MAIL:
                continue
            key = (cmd.game.lower(), cmd.power or "")
            if key in seen:
                continue
            seen.add(key)
            stored = playrepo.stored_hash(session, cmd.game, cmd.power or "")
            if stored and (cmd.password or "", stored) not in verified:
                verified[(cmd.password or "", stored)] = verify_password(cmd.password or "",
                                                                         stored)
    return verified


PASSWORD_VERBS = frozenset({Verb.SIGNON, Verb.JOIN, Verb.CREATE, Verb.SET_PASSWORD})


def secrets_of(parsed: ParsedMail) -> set[str]:
    """Every password the mail carries (sign-ons, joins, new passwords, the rest of a line
    with too many words), so that the stored raw mail can be masked once handled."""
    found: set[str] = set()
    for item in parsed.items:
        if isinstance(item, Command) and item.verb in PASSWORD_VERBS:
            found.update(v for v in (item.password, item.value if item.verb is
                                     Verb.SET_PASSWORD else None) if v)
        elif isinstance(item, Malformed | NotUnderstood):
            verb = getattr(item, "verb", None) or getattr(item, "suggestion", None)
            if verb in KEPT_WORDS:
                found.update(item.text.split()[KEPT_WORDS[verb]:])
    return found


def run(ctx: MailContext) -> None:
    lines, unread = read_lines(ctx.mail.lines, ctx.settings.max_command_lines)
    parsed = parse_mail(lines)
    ctx.secrets.update(secrets_of(parsed))
    answer = confirm.find_answer(ctx)
    if answer is not None and answer.password:
        ctx.secrets.add(answer.password)
    s = MailSession(ctx, parsed)
    if guard.answer(s) or guard.hold_unconfirmed(s):
        s.finish()
        return
    if press.relay_anonymous(s):
        s.finish()
        return
    if order_commands.refuse_cc(s):
        s.finish()
        return
    chatter: ReplyEntry | None = None  # the answer to the lines of chat just above
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
        elif isinstance(item, Malformed):
            s.begin(item)
            if item.problem is Problem.UNCLOSED_BLOCK:
                s.say(CommandRefusal.UNCLOSED_BLOCK)
            else:
                detail = item.detail
                if item.verb in PASSWORD_VERBS and item.problem is Problem.TOO_MANY_ARGUMENTS:
                    detail = MASKED  # the extra word may be the rest of a password
                s.say(CommandRefusal.MALFORMED, problem=item.problem.value, detail=detail,
                      keyword=_keyword(item.verb, s.lang))
        else:
            _command(s, item)
    if unread:
        s.close_actor()
        s.begin(None)
        s.say(CommandRefusal.LINES_NOT_READ, cap=ctx.settings.max_command_lines, count=unread)
    s.finish()


def _keyword(verb: Verb, lang: str) -> str:
    return "" if verb is Verb.OPTION else lexicon().keyword(verb, lang)


def _order_line(s: MailSession, item: OrderLine) -> None:
    if s.actor is not None and s.actor.seat is not None:
        s.pending_orders.append(item)
        return
    s.begin(item)
    s.say(CommandRefusal.SKIPPED_AFTER_BAD_SIGNON if s.auth_failed else CommandRefusal.NOT_SIGNED_ON)


def _command(s: MailSession, cmd: Command) -> None:
    declared, binding = spec(cmd.verb), BINDINGS[cmd.verb]
    if binding.reads_orders:
        # the orders given above this line in the mail go in first, a bounded number of times
        if s.reads_left <= 0:
            s.begin(cmd)
            s.say(CommandRefusal.TOO_MANY, what="reads")
            return
        s.reads_left -= 1
        order_commands.flush_orders(s)
    if cmd.verb in (Verb.SIGNON, Verb.CREATE):
        # what the previous signon did is settled before this line starts a new part
        s.close_actor()
    elif cmd.verb is Verb.BECOME:
        # copies owed so far go now: a player's copy must hold only its own power's part
        s.settle()
    entry = s.begin(cmd)
    role = declared.role
    entry.gm_only = role is Role.GM
    if role is not Role.ANYONE and s.auth_failed:
        s.say(CommandRefusal.SKIPPED_AFTER_BAD_SIGNON)
        return
    if cmd.verb is Verb.OPTION and s.creating is not None and (
            s.actor is None or s.actor.game is s.creating):
        binding.handler(s, cmd)
        return
    if role is Role.GM and (s.actor is None or not s.actor.gm):
        s.say(CommandRefusal.NOT_GM if s.actor is not None else CommandRefusal.NOT_SIGNED_ON)
        return
    if role is Role.PLAYER and declared.gm_may and s.actor is not None and s.actor.gm:
        binding.handler(s, cmd)
        return
    if role is Role.PLAYER and (s.actor is None or s.actor.seat is None):
        s.say(CommandRefusal.NOT_A_PLAYER if s.actor is not None else CommandRefusal.NOT_SIGNED_ON)
        return
    binding.handler(s, cmd)
