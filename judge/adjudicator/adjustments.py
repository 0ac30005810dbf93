"""Winter adjustments: builds, waives, removals, and the civil-disorder removals of the rulebook.

Builds and removals are taken one by one in the order written; orders beyond what a power is
owed are refused. A power that orders too few removals loses the units farthest from home
(2008 rulebook: distance in provinces whatever the unit type), fleets before armies at equal
distance, then by province code. DATC 3.0 (2023 rulebook) measures distance to *owned* centres
instead; ``RemovalDistance.OWNED`` selects that.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache

from judge.adjudicator.geography import Board
from judge.adjudicator.orders import Unit, UnitType


class RemovalDistance(StrEnum):
    HOME = "home"  # 2008 rulebook and the seeds: distance to the power's home centres
    OWNED = "owned"  # 2023 rulebook / DATC 3.0: distance to the centres it owns now

    __hash__ = str.__hash__  # in C, as UnitType (orders.py)


@lru_cache(maxsize=256)
def _distances(board: Board, targets: frozenset[str]) -> dict[str, int]:
    return board.distances(targets)


def removal_order(board: Board, units: list[Unit], reference: frozenset[str]) -> list[Unit]:
    """``units`` sorted from first to remove to last."""
    dist = _distances(board, reference) if reference else {}
    far = len(board.provinces) + 1  # no reference centre at all: everything is "far"

    def key(unit: Unit) -> tuple[int, int, str]:
        return (
            -dist.get(unit.province, far),
            0 if unit.type is UnitType.FLEET else 1,
            unit.province,
        )

    return sorted(units, key=key)


class BuildRule(StrEnum):
    """Where a power may build (DPjudge's RULE switches; a house rule on any map).

    ``home``: its own home centres (the rulebook). ``any`` (BUILD_ANY): any centre it owns.
    ``homes`` (HOME_BUILDS): any owned centre that is a home centre of some power. ``remote``
    (REMOTE_BUILDS alone, which DPjudge reads as BUILD_ANY too) and ``homes_remote``
    (HOME_BUILDS with REMOTE_BUILDS): the same, but only while the power still owns one of its
    own home centres.
    """

    HOME = "home"
    ANY = "any"
    HOMES = "homes"
    REMOTE = "remote"
    HOMES_REMOTE = "homes_remote"

    __hash__ = str.__hash__  # in C, as UnitType (orders.py)


def build_rule(switches: list[str] | tuple[str, ...]) -> BuildRule:
    """The rule a ``.map`` file's switches name (none of them: the rulebook's)."""
    homes = "HOME_BUILDS" in switches
    remote = "REMOTE_BUILDS" in switches
    if homes:
        return BuildRule.HOMES_REMOTE if remote else BuildRule.HOMES
    if remote:
        return BuildRule.REMOTE
    return BuildRule.ANY if "BUILD_ANY" in switches else BuildRule.HOME


def build_sites(
    rule: BuildRule,
    power: str,
    centers: dict[str, str],
    homes: dict[str, tuple[str, ...]],
) -> tuple[str, ...]:
    """The centres ``power`` may build in under ``rule`` (ownership and vacancy aside)."""
    own = homes.get(power, ())
    if rule is BuildRule.HOME:
        return own
    if rule in (BuildRule.REMOTE, BuildRule.HOMES_REMOTE) and not any(
        centers.get(h) == power for h in own
    ):
        return ()
    if rule in (BuildRule.ANY, BuildRule.REMOTE):
        return tuple(sorted(c for c, p in centers.items() if p == power))
    return tuple(sorted({h for hs in homes.values() for h in hs}))


def builds_possible(
    power: str,
    units: dict[str, Unit],
    centers: dict[str, str],
    homes: tuple[str, ...],
) -> int:
    """How many home centres are free and owned (an upper bound on usable builds)."""
    return sum(1 for h in homes if centers.get(h) == power and h not in units)
