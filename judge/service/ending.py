"""The end of a game: status, scores, the end bulletin, and the secret votes made public."""

from __future__ import annotations

from datetime import datetime

from judge.bulletins.views import end_view
from judge.rules.game_end import EndReason, GameEnd
from judge.rules.scoring import draw_size, hundred_points, sum_of_squares
from judge.service import announce, deadlines, games
from judge.settings import Settings
from judge.storage import Session
from judge.storage.gamerepo import audit, turns
from judge.storage.models import Game
from judge.storage.playrepo import votes

# the game option ``scoring`` (SCORING / PUNTEGGIO / DECOMPTE)
SCORING_SYSTEMS = ("hundred", "draw_size", "sum_of_squares")


def scores(end: GameEnd, system: str = "hundred") -> dict[str, object]:
    """The scores of the game's scoring system. ``hundred``: seed 000's 100 points, a draw
    (or seed 001's player whose several powers won together) sharing them among the powers in
    it; ``draw_size``: the winners (solo, or the powers in the draw, or the survivors of a game
    ended otherwise) share 100; ``sum_of_squares``: 100 shared in proportion to the squares of
    the centre counts (all to a solo winner)."""
    powers = tuple(end.centers)
    solo = end.winners[0] if end.reason in (EndReason.SOLO, EndReason.LAST_SURVIVOR,
                                            EndReason.CONCESSION,
                                            EndReason.NO_ENEMY_CENTRE) \
        and len(end.winners) == 1 \
        else None
    if system == "sum_of_squares":
        return dict(sum_of_squares(end.centers, solo_winner=solo, powers=powers))
    if system == "draw_size":
        winners = end.winners or tuple(p for p, n in end.centers.items() if n > 0)
        return dict(draw_size(winners, powers))
    if end.reason is EndReason.DRAW or len(end.winners) > 1:
        return dict(draw_size(end.winners, powers))
    return dict(hundred_points(end.centers, solo_winner=solo, powers=powers))


def scoring_of(game: Game) -> str:
    return games.chosen(game).scoring


def position_scores(game: Game, centers: dict[str, int]) -> dict[str, object]:
    """The scores of a game the GM ended: the position as it stands, no winner named."""
    return scores(GameEnd(EndReason.END_PHASE_PASSED, (), centers), scoring_of(game))


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
                    reason=end.reason.value, centers=end.centers,
                    scores=scores(end, scoring_of(game)), scoring=scoring_of(game),
                    votes=revealed_votes(session, game))
    subject, body = announce.broadcast(session, settings, now, game, "end", view)
    audit(session, now, "game.ended", game.id, reason=end.reason.value,
          winners=list(end.winners), phase=game.phase)
    return subject, body
