"""What a power's "original borders" are, for the distance-based default orders.

Seed 002 sends a tacit retreat towards "the original borders of the power" (its example prefers
Ruhr to Burgundy for a German army), so that distance is measured to the whole home territory as
coloured on the standard board, not only to the home centres. Automatic disbands and ONP criterion
c measure to the home centres ("CdA originari", "centri della madrepatria").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from judge.adjudicator.geography import Board
from judge.adjudicator.orders import Unit, UnitType

# The coloured home territory of each power on the standard board.
HOME_TERRITORY: dict[str, frozenset[str]] = {
    "AUSTRIA": frozenset({"BOH", "BUD", "GAL", "TRI", "TYR", "VIE"}),
    "ENGLAND": frozenset({"CLY", "EDI", "LON", "LVP", "WAL", "YOR"}),
    "FRANCE": frozenset({"BRE", "BUR", "GAS", "MAR", "PAR", "PIC"}),
    "GERMANY": frozenset({"BER", "KIE", "MUN", "PRU", "RUH", "SIL"}),
    "ITALY": frozenset({"APU", "NAP", "PIE", "ROM", "TUS", "VEN"}),
    "RUSSIA": frozenset({"FIN", "LVN", "MOS", "SEV", "STP", "UKR", "WAR"}),
    "TURKEY": frozenset({"ANK", "ARM", "CON", "SMY", "SYR"}),
}

# Beyond every real distance on the map: used when a power has no home centres at all.
FAR_AWAY = 1_000


def home_territory(power: str, homes: Mapping[str, Iterable[str]]) -> frozenset[str]:
    """The standard territory plus any home centres the game declares for the power."""
    return HOME_TERRITORY.get(power, frozenset()) | frozenset(homes.get(power, ()))


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
