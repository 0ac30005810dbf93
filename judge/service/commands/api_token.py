"""TOKEN: a bearer token for the JSON API (issue 27), asked for after a SIGNON.

``TOKEN`` mails a new token to the seat's (or, signed on as GM, the GM's) address of record,
never to the sender: From: proves nothing, and a blind game's reply names no address, so the
reply says only that it was mailed. ``TOKEN OFF`` revokes the seat's tokens; the GM's
``TOKEN OFF power`` revokes a player's. One token is issued per mail (bounded work; the mail
that carries it is the only amplification, and it goes to an address the game already has).
"""

from __future__ import annotations

from judge.parsing.commands import GM, Command, Verb
from judge.service import apitokens, games
from judge.service.answers import CommandRefusal, Done
from judge.service.commands import reply_text
from judge.service.commands.registry import handles
from judge.service.commands.session import MailSession

TOKENS_PER_MAIL = 1


@handles(Verb.TOKEN)
def token_command(s: MailSession, cmd: Command) -> None:
    assert s.actor is not None
    game = s.actor.game
    # the GM acting through BECOME still asks as the GM: a player's token is the player's
    power = GM if s.actor.gm else (s.actor.power or GM)
    if cmd.value == "off":
        if cmd.power is not None and cmd.power != power:
            if not s.actor.gm:
                s.say(CommandRefusal.NOT_GM)
                return
            power = cmd.power
        count = apitokens.revoke(s.session, game, power, s.now, s.account.id)
        s.say(Done.TOKEN_REVOKED, game=game.name, power=power, count=count)
        return
    issued = s.counted_by.get("token", 0)
    if issued >= TOKENS_PER_MAIL:
        s.say(CommandRefusal.TOO_MANY, what="tokens")
        return
    s.counted_by["token"] = issued + 1
    if power == GM:
        account_id = game.gm_account_id
    else:
        assert s.actor.seat is not None
        account_id = s.actor.seat.account_id
    to = games.address_of_account(s.session, account_id)
    if to is None:
        s.say(CommandRefusal.NOT_A_PLAYER)
        return
    token = apitokens.issue(s.session, game, power, account_id, s.now)
    lang = reply_text.check_lang(game.language)
    body = reply_text.page(lang, "notice", game=game.name,
                           text=reply_text.message(lang, Done.API_TOKEN.value, game=game.name,
                                                   power=power, token=token))
    subject = reply_text.message(lang, "subject_notice", game=game.name)
    s.send(to, subject, body, game=game)
    s.say(Done.TOKEN_MAILED, game=game.name, power=power)
