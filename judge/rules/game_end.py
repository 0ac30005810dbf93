"""When a game is over, and who won.

Solo victory at 18 centres (seed 000, seed 002; a game option). The temporal game (seed 002's
"partita temporale", seed 000's agreed end, by default after Fall 1907): it ends on a date or once
a season's phases are over, and the power with most centres wins (tied leaders share the win).
A draw or a concession needs the vote of every surviving power. A power with neither units nor
centres is eliminated.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from judge.adjudicator.phase import Phase, PhaseType
from judge.adjudicator.position import Position
from judge.adjudicator.variant import Variant
from judge.rules.options import EndConditions

# Seed 000: "En cas de désaccord, la partie sera jouée en 7 ans": the last season is Fall 1907.
SEED_000_DEFAULT_END = Phase.parse("F1907M")


class EndReason(StrEnum):
    SOLO = "solo"  # one power holds the solo number of centres
    LAST_SURVIVOR = "last_survivor"  # everyone else is eliminated
    CONCESSION = "concession"  # every other survivor conceded to one power
    DRAW = "draw"  # every survivor voted the draw
    END_PHASE_PASSED = "end_phase_passed"  # temporal game: the last season is played
    END_DATE_REACHED = "end_date_reached"  # temporal game: the end date has come


@dataclass(frozen=True, slots=True)
class GameEnd:
    reason: EndReason
    winners: tuple[str, ...]  # one power, the tied leaders, or the powers in the draw
    centers: Mapping[str, int]

    @property
    def is_draw(self) -> bool:
        return len(self.winners) > 1


def survivors(position: Position, powers: Sequence[str] | None = None) -> tuple[str, ...]:
    """Powers with a unit (a dislodged one too) or a centre (``powers``: those that count,
    by default every power of the position's map)."""
    alive = set(position.centers.values())
    alive.update(u.power for u in position.units.values())
    alive.update(d.unit.power for d in position.dislodged.values())
    return tuple(p for p in (powers or position.powers()) if p in alive)


def eliminated(position: Position) -> tuple[str, ...]:
    alive = set(survivors(position))
    return tuple(p for p in position.powers() if p not in alive)


def center_counts(position: Position) -> dict[str, int]:
    return {p: len(position.centers_of(p)) for p in position.powers()}


def last_phase_of(season: Phase) -> Phase:
    """The last phase of a season: its retreat phase, after which centres are counted."""
    return Phase.make(season.season, season.year, PhaseType.RETREAT)


def check_end(
    position: Position,
    conditions: EndConditions,
    now: datetime,
    draw_votes: Collection[str] = (),
    concessions: Mapping[str, str] | None = None,
    variant: Variant | None = None,
    joins: str | None = None,
) -> GameEnd | None:
    """The end of the game at ``position`` (the next phase to play), or None.

    ``draw_votes``: powers voting for a draw of all survivors. ``concessions``: voter -> power
    it concedes to. ``variant``: where one player holds several powers (seed 001's games for
    two to four players) the solo count is that player's powers together, and the game is
    over when one player's powers are all that is left; ``joins``: the two-player lot.
    """
    counts = center_counts(position)
    active = variant.active_powers(position.phase, joins) if variant is not None else None
    alive = survivors(position, active)
    seated = variant is not None and any(len(seat) > 1 for seat in variant.seats)
    if conditions.solo_centers is not None:
        if seated and variant is not None:
            seat = seat_victory(variant, position, joins, conditions.solo_centers)
            if seat is not None:
                return GameEnd(EndReason.SOLO, seat, counts)
        else:
            solo = [p for p, n in counts.items() if n >= conditions.solo_centers]
            if len(solo) == 1:
                return GameEnd(EndReason.SOLO, (solo[0],), counts)
    if len(alive) == 1:
        return GameEnd(EndReason.LAST_SURVIVOR, alive, counts)
    if seated and variant is not None and alive:
        holders = {variant.seat_of(p, joins) for p in alive}
        if len(holders) == 1:
            return GameEnd(EndReason.LAST_SURVIVOR, alive, counts)
    for winner in sorted(set((concessions or {}).values())):
        others = [p for p in alive if p != winner]
        if winner in alive and all((concessions or {}).get(p) == winner for p in others):
            return GameEnd(EndReason.CONCESSION, (winner,), counts)
    if alive and set(alive) <= set(draw_votes):
        return GameEnd(EndReason.DRAW, alive, counts)
    if conditions.end_after is not None and position.phase > last_phase_of(conditions.end_after):
        return GameEnd(EndReason.END_PHASE_PASSED, _leaders(counts), counts)
    if conditions.end_on is not None and now >= conditions.end_on:
        return GameEnd(EndReason.END_DATE_REACHED, _leaders(counts), counts)
    return None


def seat_victory(
    variant: Variant, position: Position, joins: str | None = None, needed: int | None = None
) -> tuple[str, ...] | None:
    """The powers of the one player whose powers together hold the variant's winning count.

    Seed 001's games for two to four players count centres per country, but the player wins
    ("the first player to control 24 supply centers"): the seat's powers are added up. A power
    that joined a seat by the two-player lot counts for that seat from the lot on.
    """
    joined = joins if variant.lot_drawn(position.phase) else None
    winners = []
    for seat in range(variant.players):
        powers = variant.seat_powers(seat, joined)
        if sum(len(position.centers_of(p)) for p in powers) >= (needed or variant.victory):
            winners.append(powers)
    return winners[0] if len(winners) == 1 else None


def _leaders(counts: Mapping[str, int]) -> tuple[str, ...]:
    best = max(counts.values(), default=0)
    return tuple(p for p in counts if counts.get(p, 0) == best and best > 0)
