"""Commands anyone may send: HELP, LIST, HISTORY, SUMMARY, OBSERVE, CREATE, JOIN, SIGNON."""

from __future__ import annotations

from typing import Any

from judge.adjudicator.catalog import variant, variant_names
from judge.adjudicator.phase import Phase
from judge.parsing.command_table import ROLE_ORDER, command_rows, option_rows
from judge.parsing.commands import LANGS, Command, Verb
from judge.parsing.commands_lexicon import lexicon
from judge.service import computer, games, usecases
from judge.service.answers import CommandRefusal, Done
from judge.service.commands.registry import handles
from judge.service.commands.session import Actor, MailSession
from judge.service.commands.signon_parts import close_actor, sign_on
from judge.storage import recordrepo
from judge.storage.models import Game


def help_groups(lang: str) -> list[dict[str, Any]]:
    """HELP's content, generated from the command table."""
    groups = []
    for role in ROLE_ORDER:
        rows = [{"keyword": row.keyword, "args": row.args, "help": row.help, "rules": ()}
                for row in command_rows(lang, (role,))]
        groups.append({"role": role.value, "commands": rows})
    return [*groups, {"role": "options", "commands": [
        {"keyword": o.keyword, "args": o.values, "help": "", "rules": o.rule_sets}
        for o in option_rows(lang)]}]


def variant_rows(lang: str) -> list[dict[str, Any]]:
    """HELP VARIANTS' content: every installed variant, its title and powers in ``lang``."""
    rows = []
    for name in variant_names():
        v = variant(name)
        rows.append({"name": name, "title": v.title(lang), "players": v.players,
                     "victory": v.victory, "centres": len(v.supply_centers),
                     "powers": [v.power_name(p, lang) for p in v.active_powers(v.first_phase)]})
    return rows


@handles(Verb.HELP)
def help_command(s: MailSession, cmd: Command) -> None:
    if cmd.value == "variants":
        s.say(Done.HELP_VARIANTS, variants=variant_rows(s.lang),
              keyword=lexicon().option_keyword("variant", s.lang))
        return
    s.say(Done.HELP, groups=help_groups(s.lang))


def _game(s: MailSession, name: str | None) -> Game | None:
    game = s.store.game_by_name(name or "")
    if game is None:
        s.say(CommandRefusal.NO_SUCH_GAME, game=name or "")
        return None
    s.touch(game)
    return game


def seat_rows(s: MailSession, game: Game) -> list[dict[str, Any]]:
    position = games.load_position(game) if game.position else None
    playing = game.status in ("active", "paused")
    sees = games.sees_addresses(s.session, game, s.account.id)
    rows = []
    assigned = games.assigned_seats(s.session, game)
    # issue 30: each player's record over his games, never in a blind game (it would tell
    # who plays which power)
    record = {} if games.is_blind(game) else recordrepo.records(
        s.session, (seat.account_id for seat in assigned if seat.account_id is not None))
    for seat in assigned:
        # during a phase anyone may see WHO has sent orders (njudge, DPjudge), never what
        on_file = (s.store.current_orders(game.id, game.phase, seat.power)
                   if playing else None)
        rows.append({
            "power": seat.power,
            "address": games.address_shown(s.session, game, seat, s.settings, sees,
                                           s.account.id)
            if seat.account_id else computer.SEAT_WORD.get(game.language, "computer")
            if seat.status == "active" else "-",
            "status": seat.status,
            "centres": len(position.centers_of(seat.power)) if position else 0,
            "units": len(position.units_of(seat.power)) if position else 0,
            "sent": bool(on_file and on_file.orders) if playing else None,
            "record": record.get(seat.account_id) if seat.account_id else None,
        })
    return rows


def _players(s: MailSession, game: Game) -> int:
    """People in the game: seed 001's fewer-player games give one person several seat rows."""
    rows = s.store.seats(game.id)
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


# games per LIST reply; ``LIST 2`` is the second page
LIST_PAGE = 50


@handles(Verb.LIST)
def list_command(s: MailSession, cmd: Command) -> None:
    page = 1
    if cmd.game:
        # ``LIST 2``: a page number, unless a game has that name
        if not (cmd.game.isdigit() and len(cmd.game) < 7 and int(cmd.game) > 0
                and s.store.game_by_name(cmd.game) is None):
            game = _game(s, cmd.game)
            if game is not None:
                s.say(Done.GAME_STATUS, **game_status(s, game))
            return
        page = int(cmd.game)
    # one page, in a constant number of queries however many games (issue 16)
    found, total = s.store.games_page(("forming", "active", "paused"), page, LIST_PAGE)
    rows = [{"game": g.name, "status": g.status, "phase": g.phase, "language": g.language,
             "joined": joined, "needed": games.game_variant(g).players} for g, joined in found]
    pages = max(1, -(-total // LIST_PAGE))
    s.say(Done.GAME_LIST, games=rows, page=page, pages=pages, verb=cmd.text.split()[0].upper()
          if cmd.text.split() else "LIST")


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
    for turn in s.store.turns(game.id):
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
    for turn in s.store.turns(game.id):
        after = turn.position_after or {}
        centres = {p: len(cs) for p, cs in (after.get("centers") or {}).items()}
        history.append({"phase": turn.phase, "centres": centres})
    s.say(Done.SUMMARY, **game_status(s, game), history=history)


@handles(Verb.OBSERVE)
def observe_command(s: MailSession, cmd: Command) -> None:
    try:
        game = usecases.observe(s.session, s.caller, cmd.game or "")
    except usecases.Denied as denied:
        s.refused(denied)
        return
    s.touch(game)
    s.say(Done.OBSERVING, game=game.name)


@handles(Verb.CREATE)
def create_command(s: MailSession, cmd: Command) -> None:
    try:
        game = usecases.create_game(s.session, s.caller, cmd.game or "", cmd.password or "",
                                    cmd.lang)
    except usecases.Denied as denied:
        s.refused(denied)
        return
    close_actor(s)
    s.creating = game
    s.actor = Actor(game=game, seat=None, gm=True, first_entry=len(s.entries) - 1)
    s.touch(game)
    s.say(Done.CREATED, game=game.name)


@handles(Verb.JOIN)
def join_command(s: MailSession, cmd: Command) -> None:
    try:
        joined = usecases.join_game(s.session, s.caller, cmd.game or "", cmd.password or "",
                                    cmd.powers)
    except usecases.Denied as denied:
        s.refused(denied)
        return
    s.touch(joined.game)
    s.joined = joined.game
    s.say(Done.JOINED, game=joined.game.name, count=joined.count, needed=joined.needed,
          preferences=list(cmd.powers))
    s.deliver()  # the GM told the game is full


@handles(Verb.SIGNON)
def signon_command(s: MailSession, cmd: Command) -> None:
    close_actor(s)
    try:
        signed = usecases.sign_on(s.session, s.caller, cmd.game or "", cmd.power or "",
                                  cmd.password or "")
    except usecases.Denied as denied:
        s.auth_failed = True
        s.refused(denied)
        return
    game = signed.game
    actor = Actor(game=game, seat=signed.seat, gm=signed.seat is None,
                  first_entry=len(s.entries) - 1)
    # the player (or GM) of record gets a copy of what a mail from elsewhere did
    record = signed.address_of_record
    if record and record.lower() != s.account.address.lower():
        actor.copy_to.add(record)
    sign_on(s, actor)
    if signed.seat is None:
        s.say(Done.SIGNED_ON_GM, game=game.name)
    else:
        s.say(Done.SIGNED_ON, game=game.name, power=signed.seat.power, phase=game.phase,
              status=game.status)
