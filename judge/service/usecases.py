"""The judge's use cases: what a player or a GM may do, whatever carried the request.

Mail is one client (``judge.service.commands`` turns a mail's lines into calls of these
functions and their answers into a reply); the web play page and computer powers are meant to
call the same functions, so a rule enforced here (a password, a game's status, the current
phase) holds for all of them. Nothing here knows about mail: no replies, no copies, no language.

Each function runs inside the caller's transaction (``session``: a ``judge.storage`` session),
changes game state through the repositories of ``judge.storage`` and returns a plain result; a
refusal raises :class:`Denied` with the :class:`~judge.service.answers.CommandRefusal` member
that says why and the values its message needs. Time always arrives as ``now``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from judge.adjudicator.position import Position
from judge.parsing.commands import GM
from judge.parsing.report import ParseReport, parse_orders
from judge.service import games, turns
from judge.service.answers import CommandRefusal
from judge.service.auth import hash_password, verify_password
from judge.settings import Settings
from judge.storage import gamerepo, playrepo
from judge.storage.models import Account, Game, Seat

Session = Any  # a judge.storage session (SQLAlchemy stays inside judge.storage)

# a paused game still takes orders: only the clock stops
ORDERS_OPEN = ("active", "paused")
# seat statuses of a player out of the game after a second ONP (seed 002): his orders are void
EXCLUDED = ("abandoned", "sommossa")


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


# ---------------------------------------------------------------- signing on


@dataclass(frozen=True)
class SignedOn:
    game: Game
    seat: Seat | None  # None: the GM
    address_of_record: str | None  # where the player (or GM) of record is written to


def sign_on(session: Session, game_name: str, power: str, password: str) -> SignedOn:
    """Check a power's (or, with ``power == "GM"``, the GM's) password for a game."""
    game = gamerepo.game_by_name(session, game_name)
    if game is None:
        raise Denied(CommandRefusal.NO_SUCH_GAME, game=game_name)
    if power == GM:
        if not verify_password(password, game.password_hash):
            raise Denied(CommandRefusal.WRONG_PASSWORD, game, game=game.name)
        return SignedOn(game, None, games.gm_address(session, game))
    seat = playrepo.seat_by_power(session, game.id, power)
    if seat is None or seat.account_id is None or seat.status == "vacant":
        raise Denied(CommandRefusal.POWER_NOT_IN_GAME, game, game=game.name, power=power)
    if not verify_password(password, seat.password_hash):
        raise Denied(CommandRefusal.WRONG_PASSWORD, game, game=game.name)
    return SignedOn(game, seat, games.address_of_account(session, seat.account_id))


# ---------------------------------------------------------------- forming games


def create_game(session: Session, gm: Account, name: str, password: str, language: str,
                now: datetime, allowed: Collection[str] | None = None) -> Game:
    """A new forming game with ``gm`` as its GM; ``allowed``: who may create games (None: all)."""
    if allowed and gm.address.lower() not in (a.lower() for a in allowed):
        raise Denied(CommandRefusal.CREATE_NOT_ALLOWED)
    if not games.valid_game_name(name):
        raise Denied(CommandRefusal.BAD_GAME_NAME, game=name)
    if gamerepo.game_by_name(session, name) is not None:
        raise Denied(CommandRefusal.GAME_EXISTS, game=name)
    return games.create_game(session, name, hash_password(password), gm, language, now)


@dataclass(frozen=True)
class Joined:
    game: Game
    count: int  # players in the game now
    needed: int  # players the game needs to start
    gm_address: str | None

    @property
    def full(self) -> bool:
        return self.count == self.needed


def join_game(session: Session, player: Account, game_name: str, password: str,
              preferences: Sequence[str], now: datetime) -> Joined:
    """Take a seat in a forming game, with an optional list of preferred powers."""
    game = gamerepo.game_by_name(session, game_name)
    if game is None:
        raise Denied(CommandRefusal.NO_SUCH_GAME, game=game_name)
    if game.status != "forming":
        raise Denied(CommandRefusal.GAME_NOT_FORMING, game, game=game.name)
    seats = gamerepo.seats(session, game.id)
    if any(seat.account_id == player.id for seat in seats):
        raise Denied(CommandRefusal.ALREADY_IN_GAME, game, game=game.name)
    needed = games.game_variant(game).players
    if len(seats) >= needed:
        raise Denied(CommandRefusal.GAME_FULL, game, game=game.name)
    taken = {seat.power for seat in seats}
    placeholder = next(f"{games.PLACEHOLDER}{n}" for n in range(1, needed + 1)
                       if f"{games.PLACEHOLDER}{n}" not in taken)
    session.add(Seat(game_id=game.id, power=placeholder, account_id=player.id,
                     status="active", password_hash=hash_password(password),
                     preferences=list(preferences)))
    session.flush()
    gamerepo.audit(session, now, "join", game_id=game.id, actor_account_id=player.id)
    return Joined(game, len(seats) + 1, needed, games.gm_address(session, game))


# ---------------------------------------------------------------- orders and phases


@dataclass(frozen=True)
class OrdersOutcome:
    report: ParseReport  # every line read, with its reason when refused
    position: Position
    stored: list[str]  # the canonical orders that stand
    version: int | None  # the order_set version written; None when nothing was stored
    missing: list[str]  # units of the power still without an order

    @property
    def all_refused(self) -> bool:
        return not self.stored and bool(self.report.errors)


def submit_orders(session: Session, game: Game, power: str, lines: Sequence[str], now: datetime,
                  *, by_account_id: int | None, previous: Sequence[str] | None = None
                  ) -> OrdersOutcome:
    """Read ``lines`` as ``power``'s whole set for the current phase and store what stands.

    Nothing is stored when every line was refused, or when the set equals ``previous`` (what
    the same client stored last): a set that changed nothing makes no new version.
    """
    if game.status not in ORDERS_OPEN:
        raise Denied(CommandRefusal.NO_ORDERS_ACCEPTED, game, game=game.name, status=game.status)
    seat = playrepo.seat_by_power(session, game.id, power)
    if seat is not None and seat.status in EXCLUDED:
        raise Denied(CommandRefusal.OUT_OF_GAME, game, game=game.name, power=power,
                     status=seat.status)
    position = games.load_position(game)
    report = parse_orders(list(lines), game.language, position=position, power=power)
    stored = [str(order) for order in report.orders]
    version = None
    if not (report.errors and not stored) and (previous is None or stored != list(previous)):
        row = gamerepo.submit_orders(session, game.id, game.phase, power, stored, now,
                                     submitted_by_id=by_account_id)
        version = row.version
    return OrdersOutcome(report, position, stored, version,
                         without_orders(position, power, stored))


def without_orders(position: Position, power: str, orders: Sequence[str]) -> list[str]:
    """Units (or dislodged units) of ``power`` that the stored set leaves without an order."""
    ordered = {" ".join(o.split()[:2]).split("/")[0] for o in orders}
    if position.phase.is_adjustment:
        return []
    if position.phase.is_retreat:
        units = [d.unit for d in position.dislodged.values() if d.unit.power == power]
    else:
        units = position.units_of(power)
    return [str(u) for u in units if f"{u.type.value} {u.province}" not in ordered]


def process_phase(session: Session, game: Game, phase: str, now: datetime,
                  settings: Settings, *, force: bool = False) -> turns.TurnReport:
    """Adjudicate ``phase`` now (it must be the game's current phase, the game active).

    While the game waits for a replacement player (seed 002: a week for the search) only a
    ``force``d request cuts the wait short.
    """
    if game.status != "active":
        raise Denied(CommandRefusal.GAME_NOT_ACTIVE, game, game=game.name)
    if phase != game.phase:
        raise Denied(CommandRefusal.NOT_CURRENT_PHASE, game, phase=phase, current=game.phase)
    state = games.options(game).get("turn_state") or {}
    if state.get("suspended") and state.get("phase") == game.phase and not force:
        raise Denied(CommandRefusal.SUSPENDED_FOR_REPLACEMENT, game, game=game.name,
                     phase=game.phase, power=state.get("replacement_for"),
                     deadline=games.local_time(game, game.deadline) if game.deadline else "")
    return turns.process(session, game, now, settings, force=True)
