"""The mail command handlers: ``run(ctx)`` reads one mail's commands and applies them.

Handlers live in modules by who may use them (``anyone``, ``player``, ``gm``) plus ``orders``;
importing them fills ``registry.HANDLERS``.
"""

from __future__ import annotations

from judge.parsing.commands import (
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
from judge.service import press
from judge.service.commands import anyone, gm, orders, player  # noqa: F401  (registration)
from judge.service.commands.outcomes import Refusal
from judge.service.commands.registry import HANDLERS, role_of
from judge.service.commands.session import MailSession
from judge.service.uow import MailContext

# commands that read the stored orders: the orders given above them in the mail go in first
# (CLEAR too: order lines above it are answered, stored and then withdrawn, rather than
# dropped without a word)
# FOR too: the reply echoes the writer's own orders above the block when he wrote them there
READ_ORDERS = frozenset({Verb.STATUS, Verb.PREVIEW, Verb.PROCESS, Verb.CLEAR, Verb.FOR})
# player commands the GM may use as GM, without BECOME
GM_MAY = frozenset({Verb.PRESS, Verb.BROADCAST, Verb.SET_PASSWORD, Verb.SET_ADDRESS})


def run(ctx: MailContext) -> None:
    parsed = parse_mail(ctx.mail.lines)
    s = MailSession(ctx, parsed)
    if press.relay_anonymous(s):
        s.finish()
        return
    if orders.refuse_cc(s):
        s.finish()
        return
    for item in parsed.items:
        if isinstance(item, OrderLine):
            _order_line(s, item)
        elif isinstance(item, NotUnderstood):
            s.begin(item)
            suggestion = lexicon().keyword(item.suggestion, s.lang) if item.suggestion else None
            s.say(Refusal.NOT_UNDERSTOOD, suggestion=suggestion)
        elif isinstance(item, Malformed):
            s.begin(item)
            if item.problem is Problem.UNCLOSED_BLOCK:
                s.say(Refusal.UNCLOSED_BLOCK)
            else:
                s.say(Refusal.MALFORMED, problem=item.problem.value, detail=item.detail,
                      keyword=_keyword(item.verb, s.lang))
        else:
            _command(s, item)
    s.finish()


def _keyword(verb: Verb, lang: str) -> str:
    return "" if verb is Verb.OPTION else lexicon().keyword(verb, lang)


def _order_line(s: MailSession, item: OrderLine) -> None:
    if s.actor is not None and s.actor.seat is not None:
        s.pending_orders.append(item)
        return
    s.begin(item)
    s.say(Refusal.SKIPPED_AFTER_BAD_SIGNON if s.auth_failed else Refusal.NOT_SIGNED_ON)


def _command(s: MailSession, cmd: Command) -> None:
    if cmd.verb in READ_ORDERS:
        orders.flush_orders(s)
    if cmd.verb in (Verb.SIGNON, Verb.CREATE):
        # what the previous signon did is settled before this line starts a new part
        s.close_actor()
    elif cmd.verb is Verb.BECOME:
        # copies owed so far go now: a player's copy must hold only its own power's part
        s.settle()
    entry = s.begin(cmd)
    role = role_of(cmd.verb)
    entry.gm_only = role is Role.GM
    if role is not Role.ANYONE and s.auth_failed:
        s.say(Refusal.SKIPPED_AFTER_BAD_SIGNON)
        return
    if cmd.verb is Verb.OPTION and s.creating is not None and (
            s.actor is None or s.actor.game is s.creating):
        HANDLERS[cmd.verb](s, cmd)
        return
    if role is Role.GM and (s.actor is None or not s.actor.gm):
        s.say(Refusal.NOT_GM if s.actor is not None else Refusal.NOT_SIGNED_ON)
        return
    if role is Role.PLAYER and cmd.verb in GM_MAY and s.actor is not None and s.actor.gm:
        HANDLERS[cmd.verb](s, cmd)
        return
    if role is Role.PLAYER and (s.actor is None or s.actor.seat is None):
        s.say(Refusal.NOT_A_PLAYER if s.actor is not None else Refusal.NOT_SIGNED_ON)
        return
    HANDLERS[cmd.verb](s, cmd)
