"""A power's orders for the current phase: read (ahead of the write lock when prepared) and
stored as a new version, the one path a player's mail, the play page and a computer power take.

Part of the use-case API (``judge.service.usecases`` re-exports every name here); kept apart
because the computer powers order from inside turn processing (``judge.service.computer_phase``),
which the use cases' ``process_phase`` calls: the two stay one-way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from judge.adjudicator.position import Position
from judge.parsing.report import ParseReport, parse_orders
from judge.service import deadlines, games
from judge.service.answers import CommandRefusal
from judge.service.caller import Denied, OrdersKey, Prepared
from judge.storage import Session, gamerepo, playrepo
from judge.storage.models import Game

# a paused game still takes orders: only the clock stops
ORDERS_OPEN = ("active", "paused")
# seat statuses of a player out of the game after a second ONP (seed 002): his orders are void
EXCLUDED = ("abandoned", "sommossa")


@dataclass(frozen=True)
class OrdersOutcome:
    report: ParseReport  # every line read, with its reason when refused
    position: Position
    stored: list[str]  # the canonical orders that stand
    version: int | None  # the order_set version written; None when nothing was stored
    missing: list[str]  # units of the power still without an order

    @property
    def all_refused(self) -> bool:
        return not self.stored and bool(self.report.errors)


def orders_key(game: Game, power: str, lines: Sequence[str]) -> OrdersKey:
    """What reading ``lines`` as ``power``'s orders depends on (a prepared parse's key)."""
    return (game.id, game.phase, power, game.language, str(games.chosen(game).rules),
            tuple(lines))


def read_orders(game: Game, power: str, lines: Sequence[str],
                prepared: Prepared | None = None) -> tuple[ParseReport, Position]:
    """``lines`` read as ``power``'s orders against the current position (prepared ahead
    when ``prepared`` holds this very parse)."""
    key = orders_key(game, power, lines)
    if prepared is not None and key in prepared.orders:
        return prepared.orders[key]
    position = games.load_position(game)
    return parse_orders(list(lines), game.language, position=position, power=power,
                        rules=key[4]), position


def prepare_orders(prepared: Prepared, game: Game, power: str, lines: Sequence[str]) -> None:
    """Parse ahead (read-only, before the write transaction) what ``submit_orders`` will."""
    key = orders_key(game, power, lines)
    if key not in prepared.orders:
        prepared.orders[key] = read_orders(game, power, lines)


def submit_orders(session: Session, game: Game, power: str, lines: Sequence[str], now: datetime,
                  *, by_account_id: int | None, previous: Sequence[str] | None = None,
                  prepared: Prepared | None = None) -> OrdersOutcome:
    """Read ``lines`` as ``power``'s whole set for the current phase and store what stands.

    Nothing is stored when every line was refused, or when the set equals ``previous`` (what
    the same client stored last): a set that changed nothing makes no new version.
    ``prepared``: parses done before the write transaction (see ``prepare_orders``).
    """
    if game.status not in ORDERS_OPEN:
        raise Denied(CommandRefusal.NO_ORDERS_ACCEPTED, game, game=game.name, status=game.status)
    seat = playrepo.seat_by_power(session, game.id, power)
    if seat is not None and seat.status in EXCLUDED:
        raise Denied(CommandRefusal.OUT_OF_GAME, game, game=game.name, power=power,
                     status=seat.status)
    report, position = read_orders(game, power, lines, prepared)
    stored = [str(order) for order in report.orders]
    version = None
    if not (report.errors and not stored) and (previous is None or stored != list(previous)):
        row = gamerepo.submit_orders(session, game.id, game.phase, power, stored, now,
                                     submitted_by_id=by_account_id)
        version = row.version
        # the game may be complete now: the scheduler looks at it once this commits
        deadlines.look_now(session, game, now)
    return OrdersOutcome(report, position, stored, version,
                         without_orders(position, power, stored))


def without_orders(position: Position, power: str, orders: Sequence[str]) -> list[str]:
    """Units (or dislodged units) of ``power`` that the stored set leaves without an order."""
    ordered = {" ".join(o.split()[:2]).split("/")[0] for o in orders}
    if position.phase.is_adjustment:
        return []
    if position.phase.is_retreat:
        units = [d.unit for d in position.dislodged.values() if d.unit.power == power]
    else:
        units = position.units_of(power)
    return [str(u) for u in units if f"{u.type.value} {u.province}" not in ordered]
