"""Commands anyone may send: HELP, LIST, HISTORY, SUMMARY, OBSERVE, CREATE, JOIN, SIGNON."""

from __future__ import annotations

from typing import Any

from judge.adjudicator.phase import Phase
from judge.parsing.commands import GM, LANGS, Command, Verb, lexicon
from judge.service import games
from judge.service.auth import hash_password, verify_password
from judge.service.commands.outcomes import Done, Refusal
from judge.service.commands.registry import handles
from judge.service.commands.session import Actor, MailSession
from judge.storage import gamerepo, playrepo
from judge.storage.models import Game, Seat

ROLE_ORDER = ("anyone", "player", "gm")


def help_groups(lang: str) -> list[dict[str, Any]]:
    """HELP's content, generated from the lexicon's own metadata."""
    raw = lexicon().raw
    groups = []
    for role in ROLE_ORDER:
        rows = []
        for info in raw["commands"].values():
            if info["role"] != role:
                continue
            rows.append({"keyword": info[lang][0], "args": info["args"][lang],
                         "help": info["help"][lang]})
        groups.append({"role": role, "commands": rows})
    options = [{"keyword": info[lang][0], "values": info["help"][lang]}
               for info in raw["options"].values()]
    return [*groups, {"role": "options", "commands": [
        {"keyword": o["keyword"], "args": o["values"], "help": ""} for o in options]}]


@handles(Verb.HELP)
def help_command(s: MailSession, cmd: Command) -> None:
    s.say(Done.HELP, groups=help_groups(s.lang))


def _game(s: MailSession, name: str | None) -> Game | None:
    game = gamerepo.game_by_name(s.session, name or "")
    if game is None:
        s.say(Refusal.NO_SUCH_GAME, game=name or "")
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


def game_status(s: MailSession, game: Game) -> dict[str, Any]:
    joined = len(gamerepo.seats(s.session, game.id))
    return {"game": game.name, "status": game.status, "phase": game.phase,
            "language": game.language,
            "deadline": games.local_time(game, game.deadline) if game.deadline else None,
            "joined": joined, "options": games.describe_options(game),
            "seats": seat_rows(s, game) if game.status != "forming" else []}


@handles(Verb.LIST)
def list_command(s: MailSession, cmd: Command) -> None:
    if cmd.game:
        game = _game(s, cmd.game)
        if game is not None:
            s.say(Done.GAME_STATUS, **game_status(s, game))
        return
    rows = [{"game": g.name, "status": g.status, "phase": g.phase, "language": g.language,
             "joined": len(gamerepo.seats(s.session, g.id))}
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
        s.say(Refusal.NO_SUCH_TURN, game=game.name, phase=cmd.value or "")
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
        s.say(Refusal.CREATE_NOT_ALLOWED)
        return
    name = cmd.game or ""
    if not games.valid_game_name(name):
        s.say(Refusal.BAD_GAME_NAME, game=name)
        return
    if gamerepo.game_by_name(s.session, name) is not None:
        s.say(Refusal.GAME_EXISTS, game=name)
        return
    game = games.create_game(s.session, name, hash_password(cmd.password or ""), s.account,
                             cmd.lang, s.now)
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
        s.say(Refusal.GAME_NOT_FORMING, game=game.name)
        return
    seats = gamerepo.seats(s.session, game.id)
    if any(seat.account_id == s.account.id for seat in seats):
        s.say(Refusal.ALREADY_IN_GAME, game=game.name)
        return
    needed = games.game_variant(game).players
    if len(seats) >= needed:
        s.say(Refusal.GAME_FULL, game=game.name)
        return
    taken = {seat.power for seat in seats}
    placeholder = next(f"{games.PLACEHOLDER}{n}" for n in range(1, needed + 1)
                       if f"{games.PLACEHOLDER}{n}" not in taken)
    s.session.add(Seat(game_id=game.id, power=placeholder, account_id=s.account.id,
                       status="active", password_hash=hash_password(cmd.password or ""),
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
    game = gamerepo.game_by_name(s.session, cmd.game or "")
    if game is None:
        s.auth_failed = True
        s.say(Refusal.NO_SUCH_GAME, game=cmd.game or "")
        return
    s.touch(game)
    sender = s.account.address.lower()
    if cmd.power == GM:
        if not verify_password(cmd.password or "", game.password_hash):
            s.auth_failed = True
            s.say(Refusal.WRONG_PASSWORD, game=game.name)
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
        s.say(Refusal.POWER_NOT_IN_GAME, game=game.name, power=cmd.power)
        return
    if not verify_password(cmd.password or "", seat.password_hash):
        s.auth_failed = True
        s.say(Refusal.WRONG_PASSWORD, game=game.name)
        return
    actor = Actor(game=game, seat=seat, gm=False, first_entry=len(s.entries) - 1)
    record = games.address_of_account(s.session, seat.account_id)
    if record and record.lower() != sender:
        actor.copy_to.add(record)
    s.sign_on(actor)
    s.say(Done.SIGNED_ON, game=game.name, power=seat.power, phase=game.phase,
          status=game.status)
