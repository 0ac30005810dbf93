"""The end of a game: status, scores, the end bulletin, and the secret votes made public."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from judge.bulletins.views import end_view
from judge.rules.game_end import EndReason, GameEnd
from judge.rules.scoring import draw_size, hundred_points
from judge.service import announce, deadlines
from judge.settings import Settings
from judge.storage.gamerepo import audit, turns
from judge.storage.models import Game
from judge.storage.playrepo import votes

Session = Any  # a judge.storage session (SQLAlchemy stays inside judge.storage)


def scores(end: GameEnd) -> dict[str, object]:
    """Seed 000's hundred points; a draw shares them among the powers in it."""
    # a draw, or seed 001's player whose several powers won together: they share
    if end.reason is EndReason.DRAW or len(end.winners) > 1:
        return dict(draw_size(end.winners, tuple(end.centers)))
    solo = end.winners[0] if end.reason in (EndReason.SOLO, EndReason.LAST_SURVIVOR,
                                            EndReason.CONCESSION,
                                            EndReason.NO_ENEMY_CENTRE) else None
    return dict(hundred_points(end.centers, solo_winner=solo))


def revealed_votes(session: Session, game: Game) -> list[dict[str, object]]:
    """Every order sent for a power in ONP or Sommossa, in the order they were sent."""
    rows = votes(session, game.id, kind="sommossa_order")
    return [{"phase": v.phase, "voter": v.voter_power, "target": v.target_power,
             "orders": list((v.payload or {}).get("orders", []))} for v in rows]


def last_played(session: Session, game: Game) -> str:
    """The last phase adjudicated ("" if none): what the game is over *after*. The current
    phase is the next one (after an adjudication) or one never played (the GM's END)."""
    played = turns(session, game.id)
    return played[-1].phase if played else ""


def finish_game(session: Session, game: Game, now: datetime, settings: Settings,
                end: GameEnd) -> tuple[str, str]:
    game.status = "finished"
    game.deadline = None
    deadlines.clear(session, game)
    view = end_view(announce.game_info(game, settings), last_played(session, game),
                    winners=end.winners,
                    reason=end.reason.value, centers=end.centers, scores=scores(end),
                    votes=revealed_votes(session, game))
    subject, body = announce.broadcast(session, settings, now, game, "end", view)
    audit(session, now, "game.ended", game.id, reason=end.reason.value,
          winners=list(end.winners), phase=game.phase)
    return subject, body
