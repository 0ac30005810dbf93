"""A mail's parts: each SIGNON (or CREATE) begins one, and what it did is settled when it ends.

Settling a part stores the order lines it gave (``order_commands.flush_orders``) and sends the
copies owed to the players of record; closing it also warns of units left without orders and
lets the scheduler look at the game. This sits above ``order_commands`` and ``session`` so that
neither imports the other back.
"""

from __future__ import annotations

from judge.service import deadlines
from judge.service.answers import Done
from judge.service.commands import reply_text
from judge.service.commands.order_commands import flush_orders, warn_unordered_units
from judge.service.commands.session import Actor, MailSession


def sign_on(s: MailSession, actor: Actor) -> None:
    close_actor(s)
    s.actor = actor
    s.auth_failed = False
    s.signed = True
    s.touch(actor.game)


def settle(s: MailSession) -> None:
    """Store the orders collected so far and send the copies owed up to here."""
    flush_orders(s)
    actor = s.actor
    if actor is None:
        return
    part = [e for e in s.entries[actor.first_entry:] if not e.gm_only]
    for address in sorted(actor.copy_to):
        lang = reply_text.check_lang(actor.game.language)
        body = reply_text.page(lang, "copy", game=actor.game.name,
                               power=actor.power or "GM", gm=actor.gm,
                               entries=s.render_entries(part, lang))
        subject = reply_text.message(lang, "subject_copy", game=actor.game.name)
        s.send(address, subject, body, game=actor.game)
    actor.first_entry = len(s.entries)
    actor.copy_to = set()


def close_actor(s: MailSession) -> None:
    """The signon ends: settle it and forget who was acting."""
    settle(s)
    warn_unordered_units(s)
    if s.actor is not None:
        # whatever the signed-on player or GM did (orders, NOWAIT, a vote, a resignation)
        # may have made the game ready: the scheduler looks at it once this commits
        deadlines.look_now(s.session, s.actor.game, s.now)
    s.actor = None


def finish(s: MailSession) -> None:
    """The mail's last part is closed and its reply queued (once)."""
    if s.finished:
        return
    close_actor(s)
    if not any(e.messages for e in s.entries):
        s.say(Done.NOTHING)
    s.flush_joined()
    lang = s.lang
    body = reply_text.page(lang, "reply", entries=s.render_entries(s.entries, lang))
    s.reply(body, subject=s.reply_subject, lang=lang, kind=s.reply_kind())
