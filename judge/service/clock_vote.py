"""A GM who also plays a power (issue 30 point 4): his EXTEND, later SET DEADLINE or PAUSE is a
request the other players vote on by mail (APPROVE / OPPOSE); a majority of them applies it.

The open request lives in the game's option dict (``gm_clock_vote``): its phase, what is asked,
and the accounts that agreed or refused. One request at a time (a new one replaces it); it lapses
with its phase. Each other player counts once, however many powers he holds.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from judge.rules.gm_clock import VoteOutcome, vote_outcome
from judge.service import games
from judge.storage import Session
from judge.storage.models import Game

KEY = "gm_clock_vote"


def gm_plays(session: Session, game: Game) -> bool:
    """The GM's own account holds a power still in the game."""
    return game.gm_account_id is not None and any(
        seat.account_id == game.gm_account_id for seat in games.playing_seats(session, game))


def voters(session: Session, game: Game) -> set[int]:
    """The accounts of the other players (not the GM's)."""
    return {seat.account_id for seat in games.playing_seats(session, game)
            if seat.account_id is not None and seat.account_id != game.gm_account_id}


def voter_addresses(session: Session, game: Game) -> list[str]:
    found = (games.address_of_account(session, a) for a in sorted(voters(session, game)))
    return [a for a in found if a]


def open_vote(game: Game, action: str, due: datetime | None, now: datetime) -> None:
    games.update_options(game, **{KEY: {
        "phase": game.phase, "action": action, "due": due.isoformat() if due else None,
        "asked": now.isoformat(), "yes": [], "no": []}})


def pending(game: Game) -> dict[str, Any] | None:
    """The open request of the game's current phase, if any."""
    request = games.options(game).get(KEY)
    if not request or request.get("phase") != game.phase:
        return None
    return dict(request)


def due_of(request: dict[str, Any]) -> datetime | None:
    return datetime.fromisoformat(request["due"]) if request.get("due") else None


def cast(session: Session, game: Game, account_id: int, agree: bool,
         ) -> tuple[VoteOutcome, dict[str, Any]]:
    """Record one player's vote (his latest counts) and say where the vote stands; a decided
    vote is closed."""
    request = pending(game)
    assert request is not None
    yes = [a for a in request["yes"] if a != account_id]
    no = [a for a in request["no"] if a != account_id]
    (yes if agree else no).append(account_id)
    request.update(yes=yes, no=no)
    outcome = vote_outcome(len(yes), len(no), len(voters(session, game)))
    games.update_options(game, **{KEY: None if outcome is not VoteOutcome.OPEN else request})
    return outcome, request
