"""Repository functions the mail commands need beyond ``gamerepo`` (seats, votes, deadlines).

Kept apart from ``gamerepo`` so the command handlers (issue 6) could grow them without touching
the shared module; every function takes the caller's Session (the caller owns the transaction).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import CursorResult, delete, func, select
from sqlalchemy.orm import Session, load_only

from judge.storage import gamerepo
from judge.storage.models_game import Account, Deadline, Game, Press, Seat, Turn, Vote
from judge.storage.rowmemo import recall, remember


def account_by_address(session: Session, address: str) -> Account | None:
    return gamerepo.account_by_address(session, address)


def addresses_of_accounts(session: Session, account_ids: Sequence[int]) -> dict[int, str]:
    """Account id -> address, in one query (the CC check of every orders mail asks for a
    whole game's players)."""
    if not account_ids:
        return {}
    rows = session.execute(
        select(Account.id, Account.address).where(Account.id.in_(sorted(set(account_ids))))
    )
    return {int(row[0]): str(row[1]) for row in rows}


def games_with_status(session: Session, statuses: Sequence[str]) -> list[Game]:
    stmt = select(Game).where(Game.status.in_(list(statuses))).order_by(Game.name)
    return list(session.scalars(stmt))


def games_page(session: Session, statuses: Sequence[str], page: int, per_page: int,
               ) -> tuple[list[tuple[Game, int]], int]:
    """(one page of the games with ``statuses`` by name, each with the number of people in
    it; how many games in all): three queries however many games (issue 16: LIST).

    People, not seat rows: seed 001's fewer-player games give one person several seats; a
    seat without an account (a computer power) counts as one."""
    where = Game.status.in_(list(statuses))
    total = int(session.scalar(select(func.count(Game.id)).where(where)) or 0)
    # the listed columns only: a game's position and options are JSON worth kilobytes
    games = list(session.scalars(
        select(Game).options(load_only(Game.id, Game.name, Game.status, Game.phase,
                                       Game.language, Game.variant))
        .where(where).order_by(Game.name).offset((max(1, page) - 1) * per_page)
        .limit(per_page)))
    people: dict[int, set[int]] = {g.id: set() for g in games}
    if games:
        for game_id, seat_id, account_id in session.execute(
                select(Seat.game_id, Seat.id, Seat.account_id)
                .where(Seat.game_id.in_(list(people)))):
            people[game_id].add(account_id if account_id is not None else -seat_id)
    return [(g, len(people[g.id])) for g in games], total


def seat_by_power(session: Session, game_id: int, power: str) -> Seat | None:
    key = (game_id, power)
    found: Seat | None = recall(session, "seat", key,
                                lambda row: (row.game_id, row.power) == key)
    if found is None:
        found = remember(session, "seat", key, session.scalar(
            select(Seat).where(Seat.game_id == game_id, Seat.power == power)))
    return found


def seat_by_token(session: Session, token: str) -> Seat | None:
    return session.scalar(select(Seat).where(func.lower(Seat.anon_token) == token.lower()))


def seats_of_account(session: Session, game_id: int, account_id: int) -> list[Seat]:
    stmt = select(Seat).where(Seat.game_id == game_id, Seat.account_id == account_id)
    return list(session.scalars(stmt.order_by(Seat.power)))


def votes_of_kinds(session: Session, game_id: int, kinds: Sequence[str]) -> list[Vote]:
    """The game's votes of any of ``kinds`` (one query for what several ``votes`` calls read)."""
    return list(session.scalars(select(Vote).where(Vote.game_id == game_id,
                                                   Vote.kind.in_(list(kinds)))
                                .order_by(Vote.id)))


def votes(
    session: Session,
    game_id: int,
    phase: str | None = None,
    kind: str | None = None,
    voter_power: str | None = None,
) -> list[Vote]:
    stmt = select(Vote).where(Vote.game_id == game_id)
    if phase is not None:
        stmt = stmt.where(Vote.phase == phase)
    if kind is not None:
        stmt = stmt.where(Vote.kind == kind)
    if voter_power is not None:
        stmt = stmt.where(Vote.voter_power == voter_power)
    return list(session.scalars(stmt.order_by(Vote.id)))


def delete_votes(
    session: Session,
    game_id: int,
    phase: str | None,
    kind: str,
    voter_power: str,
    target_power: str | None = None,
) -> int:
    """Withdraw votes (``phase`` None: in every phase; draw votes outlive their phase)."""
    stmt = delete(Vote).where(Vote.game_id == game_id, Vote.kind == kind,
                              Vote.voter_power == voter_power)
    if phase is not None:
        stmt = stmt.where(Vote.phase == phase)
    if target_power is not None:
        stmt = stmt.where(Vote.target_power == target_power)
    # a DELETE's result is a CursorResult, which has the row count
    deleted = cast(CursorResult[Any], session.execute(stmt))
    return deleted.rowcount or 0


def turn_by_phase(session: Session, game_id: int, phase: str) -> Turn | None:
    return session.scalar(select(Turn).where(Turn.game_id == game_id, Turn.phase == phase))


def open_deadlines(session: Session, game_id: int) -> list[Deadline]:
    stmt = select(Deadline).where(Deadline.game_id == game_id, Deadline.done.is_(False))
    return list(session.scalars(stmt.order_by(Deadline.due_at)))


def press_of_game(session: Session, game_id: int) -> list[Press]:
    return list(session.scalars(select(Press).where(Press.game_id == game_id).order_by(Press.id)))


def stored_hash(session: Session, game_name: str, power: str) -> str | None:
    """The password hash a SIGNON of ``power`` (or "GM") in game ``game_name`` checks."""
    game = gamerepo.game_by_name(session, game_name)
    if game is None:
        return None
    if power == "GM":
        return game.password_hash
    seat = seat_by_power(session, game.id, power)
    return seat.password_hash if seat is not None else None


def latest_game_language(session: Session, account_id: int) -> str | None:
    """The language of the newest unfinished game the account plays or referees: what a mail
    from it that names no game and uses no command word is answered in."""
    plays = select(Seat.game_id).where(Seat.account_id == account_id)
    stmt = (select(Game.language)
            .where(Game.status != "finished",
                   (Game.id.in_(plays)) | (Game.gm_account_id == account_id))
            .order_by(Game.id.desc()).limit(1))
    return session.scalar(stmt)
