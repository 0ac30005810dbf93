"""Players' records per game (issue 30 point 6): counted as phases are processed and seats
change hands, summed per account for SUMMARY, the archive and JOIN."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from judge.rules.reliability import Record
from judge.storage.models import PlayerRecord

COUNTS = ("played", "missed", "abandoned", "replaced")


def count(session: Session, account_id: int | None, game_id: int, **more: int) -> None:
    """Add ``more`` (played=1, missed=1, ...) to the account's record in the game."""
    if account_id is None:
        return  # a computer power or a vacant seat has no record
    row = session.scalar(select(PlayerRecord).where(PlayerRecord.account_id == account_id,
                                                    PlayerRecord.game_id == game_id))
    if row is None:
        row = PlayerRecord(account_id=account_id, game_id=game_id, played=0, missed=0,
                           abandoned=0, replaced=0)
        session.add(row)
    for key, value in more.items():
        assert key in COUNTS, key
        setattr(row, key, getattr(row, key) + value)
    session.flush()


def records(session: Session, account_ids: Iterable[int]) -> dict[int, Record]:
    """Each account's record summed over all its games, in one query."""
    ids = sorted(set(account_ids))
    if not ids:
        return {}
    rows = session.execute(
        select(PlayerRecord.account_id, func.sum(PlayerRecord.played),
               func.sum(PlayerRecord.missed), func.sum(PlayerRecord.abandoned),
               func.sum(PlayerRecord.replaced), func.count(PlayerRecord.id))
        .where(PlayerRecord.account_id.in_(ids)).group_by(PlayerRecord.account_id)).all()
    return {int(a): Record(int(p or 0), int(m or 0), int(ab or 0), int(r or 0), int(g or 0))
            for a, p, m, ab, r, g in rows}
