"""A replacement player takes over a power (seed 002): everyone is told, the newcomer is briefed.

When the new player confirms his address (``REPLACE`` then ``CONFIRM token password``):

* every player, the GM and the observers get a notice that the power has a new player, with the
  deadline; so does the club's list when one is configured (``club_list_address``). If the game
  was suspended for this very power, the house rules decide at once (``judge.rules.due``): the
  week of the search is kept and one more (``REPLACEMENT GRACE``) is added for the newcomer's
  diplomacy, and that notice carries the new deadline;
* the newcomer's answer gives him the position (every power's units and centres), his own units
  and centres, the deadline, and the last bulletin, in the game's language.
"""

from __future__ import annotations

from judge.bulletins.views import Notice, notice_view, standing_lines
from judge.service import announce, gamelog, games, turns
from judge.service.answers import Done
from judge.service.commands.anyone import bulletin_text
from judge.service.commands.session import MailSession
from judge.service.snapshot_rows import turn_state
from judge.storage.models import Game, Seat


def took_over(s: MailSession, game: Game, seat: Seat) -> None:
    """Announce the newcomer of ``seat`` and brief him (in the reply to his confirmation)."""
    gamelog.event(game, "player replaced", power=seat.power)
    if game.status not in ("active", "paused") or not game.position:
        return  # a game not started has no position, deadline or bulletin to give
    state = turn_state(game)
    searched = bool(state.get("suspended")) and state.get("replacement_for") == seat.power
    report = turns.process(s.session, game, s.now, s.settings) if searched else None
    if report is None or report.why != "replacement_found":
        # a power taken over outside a search (in Sommossa, or a GM's change of player):
        # the deadline stays, the news goes to all the same
        notices = [Notice("replacement_found", seat.power, until=game.deadline)]
        info = announce.game_info(game, s.settings)
        view = notice_view(info, game.phase, notices, deadline=game.deadline)
        announce.broadcast(s.session, s.settings, s.now, game, "notice", view)
        announce.tell_club_list(s.session, s.settings, s.now, game, game.phase, notices,
                                game.deadline)
    _brief(s, game, seat)


def _brief(s: MailSession, game: Game, seat: Seat) -> None:
    lang = game.language or "en"
    standing = standing_lines(game.position or {}, lang)
    mine = next((row for row in standing if row["code"] == seat.power), None)
    past = s.store.turns(game.id)
    s.say(Done.NEWCOMER, game=game.name, power=seat.power, phase=game.phase,
          deadline=games.local_time(game, game.deadline) if game.deadline else None,
          standing=standing, mine=mine,
          bulletin=bulletin_text(past[-1].bulletins or {}, lang) if past else "",
          bulletin_phase=past[-1].phase if past else None)
