"""What a power's "original borders" are, for the distance-based default orders.

Seed 002 sends a tacit retreat towards "the original borders of the power" (its example prefers
Ruhr to Burgundy for a German army), so that distance is measured to the whole home territory as
coloured on the board (the map's ``territory`` of the power, ``map.json``), not only to the home centres. Automatic disbands and ONP criterion
c measure to the home centres ("CdA originari", "centri della madrepatria").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from judge.adjudicator.catalog import map_powers
from judge.adjudicator.geography import Board
from judge.adjudicator.orders import Unit, UnitType

# Beyond every real distance on the map: used when a power has no home centres at all.
FAR_AWAY = 1_000


def home_territory(
    power: str, homes: Mapping[str, Iterable[str]], board: Board
) -> frozenset[str]:
    """The power's territory on ``board``'s map plus any home centres the game declares for it."""
    info = map_powers(board.name).get(power)
    return (info.territory if info else frozenset()) | frozenset(homes.get(power, ()))


def distance_to(targets: Iterable[str], province: str, board: Board) -> int:
    goals = frozenset(targets)
    if not goals:
        return FAR_AWAY
    return board.distances(goals).get(province, FAR_AWAY)


def starting_unit(power: str, province: str, board: Board) -> Unit:
    """The unit a home centre started the game with (F STP/SC for St Petersburg).

    A home centre with no starting unit (a variant's homes) gets an army where armies can stand.
    """
    for text in board.starting_units.get(power, ()):
        kind, location = text.split()
        if location.split("/", 1)[0] == province:
            return Unit(power, UnitType(kind), location)
    if board.can_army_stand(province):
        return Unit(power, UnitType.ARMY, province)
    return Unit(power, UnitType.FLEET, province)
