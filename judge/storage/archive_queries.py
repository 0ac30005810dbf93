"""Read-only queries for the web archive, returning plain dicts (no ORM object escapes).

Only what a processed phase made public leaves here: games, seats' display names, and the
immutable ``turn`` snapshots. Order sets, press, deadlines and addresses are never read, so the
archive cannot leak them however its pages are written. Once a game is over, what its final
bulletin published "per regolarità e trasparenza" (seed 002) is public too: how and when it
ended, the orders sent for powers in ONP or Sommossa, and in a blind game who played which
power. Draw votes and concessions stay secret. Beside each player shown, his record over all
his games (issue 30: phases played and missed, powers abandoned, replacements).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, defer

from judge.rules.chosen_options import ChosenOptions
from judge.storage.database import Database
from judge.storage.models_game import Account, AuditLog, Game, Seat, Turn, Vote
from judge.storage.recordrepo import records


def _blind(game: Game) -> bool:
    return ChosenOptions.read(game.options or {}).blind


def _players(session: Session, game: Game) -> list[dict[str, Any]] | None:
    """Power and display name per seat, or None while a blind game is being played."""
    return _players_of(session, [game]).get(game.id)


def _players_of(session: Session, games: Sequence[Game]) -> dict[int, list[dict[str, Any]] | None]:
    """``_players`` of several games in one query (the index: constant queries, issue 16)."""
    out: dict[int, list[dict[str, Any]] | None] = {
        g.id: None if _blind(g) and g.status != "finished" else [] for g in games}
    shown = [gid for gid, rows in out.items() if rows is not None]
    if not shown:
        return out
    rows = session.execute(
        select(Seat.game_id, Seat.power, Seat.status, Account.display_name, Seat.account_id)
        .outerjoin(Account, Account.id == Seat.account_id)
        .where(Seat.game_id.in_(shown))
        .order_by(Seat.game_id, Seat.power)
    ).all()
    # seed 001's fewer-player games: the other powers the same person holds
    held: dict[tuple[int, int], list[str]] = {}
    for gid, power, _status, _name, account in rows:
        if account is not None:
            held.setdefault((gid, account), []).append(power)
    # issue 30: each player's record over all his games, in one more query
    record = records(session, (a for *_, a in rows if a is not None))
    # display names only: an address is never shown, blind game or not
    for gid, p, st, n, a in rows:
        players = out[gid]
        assert players is not None
        mine = record.get(a) if a is not None else None
        players.append({"power": p, "status": st, "name": n or "",
                        "with": [o for o in held.get((gid, a), []) if o != p]
                        if a is not None else [],
                        "record": asdict(mine) | {"percent": mine.percent} if mine else None})
    return out


def _game_row(session: Session, game: Game) -> dict[str, Any]:
    return _game_rows(session, [game])[0]


def _game_rows(session: Session, games: Sequence[Game]) -> list[dict[str, Any]]:
    """The public rows of ``games`` in at most four queries, however many games."""
    ids = [g.id for g in games]
    if not ids:
        return []
    processed = dict(session.execute(
        select(Turn.game_id, func.count(Turn.id)).where(Turn.game_id.in_(ids))
        .group_by(Turn.game_id)).all())
    players = _players_of(session, games)
    finished = [g for g in games if g.status == "finished"]
    ended = _ended_of(session, finished)
    revealed = _revealed_of(session, finished)
    return [{
        "name": game.name,
        "variant": game.variant,
        "status": game.status,
        "phase": game.phase,
        "language": game.language,
        "blind": _blind(game),
        "processed_phases": int(processed.get(game.id) or 0),
        "players": players[game.id],
        "ended": ended.get(game.id),
        "revealed": revealed.get(game.id, []),
        # issue 30: every extension and pause of the GM, public like the game's deadlines
        "gm_clock": [{k: e.get(k) for k in ("at", "phase", "action", "hours", "by")}
                     for e in (game.options or {}).get("gm_clock_log") or []],
    } for game in games]


def game_ended(session: Session, game: Game) -> dict[str, Any] | None:
    """How and when ``game`` ended (the archive's words for it), None while it goes on."""
    return _ended_of(session, [game]).get(game.id) if game.status == "finished" else None


def _ended_of(session: Session, games: Sequence[Game]) -> dict[int, dict[str, Any]]:
    """How and when each finished game ended (its last ``game.ended`` audit row)."""
    if not games:
        return {}
    last: dict[int | None, AuditLog] = {}
    for entry in session.scalars(select(AuditLog).where(
            AuditLog.game_id.in_([g.id for g in games]), AuditLog.action == "game.ended")
            .order_by(AuditLog.id)):
        last[entry.game_id] = entry
    out: dict[int, dict[str, Any]] = {}
    for game in games:
        row = last.get(game.id)
        if row is None:
            out[game.id] = {"reason": "", "winners": [], "phase": game.phase, "at": None}
            continue
        detail = row.detail or {}
        out[game.id] = {"reason": str(detail.get("reason", "")),
                        "winners": list(detail.get("winners", [])),
                        "phase": str(detail.get("phase", game.phase)),
                        "at": row.at.isoformat()}
    return out


def _revealed_of(session: Session, games: Sequence[Game]) -> dict[int, list[dict[str, Any]]]:
    """The orders players sent for powers in ONP or Sommossa: public once the game is over."""
    if not games:
        return {}
    out: dict[int, list[dict[str, Any]]] = {}
    rows = session.scalars(select(Vote).where(Vote.game_id.in_([g.id for g in games]),
                                              Vote.kind == "sommossa_order").order_by(Vote.id))
    for v in rows:
        out.setdefault(v.game_id, []).append(
            {"phase": v.phase, "voter": v.voter_power, "target": v.target_power,
             "orders": list((v.payload or {}).get("orders", []))})
    return out


# games per page of the archive index (and its JSON)
INDEX_PAGE = 50


def list_games(db: Database, page: int = 1, per_page: int = INDEX_PAGE,
               ) -> list[dict[str, Any]]:
    """One page of the games that have left the forming stage, newest first."""
    return games_page(db, page, per_page)[0]


def games_page(db: Database, page: int = 1, per_page: int = INDEX_PAGE,
               ) -> tuple[list[dict[str, Any]], int]:
    """(one page of games, newest first; how many games in all): six queries at most,
    however many games there are (issue 16: a query per game made the index linear)."""
    page = max(1, page)
    with db.reading() as session:
        total = int(session.scalar(select(func.count(Game.id)).where(Game.status != "forming"))
                    or 0)
        games = session.scalars(
            # not the position: JSON worth kilobytes a game that the index does not show
            select(Game).options(defer(Game.position))
            .where(Game.status != "forming").order_by(Game.id.desc())
            .offset((page - 1) * per_page).limit(per_page)
        ).all()
        return _game_rows(session, games), total


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
