"""Commands of a signed-on player: wait flags, press, password, address, late days, votes,
resignation. Votes are secret: only the voter is answered."""

from __future__ import annotations

from judge.parsing.commands import GM, Command, Verb
from judge.rules.lateness import AskAheadGranted, ask_ahead
from judge.service import deadlines, games, press, usecases
from judge.service.answers import CommandRefusal, Done
from judge.service.commands import guard
from judge.service.commands.registry import handles
from judge.service.commands.session import MailSession
from judge.service.header_safety import addr_spec
from judge.storage import recordrepo
from judge.storage.models import Game, Seat, Vote


def _seat(s: MailSession) -> tuple[Game, Seat]:
    assert s.actor is not None and s.actor.seat is not None
    return s.actor.game, s.actor.seat


def _active(s: MailSession, game: Game) -> bool:
    if game.status != "active":
        s.say(CommandRefusal.GAME_NOT_ACTIVE, game=game.name)
        return False
    return True


@handles(Verb.SET_WAIT, Verb.SET_NOWAIT)
def wait_command(s: MailSession, cmd: Command) -> None:
    game, seat = _seat(s)
    seat.wait = cmd.verb is Verb.SET_WAIT
    if not seat.wait:
        deadlines.look_now(s.session, game, s.now)  # it may have been all that held the game
    s.say(Done.WAIT_SET if seat.wait else Done.NOWAIT_SET, phase=game.phase)


@handles(Verb.PRESS, Verb.BROADCAST)
def press_command(s: MailSession, cmd: Command) -> None:
    assert s.actor is not None
    if s.actor.game.status == "finished":
        s.say(CommandRefusal.GAME_NOT_ACTIVE, game=s.actor.game.name)
        return
    press.send_press(s, cmd)


@handles(Verb.SET_PASSWORD)
def password_command(s: MailSession, cmd: Command) -> None:
    assert s.actor is not None
    try:
        usecases.set_password(s.session, s.caller, s.actor.game, s.actor.seat, cmd.value or "")
    except usecases.Denied as denied:
        s.refused(denied)
        return
    s.say(Done.PASSWORD_CHANGED, game=s.actor.game.name)


@handles(Verb.SET_NAME)
def name_command(s: MailSession, cmd: Command) -> None:
    """The account's display name: the archive shows it beside the power (issue 13 point 12),
    in a blind game only once the game is over. A player who joined a game in this mail sets it
    without a sign-on: he has no power to sign on as before the game starts."""
    if s.actor is not None:
        game, power = s.actor.game, s.actor.power or GM
    else:
        assert s.joined is not None
        game, power = s.joined, "joined"
    s.account.display_name = cmd.value or ""
    s.store.audit(s.now, "set_name", game_id=game.id, actor_account_id=s.account.id,
                  power=power)
    s.say(Done.NAME_SET, game=game.name, name=s.account.display_name)


@handles(Verb.SET_ADDRESS)
def address_command(s: MailSession, cmd: Command) -> None:
    """Exactly one plain address; it gets the game's mail once it has confirmed (at once
    when it confirmed before). One address change per mail."""
    assert s.actor is not None
    address = addr_spec(cmd.value or "")
    if address is None:
        s.say(CommandRefusal.BAD_ADDRESS)
        return
    if s.address_changed:
        s.say(CommandRefusal.TOO_MANY, what="addresses")
        return
    s.address_changed = True
    game = s.actor.game
    power = s.actor.power or GM
    if not s.store.is_confirmed(address):
        guard.ask_address(s, game, power, address, "address")
        return
    account = s.store.account_for(address, s.now)
    if s.actor.seat is None:
        game.gm_account_id = account.id
    else:
        s.actor.seat.account_id = account.id
    s.store.audit(s.now, "set_address", game_id=game.id,
                   actor_account_id=s.account.id, power=power)
    s.say(Done.ADDRESS_CHANGED, game=game.name, address=address)
    s.notify(address, game, Done.ADDRESS_CHANGED, game=game.name, address=address)


@handles(Verb.LATE)
def late_command(s: MailSession, cmd: Command) -> None:
    game, seat = _seat(s)
    if not _active(s, game) or game.deadline is None:
        return
    balance = games.late_balance(game, seat)
    result = ask_ahead(games.load_position(game).phase, balance, cmd.number or 0, game.deadline,
                       s.now, games.rule_options(game))
    if not isinstance(result, AskAheadGranted):
        s.say(CommandRefusal.LATE_REFUSED, reason=result.value, days_left=balance.days_left)
        return
    games.store_late_balance(game, seat, result.balance)
    deadlines.schedule(s.session, game, game.phase, result.new_deadline, s.now)
    when = games.local_time(game, result.new_deadline)
    s.say(Done.LATE_GRANTED, days=result.days, deadline=when,
          days_left=result.balance.days_left)
    # everyone's deadline moved: say so, without saying who asked
    for other in games.playing_seats(s.session, game):
        if other.id == seat.id:
            continue
        address = games.address_of_account(s.session, other.account_id)
        if address:
            s.notify(address, game, Done.DEADLINE_SET, game=game.name, phase=game.phase,
                     deadline=when)
    # the GM runs the clock: a deadline moved by a player's late days is news to them too
    gm = games.address_of_account(s.session, game.gm_account_id) if game.gm_account_id else None
    if gm and gm.lower() != s.account.address.lower():
        s.notify(gm, game, Done.DEADLINE_SET, game=game.name, phase=game.phase, deadline=when)


@handles(Verb.DRAW, Verb.NO_DRAW)
def draw_command(s: MailSession, cmd: Command) -> None:
    game, seat = _seat(s)
    try:
        usecases.vote_draw(s.session, game, seat, s.now, cmd.verb is Verb.DRAW)
    except usecases.Denied as denied:
        s.refused(denied)
        return
    s.say(Done.DRAW_VOTED if cmd.verb is Verb.DRAW else Done.DRAW_WITHDRAWN, game=game.name)


@handles(Verb.CONCEDE)
def concede_command(s: MailSession, cmd: Command) -> None:
    game, seat = _seat(s)
    if not _active(s, game):
        return
    target = s.store.seat_by_power(game.id, cmd.power or "")
    if target is None or target.power == seat.power:
        s.say(CommandRefusal.POWER_NOT_IN_GAME, game=game.name, power=cmd.power)
        return
    s.store.delete_votes(game.id, None, "concede", seat.power)
    s.store.add(Vote(game_id=game.id, phase=game.phase, kind="concede",
                       voter_power=seat.power, target_power=target.power, payload={},
                       created=s.now))
    s.say(Done.CONCEDED, game=game.name, power=target.power)


@handles(Verb.RESIGN)
def resign_command(s: MailSession, cmd: Command) -> None:
    game, seat = _seat(s)
    seat.status = "vacant"
    recordrepo.count(s.session, seat.account_id, game.id, abandoned=1)  # issue 30's record
    games.drop_absences(game, seat.account_id)
    s.store.audit(s.now, "resign", game_id=game.id, actor_account_id=s.account.id,
                   power=seat.power)
    s.say(Done.RESIGNED, game=game.name, power=seat.power)
    gm = games.gm_address(s.session, game)
    if gm:
        s.notify(gm, game, Done.RESIGNED, game=game.name, power=seat.power)
