"""Confirmed addresses: the judge writes to no address that has not answered a token.

A hostile sender can forge any From, so a mail is no proof that its sender reads the address
it names. Before anything adds an address to a game (JOIN or CREATE from a new address, OBSERVE,
SET ADDRESS, REPLACE) that address gets ONE mail: a confirmation carrying a random token; only
an answer with the line ``CONFIRM <token>`` confirms it.

A confirmation is a person's act (issue 25): the token counts only on a line of its own,
outside quoted text, after the command word in any of the judge's languages (CONFIRM,
CONFERMA, CONFERMO, CONFIRMER). A subject that still says ``confirm <token>`` confirms
nothing: an out-of-office reply quotes subjects (and bodies). Mail that looks automatic never
gets this far (``judge.mail.loopguard``: the usual headers, and auto-reply subjects).

* A mail from an unconfirmed sender that would add it to a game is *held* whole (the inbound
  row turns ``held``) and answered with the confirmation; once confirmed it is handled again
  from the start, as if just received. Its sender gets one mail, the one confirmation.
* SET ADDRESS / REPLACE to an address that has not confirmed send it the confirmation; the
  change is made when it answers (REPLACE: with the password the new player chooses, so no
  password is ever mailed).
* At most one confirmation per inbound mail, and daily caps per address and per requester
  (``confirmations_per_address_per_day``, ``confirmations_per_sender_per_day``); past them the
  request is refused (logged) and nothing is mailed. Unanswered confirmations expire after
  ``confirmation_days`` and the mails they held are dropped with a reason.

Only the token's SHA-256 is stored. Answers carry no weight as automatic mail: auto-replies
(which quote subjects) never reach this module (see ``judge.mail.loopguard``).
"""

from __future__ import annotations

import logging
import re
import secrets
from datetime import datetime, timedelta

from judge.service.auth import hash_password
from judge.service.caller import HASHES_PER_REQUEST, Prepared
from judge.service.mail_commands import TOKEN_HEX, ConfirmationAnswer
from judge.service.uow import MailContext
from judge.storage import guardrepo
from judge.storage.models import Confirmation

log = logging.getLogger(__name__)

# the token in a confirmation's subject (what ``token_in_subject`` reads back, tests and tools)
IN_SUBJECT = re.compile(rf"\bconfirm\s+([0-9a-f]{{{TOKEN_HEX}}})\b", re.IGNORECASE)
# the subject a confirmation carries; a reply ("Re: confirm ...") keeps it
SUBJECT = "confirm {token}"


def find_answer(ctx: MailContext) -> ConfirmationAnswer | None:
    """The token this mail answers: a ``CONFIRM <token>`` line of its own, unquoted."""
    return ctx.commands().answer


def token_in_subject(subject: str) -> str | None:
    """The token of a confirmation mail's subject, else None (it confirms nothing)."""
    match = IN_SUBJECT.search(subject or "")
    return match.group(1).lower() if match else None


def new_token() -> str:
    return secrets.token_hex(TOKEN_HEX // 2)


class Requests:
    """The confirmations one mail may cause: at most one, within the daily caps."""

    def __init__(self, ctx: MailContext, requester_id: int | None) -> None:
        self.ctx = ctx
        self.requester_id = requester_id
        self.made = 0

    def refusal(self, address: str) -> str | None:
        """Why no confirmation may be sent to ``address`` now (None: it may)."""
        settings, now = self.ctx.settings, self.ctx.now
        if self.made:
            return "one_per_mail"
        since = now - timedelta(days=1)
        session = self.ctx.session
        if guardrepo.confirmations_since(session, since, address=address) \
                >= settings.confirmations_per_address_per_day:
            return "address_cap"
        if self.requester_id is not None and guardrepo.confirmations_since(
                session, since, requested_by_id=self.requester_id) \
                >= settings.confirmations_per_sender_per_day:
            return "sender_cap"
        return None

    def make(self, address: str, action: str, *, game_id: int | None = None,
             power: str | None = None, inbound_id: int | None = None,
             lang: str | None = None, payload: dict[str, object] | None = None) -> str:
        """Store a pending confirmation; returns the token (mailed by the caller). ``lang``:
        the language the request was made in (the acknowledgement is said in it)."""
        token = new_token()
        now = self.ctx.now
        guardrepo.add_confirmation(self.ctx.session, Confirmation(
            token_sha256=guardrepo.token_digest(token), address=address, action=action,
            requested_by_id=self.requester_id, inbound_id=inbound_id, game_id=game_id,
            power=power, payload={**(payload or {}), **({"lang": lang} if lang else {})},
            status="pending", created=now,
            expires_at=now + timedelta(days=self.ctx.settings.confirmation_days)))
        self.made += 1
        log.info("confirmation (%s) sent to %s", action, address)
        return token


def held_secrets(prepared: Prepared | None, mapping: dict[str, str]) -> dict[str, object]:
    """What a held mail's handling will need of its passwords, by placeholder (issue 25):
    the fresh hashes made for it (CREATE, JOIN, SET PASSWORD) and whether each sign-on
    matched (with the stored hash it was checked against). Never the password: the held
    mail's raw copy carries the placeholders (``judge.service.rawmask.mask_held``).

    A mail another drain took before this one could prepare it carries nothing prepared: a
    password with neither a hash nor a check gets its hash made here (within the mail's scrypt
    budget), or the held CREATE or JOIN could never be handled once confirmed."""
    found: dict[str, object] = {}
    budget = HASHES_PER_REQUEST
    for word, placeholder in mapping.items():
        hashes = list(prepared.hashes.get(word, [])) if prepared is not None else []
        checks = [[stored, ok] for (given, stored), ok in prepared.verified.items()
                  if given == word] if prepared is not None else []
        if not hashes and not checks and budget > 0:
            hashes, budget = [hash_password(word)], budget - 1
        found[placeholder] = {"hashes": hashes, "checks": checks}
    return found


def restore(ctx: MailContext, prepared: Prepared) -> set[tuple[int, str]]:
    """A held mail handled again once its confirmation was answered: its placeholders' hashes
    and sign-on results put back into ``prepared``; returns the seats (game id, power) whose
    lock the answer lifted for this mail (a confirmation mailed to the seat's address)."""
    if ctx.inbound_id is None:
        return set()
    since = ctx.now - timedelta(days=ctx.settings.confirmation_days)
    unlocked: set[tuple[int, str]] = set()
    for row in guardrepo.answered_for_mail(ctx.session, ctx.inbound_id, since):
        held = (row.payload or {}).get("held", {}).get(str(ctx.inbound_id), {})
        for placeholder, needs in held.items():
            prepared.hashes.setdefault(placeholder, []).extend(needs.get("hashes", []))
            for stored, ok in needs.get("checks", []):
                prepared.verified[(placeholder, stored)] = bool(ok)
        if row.action == "signon" and row.game_id is not None and row.power:
            unlocked.add((row.game_id, row.power))
    return unlocked


def take(ctx: MailContext, token: str) -> Confirmation | None:
    """The pending, unexpired confirmation of ``token``, marked confirmed; else None."""
    row = guardrepo.confirmation_by_token(ctx.session, token)
    if row is None or row.status != "pending" or row.expires_at <= ctx.now:
        return None
    row.status = "confirmed"
    row.done_at = ctx.now
    guardrepo.confirm_account(ctx.session, row.address, ctx.now)
    return row


def sweep(session: object, now: datetime, retention_days: float) -> tuple[int, int]:
    """Expire overdue confirmations (dropping the mails they held) and empty the raw bytes
    of mail handled more than ``retention_days`` ago. Returns (mails dropped, raws emptied)."""
    dropped = guardrepo.expire_confirmations(session, now)  # type: ignore[arg-type]
    for inbound_id in dropped:
        log.info("inbound %s dropped: its sender did not confirm the address in time",
                 inbound_id)
    emptied = 0
    if retention_days > 0:
        emptied = guardrepo.purge_raw(session, now - timedelta(days=retention_days))  # type: ignore[arg-type]
    return len(dropped), emptied
