"""When a computer power votes for a draw: the game has stalled and nobody can win it.

A pure decision on the history of the board's supply centres (their owners at the end of each
game year played, oldest first), read the same way by the benchmarks and by a game the judge
runs (``service.computer`` casts the vote through the use case a player's DRAW goes through).

The game has *stalled* when no centre has changed hands for ``STILL_YEARS`` years, or when over
the last ``WINDOW`` years no power has gained more than one centre net (centres going back and
forth between the same powers is no progress). Nobody *can realistically win* when no power,
at the pace it gained over the window, would reach the victory count within ``HORIZON`` years.
A power votes for the draw when both hold; it withdraws its vote as soon as one fails (the
service keeps one vote per seat until withdrawn). A power that gained in the window (net two or
more) keeps playing: it is the one making progress.

Nothing here reads a map: the victory count is the variant's, the centres the game's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

STILL_YEARS = 3  # no centre changed hands for this many years: stalled
WINDOW = 4  # years over which progress is measured
HORIZON = 6  # a power that would win within this many years at its pace can still win


def _counts(owners: Mapping[str, str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for power in owners.values():
        out[power] = out.get(power, 0) + 1
    return out


def still_years(history: Sequence[Mapping[str, str]]) -> int:
    """How many years back the centres' owners have been as they are now."""
    if not history:
        return 0
    last = history[-1]
    years = 0
    for owners in reversed(history[:-1]):
        if dict(owners) != dict(last):
            break
        years += 1
    return years


def gains(history: Sequence[Mapping[str, str]], window: int = WINDOW) -> dict[str, int]:
    """Each power's net centres gained over the last ``window`` years (or all the history)."""
    if not history:
        return {}
    span = min(window, len(history) - 1)
    now = _counts(history[-1])
    then = _counts(history[-1 - span])
    return {p: now.get(p, 0) - then.get(p, 0) for p in set(now) | set(then)}


def can_win(history: Sequence[Mapping[str, str]], victory: int) -> bool:
    """Whether some power, at the pace it grew over the window, reaches ``victory`` centres
    within ``HORIZON`` years."""
    if not history:
        return True
    now = _counts(history[-1])
    span = min(WINDOW, len(history) - 1)
    if span == 0:
        return True
    grown = gains(history)
    for power, count in now.items():
        pace = max(grown.get(power, 0), 0) / span
        if count + pace * HORIZON >= victory:
            return True
    return False


def stalled(history: Sequence[Mapping[str, str]]) -> bool:
    if len(history) <= STILL_YEARS:
        return False
    if still_years(history) >= STILL_YEARS:
        return True
    if len(history) <= WINDOW:
        return False
    return max(gains(history).values(), default=0) <= 1


def wants_draw(history: Sequence[Mapping[str, str]], power: str, victory: int) -> bool:
    """Whether ``power`` votes for a draw of the survivors now.

    ``history``: the supply centres' owners (centre -> power) at the end of each game year
    played, oldest first, the current year last; ``victory``: the variant's winning count.
    """
    if not stalled(history) or can_win(history, victory):
        return False
    return gains(history).get(power, 0) < 2
