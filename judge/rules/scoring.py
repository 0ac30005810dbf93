"""Scores at the end of a game: seed 000's 100 points, draw-size, sum-of-squares.

Scores are exact fractions (two players sharing a bonus of 7 get 3 1/2 each).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction

# seed 000: 38 to the power with most centres, 14 to the second, 7 to the third
RANK_BONUSES: tuple[int, ...] = (38, 14, 7)


def hundred_points(
    centers: Mapping[str, int],
    solo_winner: str | None = None,
    powers: Sequence[str] | None = None,
) -> dict[str, Fraction]:
    """Seed 000: 1 point per player, 1 per centre, 38/14/7 to the top three, ties share.

    Tied powers share the sum of the bonuses of the ranks they occupy (two first: (38+14)/2
    each). A power with no centre takes no rank bonus. A solo winner takes all 100 points.
    """
    powers = tuple(centers) if powers is None else powers  # every power of the map
    if solo_winner is not None:
        return {p: Fraction(100 if p == solo_winner else 0) for p in powers}
    scores = {p: Fraction(1 + centers.get(p, 0)) for p in powers}
    ranked = sorted((p for p in powers if centers.get(p, 0) > 0), key=lambda p: -centers[p])
    rank = 0
    while rank < len(ranked):
        tied = [p for p in ranked if centers[p] == centers[ranked[rank]]]
        bonus = sum(RANK_BONUSES[rank : rank + len(tied)])
        for p in tied:
            scores[p] += Fraction(bonus, len(tied))
        rank += len(tied)
    return scores


def draw_size(
    winners: Collection[str], powers: Sequence[str], total: int = 100
) -> dict[str, Fraction]:
    """The winners (a solo winner, or the powers in the draw) share ``total`` equally."""
    share = Fraction(total, len(winners)) if winners else Fraction(0)
    return {p: share if p in winners else Fraction(0) for p in powers}


def sum_of_squares(
    centers: Mapping[str, int],
    solo_winner: str | None = None,
    powers: Sequence[str] | None = None,
    total: int = 100,
) -> dict[str, Fraction]:
    """Each power gets ``total`` × its centres squared over the sum of all squares."""
    powers = tuple(centers) if powers is None else powers
    if solo_winner is not None:
        return draw_size([solo_winner], powers, total)
    squares = {p: centers.get(p, 0) ** 2 for p in powers}
    whole = sum(squares.values())
    if whole == 0:
        return {p: Fraction(0) for p in powers}
    return {p: Fraction(total * squares[p], whole) for p in powers}
