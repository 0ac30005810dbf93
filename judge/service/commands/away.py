"""ABSENCE first-day last-day: a player's announced absence (issue 30 point 3, after njudge's
SET ABSENCE). No deadline of the game falls in it (``judge.rules.deadline_clock``): one that
would moves to the same local time of the first day after it that is not off. Within the
game's ABSENCE LIMIT; everyone is told when the current deadline moves, and in a blind game not
why (nobody learns who is away)."""

from __future__ import annotations

from datetime import date, timedelta

from judge.parsing.commands import Command, Verb
from judge.rules.deadline_clock import Absence, absence_refused
from judge.service import announce, deadlines, games
from judge.service.answers import CommandRefusal, Done
from judge.service.commands.registry import handles
from judge.service.commands.session import MailSession
from judge.storage.models import Game

# an absence more than a year ahead is no announcement a club can plan with
MAX_DAYS_AHEAD = 366


@handles(Verb.ABSENCE)
def absence_command(s: MailSession, cmd: Command) -> None:
    assert s.actor is not None and s.actor.seat is not None
    game, seat = s.actor.game, s.actor.seat
    if game.status == "finished":
        s.say(CommandRefusal.GAME_NOT_ACTIVE, game=game.name)
        return
    first, last = (cmd.value or "").split()
    try:
        new = Absence(date.fromisoformat(first), date.fromisoformat(last))
    except ValueError:
        s.say(CommandRefusal.MALFORMED, problem="bad_date", detail=cmd.value or "",
              keyword=cmd.text.split()[0])
        return
    opts = games.options(game)
    limit = games.chosen(game).absence_limit
    stored = list(opts.get("absences") or [])
    mine = [Absence(date.fromisoformat(a["start"]), date.fromisoformat(a["end"]))
            for a in stored if a.get("account") == seat.account_id]
    today = s.now.astimezone(deadlines.game_zone(game)).date()
    refused = absence_refused(new, mine, today, int(limit.get("each", 0)),
                              int(limit.get("game", limit.get("each", 0))))
    if refused is None and (new.start - today).days > MAX_DAYS_AHEAD:
        s.say(CommandRefusal.MALFORMED, problem="bad_date", detail=cmd.value or "",
              keyword=cmd.text.split()[0])
        return
    if refused is not None:
        reason, days = refused
        s.say(CommandRefusal.ABSENCE_REFUSED, game=game.name, reason=reason.value, days=days)
        return
    if not _covered(new, mine):  # the same days again: nothing new to keep
        stored.append({"account": seat.account_id, "power": seat.power,
                       "start": new.start.isoformat(), "end": new.end.isoformat()})
        games.update_options(game, absences=stored)
    s.store.audit(s.now, "absence", game_id=game.id, actor_account_id=s.account.id,
                  power=seat.power, start=new.start.isoformat(), end=new.end.isoformat())
    s.say(Done.ABSENCE_SET, game=game.name, start=new.start.isoformat(), end=new.end.isoformat())
    if game.status != "active" or game.deadline is None:
        return  # a paused or forming game: its next deadline is computed with the absence
    due = deadlines.off_days_settled(game, game.deadline)
    if due == game.deadline:
        return
    deadlines.schedule(s.session, game, game.phase, due, s.now)
    when = games.local_time(game, due)
    s.say(Done.DEADLINE_SET, game=game.name, phase=game.phase, deadline=when)
    if games.is_blind(game):
        tell_everyone_else(s, game, Done.DEADLINE_SET, game=game.name, phase=game.phase,
                           deadline=when)
    else:
        tell_everyone_else(s, game, Done.ABSENCE_MOVED, game=game.name, phase=game.phase,
                           deadline=when, power=seat.power)


def _covered(new: Absence, mine: list[Absence]) -> bool:
    """Every day of ``new`` is in an absence already kept (so each kept absence adds at least
    one day, and a player's list stays within the game's ABSENCE LIMIT in length)."""
    return all(any(a.start <= new.start + timedelta(days=i) <= a.end for a in mine)
               for i in range(new.days))


def tell_everyone_else(s: MailSession, game: Game, key: Done, /, **params: object) -> None:
    """The players, the GM and the observers, but not the sender (answered already)."""
    for address in announce.everyone(s.session, game):
        if address.lower() != s.account.address.lower():
            s.notify(address, game, key, **params)
