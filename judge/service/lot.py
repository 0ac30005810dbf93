"""Seed 001's two-player game: the lot that gives Italy to one of the two players.

"Before the Fall 1914 adjustments" the judge draws it with a seeded generator; the seed, the
seats in the cup and the winner are kept in ``game.options["lot_record"]`` (so the draw can be
checked: ``random.Random(seed).choice(seats)``) and in the audit log, and the results bulletin
that takes the game to the adjustments announces it. From then on the winner's player orders
Italy too: Italy gets a seat row of its own (its ONPs and late days count apart, like every
power of a multi-power seat) held by the same account, with the same password.
"""

from __future__ import annotations

import random
import secrets
from datetime import datetime

from judge.adjudicator.catalog import DEFAULT_VARIANT
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.phase import Phase
from judge.bulletins.views import Notice
from judge.rules.assignment import seat_label
from judge.service.snapshot_rows import LOT_KEY, lot_joins
from judge.storage import Session, gamerepo, playrepo
from judge.storage.models import Game, Seat


def draw_lot(session: Session, game: Game, reached: Phase, now: datetime,
             seed: int | None = None) -> list[Notice]:
    """Draw the lot if the game has just reached the phase it is drawn before; the notices
    to announce (none when there is no lot, or it was drawn already)."""
    variant = installed_variant(game.variant or DEFAULT_VARIANT)
    lot = variant.lot
    if lot is None or reached < lot.drawn_before or lot_joins(game) is not None:
        return []
    seed = seed if seed is not None else secrets.randbits(63)
    labels = [seat_label(seat) for seat in variant.seats]
    winner = random.Random(seed).choice(labels)
    joins = variant.seats[labels.index(winner)][0]
    options = dict(game.options or {})
    options[LOT_KEY] = {"seed": seed, "power": lot.power, "seats": labels, "winner": winner,
                        "joins": joins, "phase": str(reached)}
    game.options = options
    holder = playrepo.seat_by_power(session, game.id, joins)
    if holder is not None and playrepo.seat_by_power(session, game.id, lot.power) is None:
        session.add(Seat(game_id=game.id, power=lot.power, account_id=holder.account_id,
                         password_hash=holder.password_hash, status="active",
                         anon_token=f"{game.name}-{lot.power.lower()}"))
    gamerepo.audit(session, now, "lot", game_id=game.id, seed=seed, power=lot.power,
                   seats=labels, winner=winner)
    session.flush()
    return [Notice("lot", lot.power, detail=joins)]


def undo_lot(session: Session, game: Game, back_to: Phase, now: datetime) -> bool:
    """Undo the lot when a ROLLBACK takes the game back to ``back_to``, a phase before the one
    it had reached when the lot was drawn; True when there was such a lot to undo."""
    record = dict((game.options or {}).get(LOT_KEY) or {})
    if not record or back_to >= Phase.parse(str(record["phase"])):
        return False
    options = dict(game.options or {})
    del options[LOT_KEY]
    game.options = options
    seat = playrepo.seat_by_power(session, game.id, str(record["power"]))
    if seat is not None:
        session.delete(seat)
    gamerepo.audit(session, now, "lot.undone", game_id=game.id, phase=str(back_to),
                   record=record, seat_account_id=None if seat is None else seat.account_id)
    session.flush()
    return True
