"""Who is asking, and what one request may still cost: the use cases' side of bounded work.

A request is one mail, one web request or one computer power's turn. Whatever carried it, the
use cases (``judge.service.usecases``) check the same limits through the :class:`Caller`: at
most ``HASHES_PER_REQUEST`` scrypt operations (new password hashes and password checks), one
password check per power (a second, different password for the same power is refused unheard),
at most ``SIGNONS_PER_REQUEST`` different seats signed on to, one game created.

The slow part of a request (scrypt, reading order lines) can be done before the database's
write transaction opens (on SQLite its write lock is process-wide, so a hostile mail's work
done under it delays everyone's): a client fills a :class:`Prepared` ahead, read-only, and the
use cases take its results instead of doing the work again. Whatever was not prepared (or no
longer applies, e.g. the phase changed in between) is done on the spot, within the same limits.

Use cases send nothing: what someone else must be told (the GM, that a seat was locked) is
left in ``Caller.notices`` for the client to deliver in its own way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from judge.adjudicator.position import Position
from judge.parsing.report import ParseReport
from judge.service.answers import CommandRefusal, Done
from judge.service.auth import hash_password, verify_password
from judge.service.rawmask import is_placeholder
from judge.settings import Settings
from judge.storage.models import Account, Game

# scrypt operations (16 MiB each) one request may cost: enough for CREATE, JOIN, a few SIGNONs
# and SET PASSWORD, not for a thousand of them
HASHES_PER_REQUEST = 10
# different seats one request may sign on to (a GM with BECOME needs one; a club secretary a few)
SIGNONS_PER_REQUEST = 10


class Denied(Exception):  # noqa: N818  (a refusal the client reports, not a failure)
    """A use case refused: ``reason`` says why, ``params`` fill its message.

    ``about`` is the game the refusal concerns when one was found (a client answers in that
    game's language).
    """

    def __init__(self, reason: CommandRefusal, about: Game | None = None, **params: Any) -> None:
        super().__init__(reason.value)
        self.reason = reason
        self.about = about
        self.params = params


# (game id, phase, power, language, rule set, the lines): what an order parse depends on
OrdersKey = tuple[int, str, str, str, str, tuple[str, ...]]


@dataclass
class Prepared:
    """Work done before the write transaction, for the use cases to take instead of redoing.

    ``verified``: (password, stored hash) -> matched. ``hashes``: password -> fresh hashes made
    for it (each used once: two seats never share a salt). ``orders``: the parse of a set of
    order lines against a game's current position.
    """

    verified: dict[tuple[str, str], bool] = field(default_factory=dict)
    hashes: dict[str, list[str]] = field(default_factory=dict)
    orders: dict[OrdersKey, tuple[ParseReport, Position]] = field(default_factory=dict)

    def verify(self, password: str, stored: str) -> None:
        if (password, stored) not in self.verified:
            self.verified[(password, stored)] = verify_password(password, stored)

    def hash(self, password: str) -> None:
        self.hashes.setdefault(password, []).append(hash_password(password))

    def take_hash(self, password: str) -> str | None:
        made = self.hashes.get(password)
        return made.pop() if made else None


@dataclass(frozen=True)
class OwedNotice:
    """Someone other than the caller must be told: ``key`` with ``params``, about ``game``."""

    to: str
    game: Game
    key: Done | CommandRefusal
    params: dict[str, Any]


@dataclass
class Caller:
    account: Account
    now: datetime
    settings: Settings
    prepared: Prepared = field(default_factory=Prepared)
    hashes_left: int = HASHES_PER_REQUEST
    # (game id, power) -> (password given, matched): one check per power per request
    tried: dict[tuple[int, str], tuple[str, bool]] = field(default_factory=dict)
    counted: set[tuple[int, str]] = field(default_factory=set)  # tries the lockout counted
    signons: dict[tuple[str, str], str] = field(default_factory=dict)  # (game, power) -> pw
    created: int = 0  # games created by this request
    notices: list[OwedNotice] = field(default_factory=list)
    # seats whose sign-on lock a confirmation from their registered address lifted for this
    # request (a held mail released, issue 25)
    unlocked: set[tuple[int, str]] = field(default_factory=set)

    def new_hash(self, password: str) -> str:
        """A new password's hash; refused when the request's scrypt budget is spent."""
        if self.hashes_left <= 0:
            raise Denied(CommandRefusal.TOO_MANY, what="passwords")
        self.hashes_left -= 1
        made = self.prepared.take_hash(password)
        if made is None and is_placeholder(password):
            # a held mail's password is gone from it: only the hash it carried can serve
            raise Denied(CommandRefusal.TOO_MANY, what="passwords")
        return made or hash_password(password)

    def check(self, game: Game, power: str, password: str, stored: str) -> bool:
        """One password check per power per request: whether ``password`` matches ``stored``.

        Refused unheard when this power's password was already tried in this request with
        another value, or when the scrypt budget is spent. A check prepared ahead costs
        nothing more: the preparation had the same bound.
        """
        key = (game.id, power)
        if key in self.tried:
            given, ok = self.tried[key]
            if given == password:
                return ok
            raise Denied(CommandRefusal.PASSWORD_ALREADY_TRIED, game)
        known = self.prepared.verified.get((password, stored))
        if known is None and is_placeholder(password):
            known = False  # a held mail whose check was not carried: never a match
        if known is None:
            if self.hashes_left <= 0:
                raise Denied(CommandRefusal.TOO_MANY, game, what="passwords")
            self.hashes_left -= 1
            known = verify_password(password, stored)
        self.tried[key] = (password, known)
        return known

    def tell(self, to: str | None, about: Game, key: Done | CommandRefusal, /,
             **params: Any) -> None:
        if to:
            self.notices.append(OwedNotice(to, about, key, params))

    def take_notices(self) -> list[OwedNotice]:
        notices, self.notices = self.notices, []
        return notices
