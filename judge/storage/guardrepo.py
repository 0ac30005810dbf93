"""Repository functions for address confirmations, sign-on lockouts and raw-mail retention."""

from __future__ import annotations

import hashlib
from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from judge.storage.models_game import Account, Game, Press, Seat
from judge.storage.models_guard import Confirmation, SignonLock
from judge.storage.models_mail import InboundMail


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()


def account_by_address(session: Session, address: str) -> Account | None:
    return session.scalar(select(Account).where(func.lower(Account.address) == address.lower()))


def is_confirmed(session: Session, address: str) -> bool:
    account = account_by_address(session, address)
    return account is not None and account.confirmed_at is not None


def confirm_account(session: Session, address: str, now: datetime) -> Account:
    account = account_by_address(session, address)
    if account is None:
        account = Account(address=address, display_name="", created=now)
        session.add(account)
    if account.confirmed_at is None:
        account.confirmed_at = now
    session.flush()
    return account


def add_confirmation(session: Session, row: Confirmation) -> Confirmation:
    session.add(row)
    session.flush()
    return row


def confirmation_by_token(session: Session, token: str) -> Confirmation | None:
    return session.scalar(select(Confirmation).where(
        Confirmation.token_sha256 == token_digest(token)))


def confirmations_since(session: Session, since: datetime, address: str | None = None,
                        requested_by_id: int | None = None) -> int:
    """Confirmations sent since ``since`` to ``address`` or asked for by an account."""
    stmt = select(func.count(Confirmation.id)).where(Confirmation.created >= since)
    if address is not None:
        stmt = stmt.where(func.lower(Confirmation.address) == address.lower())
    if requested_by_id is not None:
        stmt = stmt.where(Confirmation.requested_by_id == requested_by_id)
    return int(session.scalar(stmt) or 0)


def pending_for_mail(session: Session, inbound_id: int) -> Confirmation | None:
    return session.scalar(select(Confirmation).where(
        Confirmation.inbound_id == inbound_id, Confirmation.status == "pending"))


def expire_confirmations(session: Session, now: datetime) -> list[int]:
    """Mark overdue confirmations expired; returns the ids of the mails they held."""
    rows = list(session.scalars(select(Confirmation).where(
        Confirmation.status == "pending", Confirmation.expires_at <= now)))
    held = []
    for row in rows:
        row.status = "expired"
        row.done_at = now
        if row.inbound_id is not None:
            held.append(row.inbound_id)
        # the further mails held for the same locked seat (issue 25)
        held.extend(int(key) for key in (row.payload or {}).get("held", {})
                    if key.isdigit() and int(key) != row.inbound_id)
    if held:
        session.execute(update(InboundMail).where(
            InboundMail.id.in_(held), InboundMail.status == "held").values(
            status="done", processed_at=now, raw=b"",
            note="dropped: address not confirmed in time"))
    session.flush()
    return held


def purge_raw(session: Session, before: datetime) -> int:
    """Empty the stored raw bytes of mail handled before ``before`` (held or failed mail
    keeps them: it is still to be handled). Returns how many were emptied."""
    result = session.execute(update(InboundMail).where(
        InboundMail.status == "done", InboundMail.processed_at < before,
        InboundMail.raw != b"").values(raw=b""))
    return int(getattr(result, "rowcount", 0) or 0)


def requeue_held(session: Session, inbound_id: int) -> bool:
    result = session.execute(update(InboundMail).where(
        InboundMail.id == inbound_id, InboundMail.status == "held").values(status="new"))
    return bool(getattr(result, "rowcount", 0))


def signon_lock(session: Session, game_id: int, power: str) -> SignonLock | None:
    return session.scalar(select(SignonLock).where(
        SignonLock.game_id == game_id, SignonLock.power == power))


def signon_lock_for_update(session: Session, game_id: int, power: str) -> SignonLock:
    row = signon_lock(session, game_id, power)
    if row is None:
        row = SignonLock(game_id=game_id, power=power, failures=0, gm_told=False)
        session.add(row)
        session.flush()
    return row


def seat_by_relay_secret(session: Session, game_id: int, secret: str) -> Seat | None:
    return session.scalar(select(Seat).where(Seat.game_id == game_id,
                                             Seat.relay_secret == secret))


def game_by_id(session: Session, game_id: int) -> Game | None:
    return session.get(Game, game_id)


def press_sent_since(session: Session, game_id: int, power: str, since: datetime) -> int:
    """Press messages ``power`` sent in game ``game_id`` since ``since`` (the daily budget)."""
    return int(session.scalar(
        select(func.count()).select_from(Press).where(
            Press.game_id == game_id, Press.from_power == power, Press.created >= since)) or 0)


def pending_signon(session: Session, game_id: int, power: str, now: datetime
                   ) -> Confirmation | None:
    """The unanswered, unexpired confirmation that releases mail held for a locked seat."""
    return session.scalar(select(Confirmation).where(
        Confirmation.action == "signon", Confirmation.status == "pending",
        Confirmation.game_id == game_id, Confirmation.power == power,
        Confirmation.expires_at > now).order_by(Confirmation.id).limit(1))


def answered_for_mail(session: Session, inbound_id: int, since: datetime
                      ) -> list[Confirmation]:
    """The answered confirmations that released mail ``inbound_id``: the one that held it,
    and a locked seat's (answered since ``since``) that names it among its held mails."""
    rows = session.scalars(select(Confirmation).where(
        Confirmation.status == "confirmed",
        (Confirmation.inbound_id == inbound_id)
        | ((Confirmation.action == "signon") & (Confirmation.done_at >= since)))).all()
    return [row for row in rows if row.inbound_id == inbound_id
            or str(inbound_id) in (row.payload or {}).get("held", {})]
