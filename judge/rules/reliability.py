"""A player's reliability over his games (issue 30 point 6): pure arithmetic on his record.

Reliability is the share of the phases he had to order in that he did order in, in percent;
abandoned powers and replacements are shown beside it, not folded into it (a club reads them
its own way). A GM's minimum at JOIN is on that percentage; a newcomer with no phase yet has no
record to fall short of and may join.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Record:
    played: int = 0
    missed: int = 0
    abandoned: int = 0
    replaced: int = 0
    games: int = 0

    @property
    def phases(self) -> int:
        return self.played + self.missed

    @property
    def percent(self) -> int | None:
        """Phases played out of phases owed, rounded down; None with no phase yet."""
        if not self.phases:
            return None
        return 100 * self.played // self.phases

    def meets(self, minimum: int | None) -> bool:
        """Whether a GM's minimum (percent) lets this player JOIN."""
        percent = self.percent
        return minimum is None or percent is None or percent >= minimum
