"""Rows found by a natural key, remembered for the rest of the session's transaction.

A SIGNON order mail asked for its game by name five times and for its seat by (game, power)
seven times (the password check before the write transaction, the CC check, the sign-on, the
order store: 12 of its 21 statements, issue 16), and the inbox drain handles several mails in
one session. The session's identity map already holds those rows; an ORM query for one of them
returns the very object it holds, without refreshing it. What the identity map lacks is the
step from the natural key to the row, and that is what is kept here, in ``session.info``.

Any rollback, a savepoint's too, forgets every remembered row (SQLAlchemy 2.1 leaves a row
added inside a rolled-back savepoint in the session as if persistent, though the database no
longer has it). Otherwise a remembered row is used only while it is still in this session
(persistent, or added and not yet flushed), not marked for deletion, not expired, and still
under its key (a renamed game, an account whose address changed); else the database is asked
again, as before. Only rows found (or added) are remembered: a row added later in the
transaction (a seat of a game the same mail created) is still found by the query. Nothing
here outlives the transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from sqlalchemy import event, inspect
from sqlalchemy.orm import Session

_INFO = "judge_rows_by_key"

Row = TypeVar("Row")


def recall(session: Session, kind: str, key: Hashable, still: Callable[[Any], bool]) -> Any:
    """The row remembered for ``(kind, key)`` if it still holds (``still(row)``), else None."""
    rows = _rows(session)
    if not rows:
        return None
    row = rows.get((kind, key))
    if row is None:
        return None
    state = inspect(row)
    # marked deleted and not yet flushed: a query would flush the delete and find nothing
    gone = not (state.persistent or state.pending) or (session.deleted
                                                       and row in session.deleted)
    if gone or state.expired_attributes or state.session_id != session.hash_key \
            or not still(row):
        del rows[(kind, key)]
        return None
    return row


def remember(session: Session, kind: str, key: Hashable, row: Row) -> Row:
    """Keep ``row`` (when found) as ``(kind, key)``'s for this session; returns it."""
    if row is not None:
        _rows(session)[(kind, key)] = row
    return row


def _rows(session: Session) -> dict[tuple[str, Hashable], Any]:
    """This transaction's rows: a session used for several transactions (``open_session``)
    starts afresh with each one."""
    transaction = session.get_transaction()
    kept = session.info.get(_INFO)
    if kept is None or kept[0] is not transaction:
        kept = session.info[_INFO] = (transaction, {})
    rows: dict[tuple[str, Hashable], Any] = kept[1]
    return rows


@event.listens_for(Session, "after_soft_rollback")
def _forget(session: Session, _previous: Any) -> None:
    session.info.pop(_INFO, None)
