"""The judge's use cases: what a player or a GM may do, whatever carried the request.

Mail is one client (``judge.service.commands`` turns a mail's lines into calls of these
functions and their answers into a reply); the web play page and computer powers are meant to
call the same functions, so a rule enforced here (a password, a game's status, the current
phase) holds for all of them. Nothing here knows about mail: no replies, no copies, no language.

Each function runs inside the caller's transaction (``session``: a ``judge.storage`` session),
changes game state through the repositories of ``judge.storage`` and returns a plain result; a
refusal raises :class:`Denied` with the :class:`~judge.service.answers.CommandRefusal` member
that says why and the values its message needs. Time always arrives as ``now`` (or with the
:class:`~judge.service.caller.Caller`, which also carries who asks and what the request may
still cost: the security limits hold here, for every client, not in the mail handlers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from judge.parsing.commands import GM
from judge.rules.reliability import Record
from judge.service import games, lockout, turns, webhooks
from judge.service.answers import CommandRefusal, Done
from judge.service.caller import SIGNONS_PER_REQUEST, Caller, Denied, Prepared
from judge.service.draw_vote import vote_draw
from judge.service.order_sets import (
    EXCLUDED,
    ORDERS_OPEN,
    OrdersOutcome,
    orders_key,
    prepare_orders,
    read_orders,
    submit_orders,
    without_orders,
)
from judge.settings import Settings
from judge.storage import Session, gamerepo, playrepo, recordrepo
from judge.storage.models import Game, Seat

# the order-set use cases live in judge.service.order_sets (see there why) and are part of
# this API all the same
__all__ = ["EXCLUDED", "ORDERS_OPEN", "Caller", "Denied", "Joined", "OrdersOutcome", "Prepared",
           "SignedOn", "create_game", "join_game", "observe", "orders_key", "prepare_orders",
           "process_phase", "read_orders", "set_password", "sign_on", "start_game",
           "submit_orders", "vote_draw", "without_orders"]

# ---------------------------------------------------------------- signing on


@dataclass(frozen=True)
class SignedOn:
    game: Game
    seat: Seat | None  # None: the GM
    address_of_record: str | None  # where the player (or GM) of record is written to


def sign_on(session: Session, caller: Caller, game_name: str, power: str,
            password: str) -> SignedOn:
    """Check a power's (or, with ``power == "GM"``, the GM's) password for a game.

    Bounded per request: a repeated sign-on to the same seat is answered without touching the
    database (a thousand guesses for one seat cost one look-up and one password check), and a
    request signs on to at most ``SIGNONS_PER_REQUEST`` seats. A locked seat is refused unheard,
    whatever address asks (a From proves nothing, issue 25), unless a confirmation its
    registered address answered released this request (``Caller.unlocked``); each request's
    first wrong password for a seat counts towards its lockout, whoever sent it.
    """
    key = (game_name.lower(), power)
    given = caller.signons.get(key)
    if given is not None and given != password:
        raise Denied(CommandRefusal.PASSWORD_ALREADY_TRIED)
    if given is None and len(caller.signons) >= SIGNONS_PER_REQUEST:
        raise Denied(CommandRefusal.TOO_MANY, what="signons")
    caller.signons[key] = password
    game = gamerepo.game_by_name(session, game_name)
    if game is None:
        raise Denied(CommandRefusal.NO_SUCH_GAME, game=game_name)
    if power == GM:
        _password_ok(session, caller, game, GM, password, game.password_hash)
        return SignedOn(game, None, games.gm_address(session, game))
    seat = playrepo.seat_by_power(session, game.id, power)
    if seat is None or seat.account_id is None or seat.status == "vacant":
        raise Denied(CommandRefusal.POWER_NOT_IN_GAME, game, game=game.name, power=power)
    _password_ok(session, caller, game, seat.power, password, seat.password_hash)
    return SignedOn(game, seat, games.address_of_account(session, seat.account_id))


def _password_ok(session: Session, caller: Caller, game: Game, power: str, password: str,
                 stored: str) -> None:
    """The sign-on's password check (raises when refused): refused unheard while the seat is
    locked (unless released), at most once per power per request, each failure counted
    towards the lockout."""
    released = (game.id, power) in caller.unlocked
    if not released and lockout.locked(session, caller, game, power):
        raise Denied(CommandRefusal.SIGNON_LOCKED, game, game=game.name)
    key = (game.id, power)
    fresh = key not in caller.counted  # the lockout counts one try per power per request
    caller.counted.add(key)
    if caller.check(game, power, password, stored):
        if fresh:
            lockout.succeeded(session, game, power)
        return
    if fresh:
        lockout.failed(session, caller, game, power)
    raise Denied(CommandRefusal.WRONG_PASSWORD, game, game=game.name)


# ---------------------------------------------------------------- forming games


def _confirmed(caller: Caller, game: Game | None = None) -> None:
    """Nothing adds an address to a game before it answered a confirmation (issue 10)."""
    if caller.account.confirmed_at is None:
        raise Denied(CommandRefusal.ADDRESS_NOT_CONFIRMED, game,
                     address=caller.account.address)


def create_game(session: Session, caller: Caller, name: str, password: str,
                language: str) -> Game:
    """A new forming game with the caller as its GM (one per request).

    Who may create games is ``settings.create_allowed`` (empty: anyone)."""
    allowed = caller.settings.create_allowed
    if allowed and caller.account.address.lower() not in (a.lower() for a in allowed):
        raise Denied(CommandRefusal.CREATE_NOT_ALLOWED)
    if not games.valid_game_name(name):
        raise Denied(CommandRefusal.BAD_GAME_NAME, game=name)
    if gamerepo.game_by_name(session, name) is not None:
        raise Denied(CommandRefusal.GAME_EXISTS, game=name)
    if caller.created:
        raise Denied(CommandRefusal.TOO_MANY, what="games")
    _confirmed(caller)
    password_hash = caller.new_hash(password)
    caller.created += 1
    return games.create_game(session, name, password_hash, caller.account, language,
                             caller.now)


@dataclass(frozen=True)
class Joined:
    game: Game
    count: int  # players in the game now
    needed: int  # players the game needs to start
    gm_address: str | None

    @property
    def full(self) -> bool:
        return self.count == self.needed


def join_game(session: Session, caller: Caller, game_name: str, password: str,
              preferences: Sequence[str]) -> Joined:
    """Take a seat in a forming game, with an optional list of preferred powers.

    When the game is full the GM is told (``caller.notices``)."""
    game = gamerepo.game_by_name(session, game_name)
    if game is None:
        raise Denied(CommandRefusal.NO_SUCH_GAME, game=game_name)
    if game.status != "forming":
        raise Denied(CommandRefusal.GAME_NOT_FORMING, game, game=game.name)
    player = caller.account
    seats = gamerepo.seats(session, game.id)
    if any(seat.account_id == player.id for seat in seats):
        raise Denied(CommandRefusal.ALREADY_IN_GAME, game, game=game.name)
    needed = games.game_variant(game).players
    if len(seats) >= needed:
        raise Denied(CommandRefusal.GAME_FULL, game, game=game.name)
    _confirmed(caller, game)
    minimum = games.chosen(game).min_reliability
    if minimum is not None:
        # issue 30: the GM asks for reliable players (a newcomer has no record to fail)
        mine = recordrepo.records(session, [player.id]).get(player.id, Record())
        if not mine.meets(int(minimum)):
            raise Denied(CommandRefusal.RECORD_TOO_LOW, game, game=game.name, needed=minimum,
                         percent=mine.percent)
    taken = {seat.power for seat in seats}
    placeholder = next(f"{games.PLACEHOLDER}{n}" for n in range(1, needed + 1)
                       if f"{games.PLACEHOLDER}{n}" not in taken)
    password_hash = caller.new_hash(password)
    session.add(Seat(game_id=game.id, power=placeholder, account_id=player.id,
                     status="active", password_hash=password_hash,
                     preferences=list(preferences)))
    session.flush()
    gamerepo.audit(session, caller.now, "join", game_id=game.id, actor_account_id=player.id)
    joined = Joined(game, len(seats) + 1, needed, games.gm_address(session, game))
    if joined.full:
        caller.tell(joined.gm_address, game, Done.GAME_READY, game=game.name,
                    count=joined.count)
    return joined


def observe(session: Session, caller: Caller, game_name: str) -> Game:
    """Subscribe the caller's (confirmed) address to a game's bulletins."""
    game = gamerepo.game_by_name(session, game_name)
    if game is None:
        raise Denied(CommandRefusal.NO_SUCH_GAME, game=game_name)
    _confirmed(caller, game)
    address = caller.account.address
    watchers = games.observers(game)
    if address.lower() not in (w.lower() for w in watchers):
        games.update_options(game, observers=[*watchers, address])
    return game


def set_password(session: Session, caller: Caller, game: Game, seat: Seat | None,
                 password: str) -> None:
    """A signed-on seat's (``seat`` None: the GM's) new password, within the scrypt budget."""
    new_hash = caller.new_hash(password)
    if seat is None:
        game.password_hash = new_hash
    else:
        # a player holding several powers (seed 001) has one password for all of them
        for row in playrepo.seats_of_account(session, seat.game_id, seat.account_id or -1):
            row.password_hash = new_hash
        seat.password_hash = new_hash
    gamerepo.audit(session, caller.now, "set_password", game_id=game.id,
                   actor_account_id=caller.account.id, power=seat.power if seat else GM)


def start_game(session: Session, caller: Caller, game: Game) -> Game:
    """Start a forming game (its GM signed on): powers assigned, first deadline set."""
    if game.status != "forming":
        raise Denied(CommandRefusal.GAME_NOT_FORMING, game, game=game.name)
    try:
        games.start_game(session, game, caller.now)
    except games.StartRefused as exc:
        raise Denied(CommandRefusal.NOT_ENOUGH_PLAYERS, game, count=int(str(exc)),
                     needed=games.game_variant(game).players) from exc
    webhooks.emit(session, game, "start", game.phase, caller.now,
                  deadline_text=games.local_time(game, game.deadline) if game.deadline else "")
    return game


# ---------------------------------------------------------------- orders and phases


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
