"""Read-only queries for the web archive, returning plain dicts (no ORM object escapes).

Only what a processed phase made public leaves here: games, seats' display names, and the
immutable ``turn`` snapshots. Order sets, press, deadlines and addresses are never read, so the
archive cannot leak them however its pages are written. Once a game is over, what its final
bulletin published "per regolarità e trasparenza" (seed 002) is public too: how and when it
ended, the orders sent for powers in ONP or Sommossa, and in a blind game who played which
power. Draw votes and concessions stay secret.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from judge.storage.database import Database
from judge.storage.models_game import Account, AuditLog, Game, Seat, Turn, Vote


def _blind(game: Game) -> bool:
    return bool((game.options or {}).get("blind", False))


def _players(session: Any, game: Game) -> list[dict[str, Any]] | None:
    """Power and display name per seat, or None while a blind game is being played."""
    if _blind(game) and game.status != "finished":
        return None
    rows = session.execute(
        select(Seat.power, Seat.status, Account.display_name, Seat.account_id)
        .outerjoin(Account, Account.id == Seat.account_id)
        .where(Seat.game_id == game.id)
        .order_by(Seat.power)
    ).all()
    # seed 001's fewer-player games: the other powers the same person holds
    held: dict[int, list[str]] = {}
    for power, _status, _name, account in rows:
        if account is not None:
            held.setdefault(account, []).append(power)
    # display names only: an address is never shown, blind game or not
    return [{"power": p, "status": s, "name": n or "",
             "with": [o for o in held.get(a, []) if o != p] if a is not None else []}
            for p, s, n, a in rows]


def _game_row(session: Any, game: Game) -> dict[str, Any]:
    processed = session.scalar(select(func.count(Turn.id)).where(Turn.game_id == game.id))
    return {
        "name": game.name,
        "variant": game.variant,
        "status": game.status,
        "phase": game.phase,
        "language": game.language,
        "blind": _blind(game),
        "processed_phases": int(processed or 0),
        "players": _players(session, game),
        "ended": _ended(session, game),
        "revealed": _revealed(session, game),
    }


def _ended(session: Any, game: Game) -> dict[str, Any] | None:
    """How and when a finished game ended (its ``game.ended`` audit row), else None."""
    if game.status != "finished":
        return None
    row = session.scalar(select(AuditLog).where(AuditLog.game_id == game.id,
                                                AuditLog.action == "game.ended")
                         .order_by(AuditLog.id.desc()).limit(1))
    if row is None:
        return {"reason": "", "winners": [], "phase": game.phase, "at": None}
    detail = row.detail or {}
    return {"reason": str(detail.get("reason", "")), "winners": list(detail.get("winners", [])),
            "phase": str(detail.get("phase", game.phase)), "at": row.at.isoformat()}


def _revealed(session: Any, game: Game) -> list[dict[str, Any]]:
    """The orders players sent for powers in ONP or Sommossa: public once the game is over."""
    if game.status != "finished":
        return []
    rows = session.scalars(select(Vote).where(Vote.game_id == game.id,
                                              Vote.kind == "sommossa_order").order_by(Vote.id))
    return [{"phase": v.phase, "voter": v.voter_power, "target": v.target_power,
             "orders": list((v.payload or {}).get("orders", []))} for v in rows]


def list_games(db: Database) -> list[dict[str, Any]]:
    """Every game that has left the forming stage, newest first."""
    with db.reading() as session:
        games = session.scalars(
            select(Game).where(Game.status != "forming").order_by(Game.id.desc())
        ).all()
        return [_game_row(session, g) for g in games]


def _turn_dict(turn: Turn) -> dict[str, Any]:
    return {
        "phase": turn.phase,
        "position_before": turn.position_before or {},
        "orders_generated": turn.orders_generated or {},
        "orders_illegal": turn.orders_illegal or {},
        "outcomes": turn.outcomes or {},
        "position_after": turn.position_after or {},
        "bulletins": turn.bulletins or {},
        "created": turn.created.isoformat() if turn.created else None,
    }


def game_archive(db: Database, name: str) -> dict[str, Any] | None:
    """One game with all its processed phases (turn snapshots, oldest first)."""
    with db.reading() as session:
        game = session.scalar(select(Game).where(func.lower(Game.name) == name.lower()))
        if game is None or game.status == "forming":
            return None
        turns = session.scalars(
            select(Turn).where(Turn.game_id == game.id).order_by(Turn.id)
        ).all()
        out = _game_row(session, game)
        out["turns"] = [_turn_dict(t) for t in turns]
        return out


def turn_archive(db: Database, name: str, phase: str) -> dict[str, Any] | None:
    """One processed phase of one game, with the game's public row."""
    with db.reading() as session:
        game = session.scalar(select(Game).where(func.lower(Game.name) == name.lower()))
        if game is None or game.status == "forming":
            return None
        turn = session.scalar(
            select(Turn).where(Turn.game_id == game.id, Turn.phase == phase.upper())
        )
        if turn is None:
            return None
        phases = list(
            session.scalars(select(Turn.phase).where(Turn.game_id == game.id).order_by(Turn.id))
        )
        out = _game_row(session, game)
        out["turn"] = _turn_dict(turn)
        out["phases"] = phases
        return out
