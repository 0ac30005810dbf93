"""The mail session's guards: confirmations asked and answered, held mail.

Sign-on lockouts are the use cases' (``judge.service.lockout``): they hold for every client.
By mail, a sign-on to a locked seat is not refused but held (``hold_locked``): the seat's
registered address is asked to confirm, and its answer releases the mail.

A held mail's passwords are replaced by placeholders in its stored copy before it is stored
(``MailContext.held_mask``, the drain masks it); what its handling needs of them (fresh
hashes, whether a sign-on matched) travels in the confirmation (``confirm.held_secrets``).

See ``judge.service.confirm`` for why; this module applies it to one mail's commands.
"""

from __future__ import annotations

import logging

from judge.parsing.command_table import spec
from judge.parsing.commands import GM, Verb
from judge.service import confirm, games, lockout, rawmask
from judge.service.answers import CommandRefusal, Done
from judge.service.commands import newcomer, reply_text
from judge.service.commands.session import MailSession
from judge.storage import recordrepo
from judge.storage.models import Confirmation, Game

log = logging.getLogger(__name__)

def sender_confirmed(s: MailSession) -> bool:
    return s.account.confirmed_at is not None


def hold_unconfirmed(s: MailSession) -> bool:
    """Hold a mail that would add its unconfirmed sender to a game; True if held (or
    dropped because no confirmation may be sent)."""
    if sender_confirmed(s):
        return False
    # a command that adds the SENDER's address to a game waits until that address answers
    if not any(spec(cmd.verb).adds_sender for cmd in s.parsed.commands()):
        return False
    address = s.account.address
    why = s.requests.refusal(address)
    if why is not None:
        log.warning("inbound %s from %s: not handled, no confirmation sent (%s)",
                    s.inbound_id, address, why)
        s.drop_note = f"no reply: held for confirmation, none may be sent ({why})"
        s.finished = True
        return True
    token = s.requests.make(address, "mail", inbound_id=s.inbound_id, lang=s.lang,
                            payload=_held_payload(s))
    s.held = s.inbound_id is not None
    s.begin(None)
    s.say(Done.CONFIRM_HELD, token=token, days=_days(s))
    s.reply_subject = confirm.SUBJECT.format(token=token)
    return True


def _held_payload(s: MailSession) -> dict[str, object]:
    """What the held mail's handling will need of its passwords; sets the mask the drain
    applies to its stored copy."""
    if s.inbound_id is None:
        return {}
    mapping = rawmask.placeholders(s.secrets)
    s.held_mask = mapping
    return {"held": {str(s.inbound_id): confirm.held_secrets(s.prepared, mapping)}}


# mails held for one locked seat until its registered address answers: more are refused
HELD_PER_SEAT = 5


def hold_locked(s: MailSession) -> bool:
    """Hold a mail that signs on to a locked seat (issue 25); True if held or refused.

    Nothing is checked: the seat's registered address is mailed ONE confirmation (one at a
    time per seat, so a guesser cannot make it spam), and the mails held meanwhile (at most
    ``HELD_PER_SEAT``) are handled when it is answered, the lock lifted for them alone. The
    sender is told that much, whatever the password."""
    for cmd in s.parsed.commands():
        if cmd.verb is not Verb.SIGNON or not cmd.game:
            continue
        game = s.store.game_by_name(cmd.game)
        power = cmd.power or ""
        if game is None or (game.id, power) in s.caller.unlocked \
                or not lockout.locked(s.session, s.caller, game, power):
            continue
        registered = lockout.registered_address(s.session, game, power)
        if registered is None or s.inbound_id is None:
            return False  # refused as locked by the use case
        _hold_for_seat(s, game, power, registered)
        return True
    return False


def _hold_for_seat(s: MailSession, game: Game, power: str, registered: str) -> None:
    s.touch(game)
    s.begin(None)
    inbound = str(s.inbound_id)
    pending = s.store.pending_signon(game.id, power, s.now)
    held = dict((pending.payload or {}).get("held", {})) if pending is not None else {}
    if pending is not None and len(held) >= HELD_PER_SEAT:
        log.warning("inbound %s: %s in %s locked, %d mails already held: not kept",
                    inbound, power, game.name, len(held))
        s.say(CommandRefusal.SIGNON_LOCKED, game=game.name)
        return
    mapping = rawmask.placeholders(s.secrets)
    held[inbound] = confirm.held_secrets(s.prepared, mapping)
    if pending is not None:
        pending.payload = {**(pending.payload or {}), "held": held}
    else:
        lang = reply_text.check_lang(game.language)
        token = s.requests.make(registered, "signon", game_id=game.id, power=power,
                                inbound_id=s.inbound_id, lang=lang,
                                payload={"held": held})
        text = reply_text.message(lang, Done.CONFIRM_SIGNON.value, game=game.name,
                                  power=power, token=token, days=_days(s))
        body = reply_text.page(lang, "notice", game=game.name, text=text)
        s.send(registered, confirm.SUBJECT.format(token=token), body, game=game,
                   kind="confirmation")
    s.held = True
    s.held_mask = mapping
    s.say(Done.SIGNON_HELD, game=game.name, power=power)


def _days(s: MailSession) -> int:
    return max(1, round(s.settings.confirmation_days))


def ask_address(s: MailSession, game: Game, power: str, address: str, action: str) -> bool:
    """Send ``address`` the confirmation of an address change (``action`` "address") or of
    a replacement ("replace"); False (refusal said) when none may be sent."""
    why = s.requests.refusal(address)
    if why is not None:
        log.warning("no confirmation to %s (%s)", address, why)
        s.say(CommandRefusal.CONFIRM_LIMIT, reason=why)
        return False
    lang = reply_text.check_lang(game.language)
    token = s.requests.make(address, action, game_id=game.id, power=power, lang=lang)
    key = Done.CONFIRM_REPLACE if action == "replace" else Done.CONFIRM_ADDRESS
    text = reply_text.message(lang, key.value, game=game.name, power=power, token=token,
                          days=_days(s))
    body = reply_text.page(lang, "notice", game=game.name, text=text)
    s.send(address, confirm.SUBJECT.format(token=token), body, game=game,
               kind="confirmation")
    s.say(Done.CONFIRM_SENT, game=game.name, address=address)
    return True


def answer(s: MailSession) -> bool:
    """Apply the confirmation this mail answers, if it answers one; True if it did."""
    found = confirm.find_answer(s)
    if found is None:
        return False
    s.begin(None)
    # said in the language of the word (CONFERMA: Italian), else of the request, else of the
    # game (``touch`` below): never English to everyone (issue 28)
    s.lang_hint = found.lang if found.lang != "en" else None
    row = confirm.take(s, found.token)
    if row is not None and s.lang_hint is None:
        asked = (row.payload or {}).get("lang")
        s.lang_hint = asked if isinstance(asked, str) else None
    if row is None:
        s.say(CommandRefusal.CONFIRM_UNKNOWN)
        return True
    s.signed = True  # the token was mailed to that address alone: a person read it
    if row.action == "replace" and not found.password:
        row.status = "pending"  # not used up: the player only forgot the password
        row.done_at = None
        s.say(CommandRefusal.CONFIRM_NEEDS_PASSWORD, token=found.token)
        return True
    if row.address.lower() == s.account.address.lower():
        s.account.confirmed_at = s.account.confirmed_at or s.now
    game = s.store.game_by_id(row.game_id) if row.game_id else None
    if game is not None:
        s.touch(game)
    if row.action == "mail":
        if row.inbound_id is not None:
            s.store.requeue_held(row.inbound_id)
        s.say(Done.CONFIRMED, action="mail", game=None, power=None)
        return True
    if row.action == "signon":
        # every mail held for the locked seat is handled again, its lock lifted for it alone
        for inbound in (row.payload or {}).get("held", {}):
            s.store.requeue_held(int(inbound))
        s.say(Done.CONFIRMED, action="signon", game=game.name if game else None,
              power=row.power)
        return True
    if game is None or not _apply(s, row, game, found.password):
        s.say(CommandRefusal.CONFIRM_STALE)
        return True
    s.say(Done.CONFIRMED, action=row.action, game=game.name, power=row.power)
    if row.action == "replace":
        seat = s.store.seat_by_power(game.id, row.power or "")
        if seat is not None:
            newcomer.took_over(s, game, seat)
    return True


def _apply(s: MailSession, row: Confirmation, game: Game, password: str | None) -> bool:
    account = s.store.confirm_account(row.address, s.now)
    if row.power == GM:
        if row.action != "address" or game.gm_account_id != row.requested_by_id:
            return False
        game.gm_account_id = account.id
    else:
        seat = s.store.seat_by_power(game.id, row.power or "")
        if seat is None:
            return False
        if row.action == "address":
            # the seat must still be the requester's: a stale request changes nothing
            if seat.account_id != row.requested_by_id:
                return False
            seat.account_id = account.id
        else:
            if game.status == "finished" or game.gm_account_id != row.requested_by_id:
                return False
            old = games.address_of_account(s.session, seat.account_id)
            if old and old.lower() != account.address.lower():
                s.notify(old, game, Done.EJECTED, game=game.name, power=seat.power)
            if seat.account_id is not None and seat.account_id != account.id:
                recordrepo.count(s.session, seat.account_id, game.id, replaced=1)  # issue 30
                games.drop_absences(game, seat.account_id)
            seat.account_id = account.id
            # the scrypt of the new password was made before the write transaction
            seat.password_hash = s.caller.new_hash(password or "")
            seat.status = "active"
            seat.strikes = 0
            seat.wait = False
    s.store.audit(s.now, f"confirmed_{row.action}", game_id=game.id,
                   actor_account_id=account.id, power=row.power)
    return True
