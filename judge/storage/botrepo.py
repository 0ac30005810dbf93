"""Loading and saving one game's ``Council`` (computer powers, ledger, trust) as table rows.

Every function takes the caller's Session: the caller owns the transaction, so a phase's
verdicts and trust change commit together with the phase itself.

ROLLBACK: each adjudicated phase keeps a ``council_snapshot`` row (the council's stored form as
it stood before that phase's verdicts), written in the transaction that stores the turn;
``restore_snapshot`` puts the ledger, trust and coalitions back to it in the GM's ROLLBACK
transaction and drops the snapshots of the undone phases with their turns.
"""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from judge.bots.council import Council
from judge.bots.ledger import Agreement as Promise
from judge.bots.ledger import Status
from judge.bots.proposals import from_terms
from judge.storage.models_bots import AgreementRecord, BotSeat, CouncilSnapshot, TrustRecord


def bot_powers(session: Session, game_id: int) -> dict[str, str]:
    """Power -> personality of the game's computer powers."""
    rows = session.scalars(select(BotSeat).where(BotSeat.game_id == game_id))
    return {s.power: s.personality for s in rows}


def load_council(session: Session, game_id: int) -> Council | None:
    """The game's council, or None when the computer plays no power in it and nobody has
    proposed anything (players' agreements are kept in the ledger too)."""
    seats = list(session.scalars(select(BotSeat).where(BotSeat.game_id == game_id)))
    if not seats and session.scalar(
            select(AgreementRecord.id).where(AgreementRecord.game_id == game_id).limit(1)) is None:
        return None
    council = Council({s.power: s.personality for s in seats})
    for seat in seats:
        council.announced |= {(seat.power, leader) for leader in seat.announced}
    rows = session.scalars(
        select(AgreementRecord).where(AgreementRecord.game_id == game_id).order_by(AgreementRecord.number)
    )
    for row in rows:
        council.agreements.append(
            Promise(
                row.number,
                from_terms(row.proposer, row.partner, row.terms),
                row.since_phase,
                Status(row.status),
                row.broken_by,
                row.evidence,
            )
        )
    for t in session.scalars(select(TrustRecord).where(TrustRecord.game_id == game_id)):
        council.trust.values[(t.holder, t.other)] = t.value
        if t.betrayals:
            council.trust.betrayals[(t.holder, t.other)] = t.betrayals
    return council


def save_council(session: Session, game_id: int, council: Council) -> None:
    """Write the council back: new rows added, changed rows updated, nothing deleted."""
    seats = {s.power: s for s in session.scalars(select(BotSeat).where(BotSeat.game_id == game_id))}
    for power, name in sorted(council.characters.items()):
        seat = seats.get(power)
        if seat is None:
            seat = BotSeat(game_id=game_id, power=power, personality=name, announced=[])
            session.add(seat)
        seat.personality = name
        seat.announced = sorted(leader for who, leader in council.announced if who == power)
    stored = {
        a.number: a for a in session.scalars(select(AgreementRecord).where(AgreementRecord.game_id == game_id))
    }
    for promise in council.agreements:
        row = stored.get(promise.number)
        if row is None:
            row = AgreementRecord(
                game_id=game_id,
                number=promise.number,
                proposer=promise.proposal.proposer,
                partner=promise.proposal.partner,
                kind=promise.proposal.kind.value,
                terms=promise.proposal.terms(),
                since_phase=promise.since,
            )
            session.add(row)
        row.since_phase = promise.since
        row.status = promise.status.value
        row.broken_by = promise.broken_by
        row.evidence = promise.evidence
    levels = {
        (t.holder, t.other): t
        for t in session.scalars(select(TrustRecord).where(TrustRecord.game_id == game_id))
    }
    for (holder, other), value in sorted(council.trust.values.items()):
        level = levels.get((holder, other))
        if level is None:
            level = TrustRecord(game_id=game_id, holder=holder, other=other)
            session.add(level)
        level.value = value
        level.betrayals = council.trust.betrayals.get((holder, other), 0)
    session.flush()


def save_snapshot(session: Session, game_id: int, phase: str, council: Council) -> None:
    """The council as it stands now, kept for a ROLLBACK to ``phase`` (before its verdicts)."""
    row = session.scalar(
        select(CouncilSnapshot).where(
            CouncilSnapshot.game_id == game_id, CouncilSnapshot.phase == phase
        )
    )
    if row is None:
        row = CouncilSnapshot(game_id=game_id, phase=phase)
        session.add(row)
    row.council = council.to_json()
    session.flush()


def restore_snapshot(
    session: Session, game_id: int, phase: str, undone: Collection[str]
) -> Council | None:
    """ROLLBACK to ``phase`` (``undone``: the phases whose turns are undone, ``phase`` among
    them): the agreements, trust and coalitions as they stood when ``phase`` was adjudicated.

    The computer's seats are not rolled back (they follow the seats, which ROLLBACK leaves as
    they are): their characters stay. No snapshot of ``phase`` but one of a later phase means
    the game had no council yet: the ledger is emptied. No snapshot at all (turns played before
    snapshots were kept, or no computer power and no agreement): nothing is changed, and None
    is returned.
    """
    rows = {
        r.phase: r
        for r in session.scalars(
            select(CouncilSnapshot).where(
                CouncilSnapshot.game_id == game_id, CouncilSnapshot.phase.in_(list(undone))
            )
        )
    }
    if not rows:
        return None
    row = rows.get(phase)
    then = Council.from_json(row.council) if row is not None else Council({})
    now = load_council(session, game_id)
    then.characters = dict(now.characters) if now is not None else {}
    then.announced = {(who, lead) for who, lead in then.announced if who in then.characters}
    numbers = [a.number for a in then.agreements]
    session.execute(
        delete(AgreementRecord).where(
            AgreementRecord.game_id == game_id, AgreementRecord.number.not_in(numbers)
        )
    )
    for level in session.scalars(select(TrustRecord).where(TrustRecord.game_id == game_id)):
        if (level.holder, level.other) not in then.trust.values:
            session.delete(level)
    for r in rows.values():
        session.delete(r)
    session.flush()
    save_council(session, game_id, then)
    return then
