"""Seed 002's defaults for missing retreat and adjustment orders.

- tacit retreat ("ritirata tacita"): the retreat nearest the power's original borders, then one
  onto a supply centre, then the first by canonical code;
- automatic disband ("scioglimento automatico"): the unit farthest from the original home
  centres, then one not on a supply centre, then a fleet before an army, then the first by code;
- automatic build ("costruzioni automatiche"): the free home centres in code order, each with the
  unit type it started the game with.
Distances are counted in provinces whatever the unit type (Board.distances).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from judge.adjudicator.adjustments import BuildRule, RemovalDistance, build_sites
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.geography import Board
from judge.adjudicator.orders import Build, Disband, Retreat, Unit, UnitType
from judge.adjudicator.position import Dislodged, Position
from judge.rules.generated import GeneratedOrder, GeneratedWhy
from judge.rules.options import RuleSet
from judge.rules.territory import FAR_AWAY, home_territory, starting_unit


def tacit_retreat(
    dislodged: Dislodged, homes: Mapping[str, Sequence[str]], board: Board
) -> GeneratedOrder:
    unit = dislodged.unit
    if not dislodged.retreats:
        return GeneratedOrder(
            Disband(unit.type, unit.location), GeneratedWhy.TACIT_RETREAT_NOWHERE
        )
    distance = board.distances(home_territory(unit.power, homes, board))

    def preference(location: str) -> tuple[int, bool, str]:
        province = board.province_of(location)
        return (
            distance.get(province, FAR_AWAY),
            not board.provinces[province].supply_center,
            location,
        )

    target = min(dislodged.retreats, key=preference)
    return GeneratedOrder(Retreat(unit.type, unit.location, target), GeneratedWhy.TACIT_RETREAT)


def _removal_order(
    units: Sequence[Unit],
    count: int,
    home_centers: Collection[str],
    board: Board,
    centre_counts: bool,
) -> list[Unit]:
    """The ``count`` units to remove, farthest from the home centres first."""
    distance = board.distances(frozenset(home_centers)) if home_centers else {}

    def preference(unit: Unit) -> tuple[int, bool, bool, str]:
        on_centre = centre_counts and board.provinces[unit.province].supply_center
        return (
            -distance.get(unit.province, FAR_AWAY),
            on_centre,
            unit.type is not UnitType.FLEET,
            unit.location,
        )

    return sorted(units, key=preference)[: max(count, 0)]


def automatic_disbands(
    position: Position,
    power: str,
    count: int,
    keep_out: Collection[str] = (),
    board: Board | None = None,
    distance: RemovalDistance = RemovalDistance.HOME,
) -> list[GeneratedOrder]:
    """Seed 002's removals; ``keep_out`` are provinces whose unit the player already removed."""
    return _removals(position, power, count, keep_out, board, centre_counts=True,
                     why=GeneratedWhy.AUTOMATIC_DISBAND, distance=distance)


def free_home_centers(position: Position, power: str) -> list[str]:
    """Centres the power may build in (its home centres, or what its variant's build rule
    allows: ``adjustments.BuildRule``) that it owns and no unit occupies, in code order."""
    rule = installed_variant(position.variant).builds
    sites = (
        position.homes.get(power, ())
        if rule is BuildRule.HOME
        else build_sites(rule, power, position.centers, position.homes)
    )
    board = installed_variant(position.variant).board
    free = [c for c in sites if position.centers.get(c) == power and c not in position.units]
    if board.partisans:  # 1900's Siberia, while it counts (Board.partisan_sites)
        partisan = board.partisan_sites(power, position.centers, position.homes)
        free += [c for c in partisan if c not in position.units]
    return sorted(free)


def automatic_builds(
    position: Position,
    power: str,
    count: int,
    board: Board | None = None,
) -> list[GeneratedOrder]:
    board = board or installed_variant(position.variant).board
    chosen = free_home_centers(position, power)[: max(count, 0)]
    builds = []
    for centre in chosen:
        unit = starting_unit(power, centre, board)
        builds.append(
            GeneratedOrder(Build(unit.type, unit.location), GeneratedWhy.AUTOMATIC_BUILD)
        )
    return builds


def rulebook_removals(
    position: Position,
    power: str,
    count: int,
    keep_out: Collection[str] = (),
    board: Board | None = None,
    distance: RemovalDistance = RemovalDistance.HOME,
) -> list[GeneratedOrder]:
    """2008 rulebook civil disorder: farthest first, fleets before armies, then by code.

    Distance is to the home centres, as seed 000 counts it for civil disorder.
    """
    return _removals(position, power, count, keep_out, board, centre_counts=False,
                     why=GeneratedWhy.CIVIL_DISORDER_REMOVAL, distance=distance)


def french_removals(
    position: Position,
    power: str,
    count: int,
    keep_out: Collection[str] = (),
    board: Board | None = None,
    distance: RemovalDistance = RemovalDistance.HOME,
) -> list[GeneratedOrder]:
    """Seed 000's civil disorder: farthest from the home centres ("centres nationaux") first;
    "En cas d'égalité, sont éliminées prioritairement les unités qui n'occupent pas un centre,
    puis les flottes avant les armées; en dernier lieu, on utilise l'ordre alphabétique."
    """
    return _removals(position, power, count, keep_out, board, centre_counts=True,
                     why=GeneratedWhy.CIVIL_DISORDER_REMOVAL, distance=distance)


def _removals(
    position: Position,
    power: str,
    count: int,
    keep_out: Collection[str],
    board: Board | None,
    *,
    centre_counts: bool,
    why: GeneratedWhy,
    distance: RemovalDistance = RemovalDistance.HOME,
) -> list[GeneratedOrder]:
    board = board or installed_variant(position.variant).board
    units = [u for u in position.units_of(power) if u.province not in keep_out]
    # DATC 3.0 (2023 rulebook) counts from the centres owned now; the seeds from the home ones
    reference = (
        position.centers_of(power) if distance is RemovalDistance.OWNED
        else position.homes.get(power, ())
    )
    chosen = _removal_order(units, count, reference, board, centre_counts=centre_counts)
    return [GeneratedOrder(Disband(u.type, u.location), why) for u in chosen]


def removals_for(
    rules: RuleSet,
    position: Position,
    power: str,
    count: int,
    keep_out: Collection[str] = (),
    board: Board | None = None,
    distance: RemovalDistance = RemovalDistance.HOME,
) -> list[GeneratedOrder]:
    """The removals a rule set makes up for a power that owes ``count`` more.

    ``distance`` is the adjudicator's ``Options.removal_distance``: the house rules make up the
    removals before the adjudicator sees them, so they must count distance the same way.
    """
    if rules is RuleSet.RULEBOOK:
        return rulebook_removals(position, power, count, keep_out, board, distance)
    if rules is RuleSet.FRENCH:
        return french_removals(position, power, count, keep_out, board, distance)
    return automatic_disbands(position, power, count, keep_out, board, distance)
