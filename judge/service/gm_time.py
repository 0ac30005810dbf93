"""The GM's clock (issue 30 point 4): extensions and pauses counted against the game's caps,
logged for the archive, and a pause that ends by itself at its cap.

What the game has used lives in its option dict (``gm_clock``: ``judge.rules.gm_clock.ClockUse``),
every extension and pause in ``gm_clock_log`` (the archive's game page lists it). A pause with a
cap adds a ``resume`` row to the deadline table at the moment the cap runs out; the scheduler
resumes the game then (``judge.service.wakeups``) exactly as the GM's RESUME would.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

from judge.rules.gm_clock import ClockUse, Limits, extended, pause_allowance, paused
from judge.service import announce, deadlines, games
from judge.service.commands import reply_text
from judge.settings import Settings
from judge.storage import Session
from judge.storage.gamerepo import audit
from judge.storage.models import Deadline, Game

RESUME = "resume"  # the deadline-table kind of a pause's end
# a resumed game's deadline is never less than a day away, so players can react to the news
RESUME_AT_LEAST = timedelta(hours=24)


def limits(game: Game, key: Literal["extension_limit", "pause_limit"]) -> Limits:
    options = games.chosen(game)
    return Limits.from_option(options.extension_limit if key == "extension_limit"
                              else options.pause_limit)


def use(game: Game) -> ClockUse:
    return ClockUse.from_json(games.options(game).get("gm_clock"))


def log(game: Game, now: datetime, action: str, hours: float, by: str) -> None:
    """One line of the archive's record of the GM's clock."""
    entries = list(games.options(game).get("gm_clock_log") or [])
    entries.append({"at": now.isoformat(timespec="minutes"), "phase": game.phase,
                    "action": action, "hours": round(hours, 2), "by": by})
    games.update_options(game, gm_clock_log=entries)


def record_extension(game: Game, now: datetime, hours: float) -> None:
    games.update_options(game, gm_clock=extended(use(game), game.phase, hours).to_json())
    log(game, now, "extension", hours, "gm")


def pause(session: Session, game: Game, now: datetime) -> datetime | None:
    """Stop the game's clock; returns when the pause ends by itself (None: no cap). The caller
    has checked the allowance is not zero."""
    allowance, _ = pause_allowance(use(game), limits(game, "pause_limit"), game.phase)
    left = (game.deadline - now).total_seconds() if game.deadline else 0.0
    games.update_options(game, paused_seconds_left=max(left, 0.0), paused_at=now.isoformat())
    game.status = "paused"
    deadlines.clear(session, game)
    game.deadline = None
    until = None if allowance is None else now + timedelta(hours=allowance)
    if until is not None:
        session.add(Deadline(game_id=game.id, phase=game.phase, due_at=until, kind=RESUME,
                             done=False))
    log(game, now, "pause", 0.0, "gm")
    session.flush()
    return until


def resume(session: Session, game: Game, now: datetime, by: str) -> datetime:
    """Start the clock again: the pause is counted against the caps, the deadline set."""
    opts = games.options(game)
    started = opts.get("paused_at")
    hours = 0.0
    if started:
        hours = max((now - datetime.fromisoformat(started)).total_seconds() / 3600, 0.0)
    games.update_options(game, gm_clock=paused(use(game), game.phase, hours).to_json(),
                         paused_at=None)
    log(game, now, "resume", hours, by)
    game.status = "active"
    left = float(opts.get("paused_seconds_left") or 0)
    due = deadlines.off_days_settled(game, now + max(timedelta(seconds=left), RESUME_AT_LEAST))
    deadlines.schedule(session, game, game.phase, due, now)  # also closes the resume row
    return due


def resume_at_cap(session: Session, game: Game, now: datetime, settings: Settings) -> datetime:
    """The scheduler's end of a capped pause: resume, and tell every player, the GM and the
    observers, as RESUME does."""
    due = resume(session, game, now, "limit")
    lang = reply_text.check_lang(game.language)
    text = reply_text.message(lang, "resumed", game=game.name, deadline=games.local_time(game, due))
    body = reply_text.page(lang, "notice", game=game.name, text=text)
    subject = reply_text.message(lang, "subject_notice", game=game.name)
    announce.queue(session, settings, now, game, announce.everyone(session, game), subject, body,
                   kind="notice")
    audit(session, now, "resume", game_id=game.id, by="pause_limit")
    return due

