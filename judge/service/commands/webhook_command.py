"""WEBHOOK: the GM posts the game's events to a chat server or a program (issue 27).

``WEBHOOK url [DISCORD|SLACK|JSON] [events]`` sets the game's one webhook (replacing any);
``WEBHOOK OFF`` removes it. The URL is checked at once (``webhooks.resolve``: http or https,
a host that resolves to public addresses only unless ``webhook_allow_private``); the key that
signs the JSON posts goes to the GM's address of record, never in the reply (From: proves
nothing). One webhook change per mail: each costs a DNS look-up.
"""

from __future__ import annotations

import contextlib

from judge.parsing.commands import Command, Verb
from judge.service import games, webhooks
from judge.service.answers import CommandRefusal, Done
from judge.service.commands import reply_text
from judge.service.commands.registry import handles
from judge.service.commands.session import MailSession
from judge.storage.models_api import WEBHOOK_EVENTS, WEBHOOK_KINDS


@handles(Verb.WEBHOOK)
def webhook_command(s: MailSession, cmd: Command) -> None:
    assert s.actor is not None
    game = s.actor.game
    if cmd.value == "off":
        webhooks.remove_hook(s.session, game)
        s.say(Done.WEBHOOK_OFF, game=game.name)
        return
    if s.counted_by.get("webhook", 0) >= 1:
        s.say(CommandRefusal.TOO_MANY, what="webhooks")
        return
    s.counted_by["webhook"] = 1
    url = cmd.value or ""
    words = list(cmd.setting or ())
    asked = next((w for w in words if w in WEBHOOK_KINDS), None)
    events = [w for w in words if w in WEBHOOK_EVENTS]
    kind = webhooks.kind_of(url, asked)
    try:
        key = webhooks.set_hook(s.session, game, url, kind, events, s.now,
                                s.settings.webhook_allow_private)
    except webhooks.HookRefused as refused:
        host = ""
        with contextlib.suppress(webhooks.HookRefused):
            host = webhooks.parse_url(url)[1]
        s.say(CommandRefusal.WEBHOOK_REFUSED, reason=refused.reason, host=host)
        return
    s.store.audit(s.now, "webhook", game_id=game.id, actor_account_id=s.account.id,
                  power="GM")
    chosen = [e for e in WEBHOOK_EVENTS if e in events] or list(WEBHOOK_EVENTS)
    s.say(Done.WEBHOOK_SET, game=game.name, kind=kind, events=chosen)
    to = games.gm_address(s.session, game)
    if to is not None:
        lang = reply_text.check_lang(game.language)
        body = reply_text.page(lang, "notice", game=game.name,
                               text=reply_text.message(lang, Done.WEBHOOK_KEY.value,
                                                       game=game.name, signing_key=key))
        s.send(to, reply_text.message(lang, "subject_notice", game=game.name), body,
                   game=game)
