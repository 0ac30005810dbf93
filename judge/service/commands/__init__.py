"""The mail command handlers: ``run(ctx)`` reads one mail's commands and applies them.

Handlers live in modules by who may use them (``anyone``, ``player``, ``gm``) plus ``order_commands``;
importing them fills ``registry.BINDINGS``. Who may use a command (its role, and whether the
GM may use a player command as GM) is its row in ``judge.parsing.command_table``.
"""

from __future__ import annotations

from typing import Any

from judge.parsing.command_table import spec
from judge.parsing.commands import (
    GM,
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
from judge.service.commands.registry import BINDINGS
from judge.service.commands.session import (
    KEPT_WORDS,
    MASKED,
    READS_PER_MAIL,
    MailSession,
    ReplyEntry,
    echo_of,
)
from judge.service.rawmask import is_placeholder
from judge.service.store import Store
from judge.service.uow import IncomingMail, MailContext
from judge.settings import Settings


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


def prepare_mail(session: Any, mail: IncomingMail, settings: Settings) -> Prepared:
    """The slow work one mail's handling will ask for, done ahead in a read-only session.

    scrypt: the first SIGNON of each power (the only check ``Caller.check`` may make for it),
    the new passwords of CREATE, JOIN, SET PASSWORD and of a REPLACE's confirmation, within
    the mail's budget. Orders: each set of order lines a verified signon will store, at the
    points the handlers store it (a command that reads the orders, the next sign-on, the end
    of the mail). What differs at handling time is simply done then.
    """
    prepared = Prepared()
    store = Store(session)
    if mail.loop_reason or mail.oversized or not mail.from_addr:
        return prepared
    lines, _ = read_lines(mail.lines, settings.max_command_lines)
    parsed = parse_mail(lines)
    budget = HASHES_PER_REQUEST
    answer = confirm.find_answer_in(mail)
    if answer is not None and answer.password:
        prepared.hash(answer.password)
        budget -= 1
    checked: set[tuple[str, str]] = set()
    acting: tuple[Any, str] | None = None  # the verified signon's game and power
    kept: list[str] = []  # its lines stored so far (a mail's lines are ONE set)
    pending: list[str] = []
    reads = READS_PER_MAIL
    signed_on = False

    def flush() -> None:
        nonlocal pending
        if acting is not None and pending:
            kept.extend(pending)
            usecases.prepare_orders(prepared, acting[0], acting[1], kept)
        pending = []

    for item in parsed.items:
        if isinstance(item, OrderLine):
            pending.append(item.text)
            continue
        if not isinstance(item, Command):
            continue
        binding = BINDINGS.get(item.verb)
        if binding is not None and binding.reads_orders and reads > 0:
            reads -= 1
            flush()
            if item.verb is Verb.CLEAR:
                kept = []
            elif item.verb is Verb.FOR and acting is not None and item.power:
                usecases.prepare_orders(prepared, acting[0], item.power, list(item.body))
        if item.verb in (Verb.SIGNON, Verb.CREATE, Verb.BECOME):
            flush()
            acting, kept = None, []
        if is_placeholder(item.password) or is_placeholder(item.value):
            continue  # a held mail's password: the confirmation carries what it needs
        if item.verb is Verb.SIGNON and item.game and budget > 0:
            key = (item.game.lower(), item.power or "")
            if key in checked:
                continue
            checked.add(key)
            stored = store.stored_hash(item.game, item.power or "")
            if not stored:
                continue
            budget -= 1
            prepared.verify(item.password or "", stored)
            if prepared.verified[(item.password or "", stored)]:
                signed_on = True
                game = store.game_by_name(item.game)
                if game is not None and game.position and item.power != GM:
                    acting = (game, item.power or "")
        elif item.verb in (Verb.CREATE, Verb.JOIN) and item.password and budget > 0:
            budget -= 1
            prepared.hash(item.password)
        elif item.verb is Verb.SET_PASSWORD and item.value and signed_on and budget > 0:
            budget -= 1
            prepared.hash(item.value)
    flush()
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


def mail_secrets(mail: IncomingMail, settings: Settings) -> set[str]:
    """The passwords ``run`` will find in ``mail`` (to mask its stored raw copy)."""
    lines, _ = read_lines(mail.lines, settings.max_command_lines)
    found = secrets_of(parse_mail(lines))
    answer = confirm.find_answer_in(mail)
    if answer is not None and answer.password:
        found.add(answer.password)
    return found


def run(ctx: MailContext) -> None:
    lines, unread = read_lines(ctx.mail.lines, ctx.settings.max_command_lines)
    parsed = parse_mail(lines)
    ctx.secrets.update(secrets_of(parsed))
    answer = confirm.find_answer(ctx)
    if answer is not None and answer.password:
        ctx.secrets.add(answer.password)
    s = MailSession(ctx, parsed)
    # a held mail handled again: what it carried of its passwords, the locks lifted for it
    s.caller.unlocked |= confirm.restore(ctx, s.caller.prepared)
    if guard.answer(s) or guard.hold_unconfirmed(s) or guard.hold_locked(s):
        s.finish()
        return
    if press.relay_anonymous(s):
        s.finish()
        return
    if order_commands.refuse_cc(s):
        s.finish()
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
    if s.lang_game is not None:
        # a solo game is processed as soon as its player's orders are in (issue 14)
        computer.advance(s.session, s.lang_game, s.now, s.settings)


# the player commands a player who has just JOINed may send in the same mail: his name for
# the archive. (LIST, SUMMARY, HELP and OBSERVE need no sign-on; his password and address
# are the ones the JOIN line and its confirmation just gave; orders, press, WAIT and LATE
# need the power the start assigns.)
JOINER_VERBS = frozenset({Verb.SET_NAME})


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
    if role is Role.GM and s.actor is not None:
        # the verb alone: a GM command's arguments may be an address or a password
        gamelog.event(s.actor.game, "GM command", verb=cmd.verb.name)
    if role is Role.PLAYER and declared.gm_may and s.actor is not None and s.actor.gm:
        binding.handler(s, cmd)
        return
    if role is Role.PLAYER and s.actor is None and s.joined is not None:
        # a player who joined in this mail: what concerns him alone applies; the rest waits
        # for the start (he has no power yet), and he is told that rather than "sign on"
        if cmd.verb in JOINER_VERBS:
            binding.handler(s, cmd)
        else:
            s.say(CommandRefusal.JOINED_NOT_STARTED, game=s.joined.name)
        return
    if role is Role.PLAYER and (s.actor is None or s.actor.seat is None):
        s.say(CommandRefusal.NOT_A_PLAYER if s.actor is not None else CommandRefusal.NOT_SIGNED_ON)
        return
    binding.handler(s, cmd)
