"""Whether an order may be given at all in a position, and if not, why.

``normalize`` answers with the order as the adjudicator will read it (the unit's real location,
the only reachable coast filled in, a coast on an army's destination dropped) or with a
``Refusal``. ``check`` is the yes/no form the parsers call. Adjacency questions all go through
``geography.Board``; convoy geometry through ``convoy_routes``.
"""

from __future__ import annotations

from typing import Final, Literal

from judge.adjudicator.adjustments import BuildRule, build_sites
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.convoy_routes import (
    army_could_be_convoyed,
    fleet_can_convoy,
    route_exists,
    sea_neighbours,
)
from judge.adjudicator.geography import Board
from judge.adjudicator.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
)
from judge.adjudicator.phase import PhaseType
from judge.adjudicator.position import Position
from judge.adjudicator.refusals import Refusal

ARMY: Final = UnitType.ARMY
FLEET: Final = UnitType.FLEET

__all__ = ["Refusal", "check", "normalize", "normalize_movement", "normalize_with"]


def _unit_for(
    units: dict[str, Unit], power: str, unit_type: UnitType, location: str, board: Board
) -> Unit | Refusal:
    if location not in board.locations:
        return Refusal.UNKNOWN_LOCATION
    unit = units.get(location.split("/", 1)[0])
    if unit is None:
        return Refusal.NO_UNIT
    if unit.power != power:
        return Refusal.NOT_YOUR_UNIT
    if unit.type is not unit_type:
        return Refusal.WRONG_UNIT_TYPE
    return unit


def fleet_target(board: Board, source: str, target: str) -> str | Refusal:
    """The exact location a fleet at ``source`` reaches when ordered to ``target``."""
    prov = board.province_of(target)
    province = board.provinces[prov]
    if province.kind == "land":
        return Refusal.FLEET_TO_LAND
    if board.fleet_can_move(source, target):
        return target
    reachable = board.fleet_coasts_reachable(source, prov) if province.coasts else []
    if target == prov and len(reachable) == 1:
        return reachable[0]
    if target == prov and len(reachable) > 1:
        return Refusal.MISSING_COAST
    if target != prov and reachable:
        return Refusal.WRONG_COAST
    return Refusal.NOT_ADJACENT


def army_target(board: Board, source: str, target: str) -> str | Refusal:
    prov = board.province_of(target)
    if board.provinces[prov].is_sea:
        return Refusal.ARMY_TO_SEA
    if prov in board.army_adjacency.get(source, ()) or army_could_be_convoyed(board, source, prov):
        return prov
    return Refusal.NOT_ADJACENT


def fleets_at_sea(units: dict[str, Unit], board: Board) -> list[str]:
    """The sea provinces holding a fleet (in no fixed order: callers ask yes/no questions)."""
    at_sea = sea_neighbours(board)  # cached: keyed by the sea provinces
    # the sea provinces with a unit, intersected in C (the type check is for hand-made positions)
    return [p for p in at_sea.keys() & units.keys() if units[p].type is FLEET]


def fleets_could_carry(units: dict[str, Unit], board: Board, start: str, target: str) -> bool:
    return route_exists(board, start, target, fleets_at_sea(units, board))


def _move_geography(board: Board, unit: Unit, order: Move) -> Order | Refusal:
    """Everything about a move that the map alone decides (the fleets at sea are checked apart)."""
    if order.target not in board.locations:
        return Refusal.UNKNOWN_LOCATION
    if board.province_of(order.target) == unit.province:
        return Refusal.MOVE_TO_OWN_PROVINCE
    if unit.type is ARMY:
        target = army_target(board, unit.province, order.target)
        if isinstance(target, Refusal):
            return target
        return Move(ARMY, unit.location, target, order.via_convoy)
    target = fleet_target(board, unit.location, order.target)
    if isinstance(target, Refusal):
        return target
    # fleets are never convoyed, so a VIA written on a fleet means nothing
    return Move(FLEET, unit.location, target)


def _convoy(
    units: dict[str, Unit], board: Board, unit: Unit, order: Convoy
) -> Convoy | Refusal:
    if unit.type is not FLEET:
        return Refusal.CONVOY_BY_ARMY
    if not board.provinces[unit.province].convoys:
        return Refusal.CONVOY_NOT_AT_SEA
    if order.army not in board.locations or order.target not in board.locations:
        return Refusal.UNKNOWN_LOCATION
    army_prov = board.province_of(order.army)
    target_prov = board.province_of(order.target)
    army = units.get(army_prov)
    if army is None or army.type is not ARMY:
        return Refusal.NO_CONVOYED_ARMY
    if army_prov == target_prov:
        return Refusal.MOVE_TO_OWN_PROVINCE
    if board.provinces[target_prov].kind != "coast":
        return Refusal.CONVOY_TARGET_NOT_COASTAL
    if not fleet_can_convoy(board, unit.province, army_prov, target_prov):
        return Refusal.CONVOY_NOT_ON_ROUTE
    return Convoy(FLEET, unit.location, army_prov, target_prov)


# The movement phase's fast path (order_plans.py) makes and reads these plans; the memo
# below keeps them, so they are named here.
# province, the unit expected there (the shared value, see ``orders.unit_value``) and the power
# that gave the order first (both recognised by identity: the common case), the unit's type and
# location (compared when the unit there is another power's or an equal copy), the answer,
# whether an army's move needs fleets at sea, and for a legal move what the resolver's index
# wants (else None and ""): target province, target location, army?, army that wants the sea?
# One flat tuple: one object to fetch.
Plan = tuple[
    str, Unit, str, UnitType, str, "Order | Refusal", bool, "str | None", str, bool, bool
]
# as a Plan: province, expected unit, power, its type and location; then the supported unit's
# province, type and location, and the answer
SupportPlan = tuple[str, Unit, str, UnitType, str, str, UnitType, str, "SupportHold | SupportMove"]


class _Memo:
    """Per-board memo of the geography-only part of movement legality.

    Legality is asked for every order of every phase; the answers that depend only on the map
    (adjacency, coasts, support reach, convoy routes) are stored here keyed by plain tuples.
    """

    __slots__ = (
        "board",
        "province",
        "moves",
        "reach",
        "supported",
        "convoys",
        "plans",
        "support_plans",
    )

    def __init__(self, board: Board) -> None:
        self.board = board
        self.province = {loc: loc.split("/", 1)[0] for loc in board.locations}
        # (the order or refusal, whether the army must go by sea): the fleets are checked apart
        self.moves: dict[tuple[UnitType, str, str, bool], tuple[Order | Refusal, bool]] = {}
        self.reach: dict[tuple[UnitType, str, str], bool] = {}
        self.supported: dict[tuple[UnitType, str, str], str | Refusal] = {}
        self.convoys: dict[tuple[UnitType, str, str, str], Order | Refusal] = {}
        # per-order answers of the movement phase's fast path (order_plans.py): a Plan, or
        # False for an order the general path handles; a SupportPlan
        self.plans: dict[Order, Plan | Literal[False]] = {}
        self.support_plans: dict[Order, SupportPlan] = {}

    def reaches(self, unit_type: UnitType, location: str, province: str) -> bool:
        key = (unit_type, location, province)
        found = self.reach.get(key)
        if found is None:
            found = self.reach[key] = self.board.can_reach(unit_type.value, location, province)
        return found


MovementMemo = _Memo  # the memo's name for the modules of the movement phase
_MEMOS: Final[dict[int, _Memo]] = {}


def _memo(board: Board) -> _Memo:
    memo = _MEMOS.get(id(board))
    if memo is None or memo.board is not board:
        memo = _MEMOS[id(board)] = _Memo(board)
    return memo


def normalize_movement(
    units: dict[str, Unit], power: str, order: Order, board: Board
) -> Order | Refusal:
    """Movement-phase form of ``normalize`` over a bare unit map."""
    return normalize_with(_memo(board), units, power, order)


def movement_memo(board: Board) -> _Memo:
    return _memo(board)


def normalize_with(
    memo: _Memo, units: dict[str, Unit], power: str, order: Order
) -> Order | Refusal:
    """``normalize_movement`` with the board's memo already in hand (the adjudicator's hot path)."""
    # ``type(order) is Kind`` at each test (not one ``__class__`` kept in a local): as fast, and
    # mypy narrows ``order`` by it
    if isinstance(order, _OTHER_KINDS):
        return Refusal.WRONG_PHASE
    board = memo.board
    prov = memo.province.get(order.location)
    if prov is None:
        return Refusal.UNKNOWN_LOCATION
    unit = units.get(prov)
    if unit is None:
        return Refusal.NO_UNIT
    if unit.power != power:
        return Refusal.NOT_YOUR_UNIT
    if unit.type is not order.unit_type:
        return Refusal.WRONG_UNIT_TYPE
    if type(order) is Hold:
        return order if order.location == unit.location else Hold(unit.type, unit.location)
    if type(order) is Move:
        answer, by_sea = move_entry(memo, unit, order)
        # by_sea only for an army's legal move
        if by_sea and type(answer) is Move and not fleets_could_carry(
            units, board, prov, answer.target
        ):
            return Refusal.NO_FLEETS_TO_CONVOY
        return answer
    if type(order) is Convoy:
        army_prov = memo.province.get(order.army)
        army = units.get(army_prov) if army_prov is not None else None
        if army is None or army.type is not ARMY or army_prov is None:
            return Refusal.NO_CONVOYED_ARMY
        ckey = (unit.type, unit.location, army_prov, order.target)
        result = memo.convoys.get(ckey)
        if result is None:
            result = memo.convoys[ckey] = _convoy(units, board, unit, order)
        return result
    # the supported unit, found through the memo's location table (this runs for every support)
    supported = order.supported
    other_prov = memo.province.get(supported)
    if other_prov is None:
        return Refusal.UNKNOWN_LOCATION
    if other_prov == prov:
        return Refusal.SUPPORT_SELF
    other = units.get(other_prov)
    if other is None:
        return Refusal.NO_SUPPORTED_UNIT
    if other.type is not order.supported_type:
        return Refusal.WRONG_SUPPORTED_TYPE
    reach = memo.reach
    if type(order) is SupportHold:
        key = (unit.type, unit.location, other_prov)
        found = reach.get(key)
        if found is None:
            found = memo.reaches(unit.type, unit.location, other_prov)
        if not found:
            return Refusal.SUPPORT_UNREACHABLE
        if supported == other.location:
            return order
        return SupportHold(unit.type, unit.location, other.type, other.location)
    target = order.target
    target_prov = memo.province.get(target)
    if target_prov is None:
        return Refusal.UNKNOWN_LOCATION
    if target_prov == prov:
        return Refusal.SUPPORT_OWN_PROVINCE
    if target_prov == other_prov:
        return Refusal.SUPPORTED_MOVE_IMPOSSIBLE
    key = (unit.type, unit.location, target_prov)
    found = reach.get(key)
    if found is None:
        found = memo.reaches(unit.type, unit.location, target_prov)
    if not found:
        return Refusal.SUPPORT_UNREACHABLE
    key = (other.type, other.location, target)
    written = memo.supported.get(key)
    if written is None:
        written = memo.supported[key] = _supported_target(board, other, target)
    if isinstance(written, Refusal):
        return written
    if supported == other.location and target == written:
        return order
    return SupportMove(unit.type, unit.location, other.type, other.location, written)


def move_entry(memo: _Memo, unit: Unit, order: Move) -> tuple[Order | Refusal, bool]:
    """A move as the map reads it, and whether the army must go by sea (fleets checked apart)."""
    key = (unit.type, unit.location, order.target, order.via_convoy)
    entry = memo.moves.get(key)
    if entry is None:
        result = _move_geography(memo.board, unit, order)
        by_sea = (
            type(result) is Move
            and unit.type is ARMY
            and result.target not in memo.board.army_adjacency[unit.province]
        )
        entry = memo.moves[key] = (result, by_sea)
    return entry


def _supported_target(board: Board, other: Unit, target: str) -> str | Refusal:
    """How a support for ``other`` moving to ``target`` is read, or why that move is impossible."""
    target_prov = board.province_of(target)
    if other.type is ARMY:
        possible = army_target(board, other.province, target_prov)
        written = target_prov  # a coast on an army's destination means nothing
    else:
        possible = fleet_target(board, other.location, target)
        # supports need no coast (DATC 6.B.7/8), but a coast written must match (6.B.9)
        written = target
        if possible is Refusal.MISSING_COAST:
            possible = target_prov
    if isinstance(possible, Refusal):
        return Refusal.SUPPORTED_MOVE_IMPOSSIBLE
    return written


# the orders that are not movement orders (every order class is final, so this is exact)
_OTHER_KINDS: Final = (Retreat, Disband, Build, Waive)


def _retreat(position: Position, power: str, order: Order, board: Board) -> Order | Refusal:
    if not isinstance(order, Retreat | Move | Disband):
        return Refusal.WRONG_PHASE
    if order.location not in board.locations:
        return Refusal.UNKNOWN_LOCATION
    prov = board.province_of(order.location)
    entry = position.dislodged.get(prov)
    if entry is None:
        return Refusal.NOT_DISLODGED if prov in position.units else Refusal.NO_UNIT
    unit = entry.unit
    if unit.power != power:
        return Refusal.NOT_YOUR_UNIT
    if unit.type is not order.unit_type:
        return Refusal.WRONG_UNIT_TYPE
    if isinstance(order, Disband):
        return Disband(unit.type, unit.location)
    if order.target not in board.locations:
        return Refusal.UNKNOWN_LOCATION
    target = order.target
    if unit.type is ARMY:
        target = board.province_of(target)
    elif target not in entry.retreats:
        coasts = [r for r in entry.retreats if board.province_of(r) == target]
        if len(coasts) == 1:
            target = coasts[0]
    if target not in entry.retreats:
        return Refusal.RETREAT_NOT_ALLOWED
    return Retreat(unit.type, unit.location, target)


def build_location(board: Board, unit_type: UnitType, location: str) -> str | Refusal:
    """Where a unit of this type would stand if built at ``location``."""
    prov = board.province_of(location)
    province = board.provinces[prov]
    if unit_type is ARMY:
        return prov
    if province.kind == "land":
        return Refusal.FLEET_INLAND
    if province.coasts and location == prov:
        return Refusal.MISSING_COAST
    if not board.can_fleet_stand(location):
        return Refusal.WRONG_COAST
    return location


def _adjustment(
    position: Position, power: str, order: Order, board: Board, builds: BuildRule
) -> Order | Refusal:
    if not isinstance(order, Build | Disband | Waive):
        return Refusal.WRONG_PHASE
    owed = position.owed(power, board)
    if isinstance(order, Waive):
        return order if owed > 0 else Refusal.NO_BUILDS_AVAILABLE
    if order.location not in board.locations:
        return Refusal.UNKNOWN_LOCATION
    if isinstance(order, Disband):
        if owed >= 0:
            return Refusal.NO_REMOVALS_NEEDED
        unit = _unit_for(position.units, power, order.unit_type, order.location, board)
        if isinstance(unit, Refusal):
            return unit
        return Disband(unit.type, unit.location)
    if owed <= 0:
        return Refusal.NO_BUILDS_AVAILABLE
    prov = board.province_of(order.location)
    sites = (
        position.homes.get(power, ())
        if builds is BuildRule.HOME
        else build_sites(builds, power, position.centers, position.homes)
    )
    # a partisan site that counts now (Board.partisan_sites) takes a build, owned by nobody
    partisan = bool(board.partisans) and prov in board.partisan_sites(
        power, position.centers, position.homes
    )
    if not partisan and prov not in sites:
        return Refusal.NOT_A_HOME_CENTER
    if not partisan and position.centers.get(prov) != power:
        return Refusal.CENTER_NOT_OWNED
    if prov in position.units:
        return Refusal.CENTER_OCCUPIED
    where = build_location(board, order.unit_type, order.location)
    if isinstance(where, Refusal):
        return where
    return Build(order.unit_type, where)


def normalize(
    position: Position,
    power: str,
    order: Order,
    board: Board | None = None,
    builds: BuildRule | None = None,
) -> Order | Refusal:
    """The order as the adjudicator reads it, or why it cannot be given in this position."""
    b = board or installed_variant(position.variant).board
    kind = position.phase.kind
    if kind is PhaseType.MOVEMENT:
        return normalize_movement(position.units, power, order, b)
    if kind is PhaseType.RETREAT:
        return _retreat(position, power, order, b)
    if builds is None:
        builds = installed_variant(position.variant).builds
    return _adjustment(position, power, order, b, builds)


def check(
    position: Position, power: str, order: Order, board: Board | None = None
) -> Refusal | None:
    """None if ``power`` may give ``order`` in ``position``; otherwise the reason it may not."""
    result = normalize(position, power, order, board)
    return result if isinstance(result, Refusal) else None
