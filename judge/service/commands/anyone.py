"""Commands anyone may send: HELP, LIST, HISTORY, SUMMARY, OBSERVE, CREATE, JOIN, SIGNON."""

from __future__ import annotations

from typing import Any

from judge.adjudicator.phase import Phase
from judge.parsing.command_table import ROLE_ORDER, command_rows, option_rows
from judge.parsing.commands import GM, LANGS, Command, Verb
from judge.service import games
from judge.service.answers import CommandRefusal, Done
from judge.service.commands import guard
from judge.service.commands.registry import handles
from judge.service.commands.session import Actor, MailSession
from judge.storage import gamerepo, playrepo
from judge.storage.models import Game, Seat

# different seats one mail may sign on to (a GM with BECOME needs one; a club secretary a few)
SIGNONS_PER_MAIL = 10


def help_groups(lang: str) -> list[dict[str, Any]]:
    """HELP's content, generated from the command table."""
    groups = []
    for role in ROLE_ORDER:
        rows = [{"keyword": row.keyword, "args": row.args, "help": row.help}
                for row in command_rows(lang, (role,))]
        groups.append({"role": role.value, "commands": rows})
    return [*groups, {"role": "options", "commands": [
        {"keyword": o.keyword, "args": o.values, "help": ""} for o in option_rows(lang)]}]


@handles(Verb.HELP)
def help_command(s: MailSession, cmd: Command) -> None:
    s.say(Done.HELP, groups=help_groups(s.lang))


def _game(s: MailSession, name: str | None) -> Game | None:
    game = gamerepo.game_by_name(s.session, name or "")
    if game is None:
        s.say(CommandRefusal.NO_SUCH_GAME, game=name or "")
        return None
    s.touch(game)
    return game


def seat_rows(s: MailSession, game: Game) -> list[dict[str, Any]]:
    position = games.load_position(game) if game.position else None
    playing = game.status in ("active", "paused")
    rows = []
    for seat in games.assigned_seats(s.session, game):
        # during a phase anyone may see WHO has sent orders (njudge, DPjudge), never what
        on_file = (gamerepo.current_orders(s.session, game.id, game.phase, seat.power)
                   if playing else None)
        rows.append({
            "power": seat.power,
            "address": games.public_address(s.session, game, seat, s.settings)
            if seat.account_id else "-",
            "status": seat.status,
            "centres": len(position.centers_of(seat.power)) if position else 0,
            "units": len(position.units_of(seat.power)) if position else 0,
            "sent": bool(on_file and on_file.orders) if playing else None,
        })
    return rows


def _players(s: MailSession, game: Game) -> int:
    """People in the game: seed 001's fewer-player games give one person several seat rows."""
    rows = gamerepo.seats(s.session, game.id)
    return len({r.account_id for r in rows if r.account_id is not None}
               | {-r.id for r in rows if r.account_id is None})


def game_status(s: MailSession, game: Game) -> dict[str, Any]:
    joined = _players(s, game)
    return {"game": game.name, "status": game.status, "phase": game.phase,
            "language": game.language,
            "deadline": games.local_time(game, game.deadline) if game.deadline else None,
            "joined": joined, "needed": games.game_variant(game).players,
            "options": games.describe_options(game),
            "seats": seat_rows(s, game) if game.status != "forming" else []}


@handles(Verb.LIST)
def list_command(s: MailSession, cmd: Command) -> None:
    if cmd.game:
        game = _game(s, cmd.game)
        if game is not None:
            s.say(Done.GAME_STATUS, **game_status(s, game))
        return
    rows = [{"game": g.name, "status": g.status, "phase": g.phase, "language": g.language,
             "joined": _players(s, g), "needed": games.game_variant(g).players}
            for g in playrepo.games_with_status(s.session, ("forming", "active", "paused"))]
    s.say(Done.GAME_LIST, games=rows)


def bulletin_text(bulletins: dict[str, Any], lang: str) -> str:
    """The stored bulletin of a turn in ``lang`` (turn snapshots keep one per language)."""
    for key in (lang, "en", *LANGS):
        value = bulletins.get(key)
        if isinstance(value, dict):
            value = value.get("body")
        if isinstance(value, str):
            return value
    for value in bulletins.values():
        if isinstance(value, str):
            return value
    return ""


@handles(Verb.HISTORY)
def history_command(s: MailSession, cmd: Command) -> None:
    game = _game(s, cmd.game)
    if game is None:
        return
    first = last = None
    if cmd.value:
        ends = cmd.value.split("..")
        first, last = Phase.parse(ends[0]), Phase.parse(ends[-1])
    turns = []
    for turn in gamerepo.turns(s.session, game.id):
        phase = Phase.parse(turn.phase)
        if (first and phase < first) or (last and phase > last):
            continue
        turns.append({"phase": turn.phase, "text": bulletin_text(turn.bulletins or {}, s.lang)})
    if not turns:
        s.say(CommandRefusal.NO_SUCH_TURN, game=game.name, phase=cmd.value or "")
        return
    s.say(Done.HISTORY, game=game.name, turns=turns)


@handles(Verb.SUMMARY)
def summary_command(s: MailSession, cmd: Command) -> None:
    game = _game(s, cmd.game)
    if game is None:
        return
    history = []
    for turn in gamerepo.turns(s.session, game.id):
        after = turn.position_after or {}
        centres = {p: len(cs) for p, cs in (after.get("centers") or {}).items()}
        history.append({"phase": turn.phase, "centres": centres})
    s.say(Done.SUMMARY, **game_status(s, game), history=history)


@handles(Verb.OBSERVE)
def observe_command(s: MailSession, cmd: Command) -> None:
    game = _game(s, cmd.game)
    if game is None:
        return
    address = s.account.address
    watchers = games.observers(game)
    if address.lower() not in (w.lower() for w in watchers):
        games.update_options(game, observers=[*watchers, address])
    s.say(Done.OBSERVING, game=game.name)


@handles(Verb.CREATE)
def create_command(s: MailSession, cmd: Command) -> None:
    allowed = s.settings.create_allowed
    if allowed and s.account.address.lower() not in (a.lower() for a in allowed):
        s.say(CommandRefusal.CREATE_NOT_ALLOWED)
        return
    name = cmd.game or ""
    if not games.valid_game_name(name):
        s.say(CommandRefusal.BAD_GAME_NAME, game=name)
        return
    if gamerepo.game_by_name(s.session, name) is not None:
        s.say(CommandRefusal.GAME_EXISTS, game=name)
        return
    if s.creating is not None:
        s.say(CommandRefusal.TOO_MANY, what="games")  # one CREATE per mail
        return
    password_hash = s.hash(cmd.password or "")
    if password_hash is None:
        return
    game = games.create_game(s.session, name, password_hash, s.account, cmd.lang, s.now)
    s.close_actor()
    s.creating = game
    s.actor = Actor(game=game, seat=None, gm=True, first_entry=len(s.entries) - 1)
    s.touch(game)
    s.say(Done.CREATED, game=name)


@handles(Verb.JOIN)
def join_command(s: MailSession, cmd: Command) -> None:
    game = _game(s, cmd.game)
    if game is None:
        return
    if game.status != "forming":
        s.say(CommandRefusal.GAME_NOT_FORMING, game=game.name)
        return
    seats = gamerepo.seats(s.session, game.id)
    if any(seat.account_id == s.account.id for seat in seats):
        s.say(CommandRefusal.ALREADY_IN_GAME, game=game.name)
        return
    needed = games.game_variant(game).players
    if len(seats) >= needed:
        s.say(CommandRefusal.GAME_FULL, game=game.name)
        return
    taken = {seat.power for seat in seats}
    placeholder = next(f"{games.PLACEHOLDER}{n}" for n in range(1, needed + 1)
                       if f"{games.PLACEHOLDER}{n}" not in taken)
    password_hash = s.hash(cmd.password or "")
    if password_hash is None:
        return
    s.session.add(Seat(game_id=game.id, power=placeholder, account_id=s.account.id,
                       status="active", password_hash=password_hash,
                       preferences=list(cmd.powers)))
    s.session.flush()
    count = len(seats) + 1
    gamerepo.audit(s.session, s.now, "join", game_id=game.id, actor_account_id=s.account.id)
    s.say(Done.JOINED, game=game.name, count=count, needed=needed,
          preferences=list(cmd.powers))
    gm_address = games.gm_address(s.session, game)
    if count == needed and gm_address:
        s.notify(gm_address, game, Done.GAME_READY, game=game.name, count=count)


@handles(Verb.SIGNON)
def signon_command(s: MailSession, cmd: Command) -> None:
    s.close_actor()
    # repeated sign-ons are answered without touching the database: a mail of a thousand
    # guesses for one seat costs one look-up and one password check
    key = ((cmd.game or "").lower(), cmd.power or "")
    given = s.signons.get(key)
    if given is not None and given != (cmd.password or ""):
        s.auth_failed = True
        s.say(CommandRefusal.PASSWORD_ALREADY_TRIED)
        return
    if given is None and len(s.signons) >= SIGNONS_PER_MAIL:
        s.auth_failed = True
        s.say(CommandRefusal.TOO_MANY, what="signons")
        return
    s.signons[key] = cmd.password or ""
    game = gamerepo.game_by_name(s.session, cmd.game or "")
    if game is None:
        s.auth_failed = True
        s.say(CommandRefusal.NO_SUCH_GAME, game=cmd.game or "")
        return
    s.touch(game)
    sender = s.account.address.lower()
    if cmd.power == GM:
        if not _password_ok(s, game, GM, cmd.password or "", game.password_hash):
            return
        actor = Actor(game=game, seat=None, gm=True, first_entry=len(s.entries) - 1)
        record = games.gm_address(s.session, game)
        if record and record.lower() != sender:
            actor.copy_to.add(record)
        s.sign_on(actor)
        s.say(Done.SIGNED_ON_GM, game=game.name)
        return
    seat = playrepo.seat_by_power(s.session, game.id, cmd.power or "")
    if seat is None or seat.account_id is None or seat.status == "vacant":
        s.auth_failed = True
        s.say(CommandRefusal.POWER_NOT_IN_GAME, game=game.name, power=cmd.power)
        return
    if not _password_ok(s, game, seat.power, cmd.password or "", seat.password_hash):
        return
    actor = Actor(game=game, seat=seat, gm=False, first_entry=len(s.entries) - 1)
    record = games.address_of_account(s.session, seat.account_id)
    if record and record.lower() != sender:
        actor.copy_to.add(record)
    s.sign_on(actor)
    s.say(Done.SIGNED_ON, game=game.name, power=seat.power, phase=game.phase,
          status=game.status)


def _password_ok(s: MailSession, game: Game, power: str, password: str, stored: str) -> bool:
    """The sign-on's password check: refused unheard while the seat is locked, at most once
    per power per mail, each failure counted towards the lockout."""
    # the lock stops strangers guessing; the seat's own registered address still signs on,
    # so a stranger's wrong guesses never lock a player out before a deadline
    own = (game.gm_account_id if power == GM else _seat_account(s, game, power)) == s.account.id
    if not own and guard.locked(s, game, power):
        s.auth_failed = True
        s.say(CommandRefusal.SIGNON_LOCKED, game=game.name)
        return False
    key = (game.id, power)
    ok = s.check(game.id, power, password, stored)
    fresh = key not in s.counted  # the lockout counts one try per power per mail
    s.counted.add(key)
    if ok:
        if fresh:
            guard.succeeded(s, game, power)
        return True
    s.auth_failed = True
    if ok is False:
        s.say(CommandRefusal.WRONG_PASSWORD, game=game.name)
        if fresh and not own:
            guard.failed(s, game, power)
    return False


def _seat_account(s: MailSession, game: Game, power: str) -> int | None:
    seat = playrepo.seat_by_power(s.session, game.id, power)
    return seat.account_id if seat is not None else None
