"""What every phase shares: reading the orders, the next phase, centre capture.

An order *governs* a unit when it is the first order its owner gave for it (legal or not); the
units no order governs get the phase's default. After a phase, empty retreat and adjustment
phases are skipped, and after the Fall (its retreats, if any) supply centres change hands.
"""

from __future__ import annotations

from collections import _count_elements  # type: ignore[attr-defined]
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from operator import attrgetter
from typing import Final

from judge.adjudicator.adjustments import BuildRule, build_sites
from judge.adjudicator.geography import Board
from judge.adjudicator.legality import Refusal, normalize
from judge.adjudicator.order_result import OrderResult
from judge.adjudicator.orders import Hold, Order, Unit, UnitType, Waive
from judge.adjudicator.phase import Phase
from judge.adjudicator.position import Dislodged, Position

# refusals that say the order is about no unit of the ordering power: such an order never
# governs a unit, so that unit still gets its default
NOT_ABOUT_OWN_UNIT: Final = frozenset(
    {Refusal.NO_UNIT, Refusal.NOT_YOUR_UNIT, Refusal.UNKNOWN_LOCATION, Refusal.NOT_DISLODGED}
)


@dataclass(slots=True)
class Entry:
    power: str
    order: Order
    norm: Order | Refusal
    province: str | None  # the unit this order governs, if it governs one


def read_orders(
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    board: Board,
    owners: Mapping[str, Unit],
) -> tuple[list[Entry], dict[str, Entry]]:
    entries: list[Entry] = []
    governing: dict[str, Entry] = {}
    for power, given in orders.items():
        for order in given:
            norm = normalize(position, power, order, board)
            entry = Entry(power, order, norm, None)
            entries.append(entry)
            if isinstance(order, Waive):
                continue
            if isinstance(norm, Refusal) and norm in NOT_ABOUT_OWN_UNIT:
                continue
            prov = order.location.split("/", 1)[0]
            unit = owners.get(prov)
            if unit is None or unit.power != power:
                continue
            if prov in governing:
                entry.norm = Refusal.DUPLICATE_ORDER
                continue
            entry.province = prov
            governing[prov] = entry
    return entries, governing


def by_power(entries: list[OrderResult]) -> dict[str, list[OrderResult]]:
    out: dict[str, list[OrderResult]] = {}
    for r in entries:
        out.setdefault(r.power, []).append(r)
    return out


def capture_centers(
    board: Board, units: Mapping[str, Unit], centers: dict[str, str]
) -> dict[str, str]:
    owned = dict(centers)
    supply = supply_centers(board)
    for prov, unit in units.items():
        if prov in supply:
            owned[prov] = unit.power
    return owned


@cache
def supply_centers(board: Board) -> frozenset[str]:
    return board.supply_centers


_power_of = attrgetter("power")


def adjustments_needed(
    position: Position,
    neutral: frozenset[str] = frozenset(),
    builds: BuildRule = BuildRule.HOME,
    board: Board | None = None,
) -> bool:
    """Whether some power must remove, or can build (``builds_possible`` > 0); with the
    ``board``, its partisan sites counted (``Board.partisan_sites``: 1900's Siberia).

    Neutral powers (``variant.py``) make no adjustments, so they never make the phase due.
    """
    # counted by the C helper behind ``Counter`` into plain dicts (Counter's own set-up costs
    # more than the count), and stopped at the first answer: this runs every Fall
    units = position.units
    centers = position.centers
    have: dict[str, int] = {}
    _count_elements(have, map(_power_of, units.values()))
    own: dict[str, int] = {}
    _count_elements(own, centers.values())
    partisan: dict[str, tuple[str, ...]] = {}
    if board is not None and board.partisans:
        for power in board.partisans:
            sites = board.partisan_sites(power, centers, position.homes)
            if sites:
                partisan[power] = sites
                own[power] = own.get(power, 0) + len(sites)
    for power, n in have.items():
        if n > own.get(power, 0) and power not in neutral:
            return True
    for power, n in own.items():
        if n > have.get(power, 0) and power not in neutral:
            sites = (
                position.homes.get(power, ())
                if builds is BuildRule.HOME
                else build_sites(builds, power, centers, position.homes)
            )
            for home in sites:
                if centers.get(home) == power and home not in units:
                    return True
            for site in partisan.get(power, ()):
                if site not in units:
                    return True
    return False


_RETREAT_RANK: Final = 1  # Phase.kind_rank: read directly, the properties showed up in profiles
_ADJUSTMENT_RANK: Final = 2
_FALL_RANK: Final = 1  # Phase.season_rank


def advance(
    after: Phase,
    position: Position,
    neutral: frozenset[str] = frozenset(),
    builds: BuildRule = BuildRule.HOME,
    board: Board | None = None,
) -> Phase:
    nxt = following(after)
    while True:
        kind = nxt.kind_rank
        if (kind == _RETREAT_RANK and not position.dislodged) or (
            kind == _ADJUSTMENT_RANK
            and not adjustments_needed(position, neutral, builds, board)
        ):
            nxt = following(nxt)
        else:
            return nxt


def finish(
    phase: Phase,
    board: Board,
    units: dict[str, Unit],
    centers: dict[str, str],
    dislodged: dict[str, Dislodged],
    homes: dict[str, tuple[str, ...]],
    neutral: frozenset[str],
    variant: str,  # the position's variant, carried over (never assumed)
    builds: BuildRule = BuildRule.HOME,
) -> Position:
    if phase.season_rank == _FALL_RANK and not dislodged:
        centers = capture_centers(board, units, centers)
    nxt = Position(phase, units, centers, dislodged, homes, variant)
    nxt.phase = advance(phase, nxt, neutral, builds, board)
    return nxt


# Holds are immutable values too (see ``orders.unit_value``): the ones made are kept.
_HOLDS: Final[dict[tuple[UnitType, str], Hold]] = {}


def hold_value(kind: UnitType, loc: str) -> Hold:
    key = (kind, loc)
    order = _HOLDS.get(key)
    if order is None:
        order = _HOLDS[key] = Hold(kind, loc)
    return order


_FOLLOWING: Final[dict[tuple[int, int, int], Phase]] = {}


def following(phase: Phase) -> Phase:
    """``phase.following()``, kept: keyed by the fields, as hashing a Phase runs Python code."""
    key = (phase.year, phase.season_rank, phase.kind_rank)
    nxt = _FOLLOWING.get(key)
    if nxt is None:
        nxt = _FOLLOWING[key] = phase.following()
    return nxt
