"""Bearer tokens for the JSON API (issue 27): asked for by mail, checked on every request.

A token is 32 random bytes (URL-safe base64), shown once in a mail to the seat's (or GM's)
address of record and kept as its SHA-256 only. Why not scrypt like the passwords: a password
is chosen by a person and can be guessed from a dictionary, so its hash must be slow; a token
has 256 bits of entropy, nothing to guess, so a fast hash protects a stolen table as well, and
every API request can be checked without a 16 MiB scrypt (bounded work per request).

A token is scoped to one game and one seat (``power``), or to that game's GM (``"GM"``);
asking for a new one revokes the old ones of the same seat (one live token per seat), and
``TOKEN OFF`` (or the GM's ``TOKEN OFF power``) revokes without a new one. A token follows
the seat, not the person: when a seat's player changes (REPLACE, EJECT) the GM revokes it.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from judge.parsing.commands import GM
from judge.storage import Session, gamerepo, guardrepo, playrepo, tokenrepo
from judge.storage.models import ApiToken, Game, Seat

TOKEN_BYTES = 32
# a bearer token is URL-safe base64 of TOKEN_BYTES: 43 characters; longer input is not one
MAX_TOKEN_CHARS = 64


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()


def issue(session: Session, game: Game, power: str, account_id: int | None,
          now: datetime) -> str:
    """A new token for ``power`` (a seat's power, or ``"GM"``) of ``game``; the seat's older
    tokens are revoked. Returns the token itself: the only time it exists in clear."""
    tokenrepo.revoke_tokens(session, game.id, power, now)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    tokenrepo.add_token(session, ApiToken(token_sha256=digest(token), game_id=game.id,
                                          power=power, account_id=account_id, created=now))
    gamerepo.audit(session, now, "api_token", game_id=game.id, actor_account_id=account_id,
                   power=power)
    return token


def revoke(session: Session, game: Game, power: str | None, now: datetime,
           by_account_id: int | None) -> int:
    """Revoke ``power``'s tokens (None: every token of the game); how many were live."""
    count = tokenrepo.revoke_tokens(session, game.id, power, now)
    gamerepo.audit(session, now, "api_token_revoked", game_id=game.id,
                   actor_account_id=by_account_id, power=power or "*")
    return count


@dataclass(frozen=True)
class Holder:
    """Who a valid token speaks for: a seat of a game, or its GM (``seat`` None)."""

    token_id: int
    game: Game
    power: str
    seat: Seat | None
    account_id: int | None

    @property
    def gm(self) -> bool:
        return self.power == GM


def holder(session: Session, token: str, now: datetime, touch: bool = True) -> Holder | None:
    """The holder of ``token`` when it is live and its seat still is the one it was given
    for (the same account holds the seat); None otherwise, whatever the reason (a caller
    learns nothing from a refusal). ``touch``: note the use in the token's row, for a write
    request only. A read runs in a deferred SQLite transaction whose first write, the
    autoflush of that note, fails at once ("database is locked", no busy wait) when another
    connection committed since its snapshot began; and a read's changes are rolled back."""
    if not token or len(token) > MAX_TOKEN_CHARS or not token.isascii():
        return None
    row = tokenrepo.token_by_digest(session, digest(token))
    if row is None or row.revoked_at is not None:
        return None
    game = guardrepo.game_by_id(session, row.game_id)
    if game is None:
        return None
    if row.power == GM:
        if game.gm_account_id != row.account_id:
            return None
        seat = None
    else:
        seat = playrepo.seat_by_power(session, game.id, row.power)
        # as SIGNON: an ejected (vacant) seat signs on no more, whoever held it
        if seat is None or seat.account_id != row.account_id or seat.status == "vacant":
            return None
    if touch:
        row.last_used_at = now
    return Holder(row.id, game, row.power, seat, row.account_id)
