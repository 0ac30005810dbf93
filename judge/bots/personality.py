"""Characters of seed 003: each nation keeps its word more or less, forgives more or less.

A personality is a parameter set read by the order engine (appetite for attack, risk) and by
the diplomat (keeping promises, the weight of a betrayal, forgiveness, when to accept).
``assign`` gives each power one, reproducibly from a seed; a GM may name them instead.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Personality:
    name: str
    attack: float  # multiplies the value of other powers' centres (>1: greedier)
    defence: float  # multiplies the value of defending own centres
    temperature: float  # randomness of the weighted choice (0: always the best)
    # 0: judge a candidate by its worst reply, 1: by its mean. Every character is near 1: the
    # replies are a few draws of likely orders, and the worst of three draws is mostly a reply
    # that does not come (at 0.2 to 0.5 the lone computer power ended 1910 a centre poorer)
    risk: float
    keep_word: float  # chance of keeping an agreement in a phase where breaking pays
    betrayal_weight: float  # how much a broken promise costs the breaker in trust
    forgiveness: float  # share of lost trust recovered per year of kept peace
    accept_threshold: float  # trust needed to accept a proposal
    gratitude: float  # trust gained per kept promise
    # the chance, each phase, that it weighs breaking a deal made that very turn; 0: never
    # (its word holds at least the turn it is given); above 0 a treacherous character, which
    # still breaks only for a gain (``diplomat.worth_breaking``)
    treachery: float = 0.0

    @property
    def treacherous(self) -> bool:
        return self.treachery > 0


PERSONALITIES: dict[str, Personality] = {
    p.name: p
    for p in (
        Personality("loyal", 1.0, 1.1, 0.05, 0.95, 0.95, 1.0, 0.5, -0.2, 0.10),
        Personality("opportunist", 1.15, 0.9, 0.08, 1.0, 0.55, 0.6, 0.3, -0.4, 0.06, 0.10),
        Personality("aggressive", 1.35, 0.8, 0.10, 1.0, 0.40, 0.5, 0.15, 0.1, 0.05, 0.20),
        Personality("cautious", 0.9, 1.35, 0.03, 0.9, 0.85, 1.4, 0.2, 0.1, 0.08),
        Personality("vengeful", 1.1, 1.0, 0.06, 0.95, 0.75, 2.0, 0.05, 0.0, 0.07),
    )
}
DEFAULT = "loyal"


def personality(name: str | None) -> Personality:
    """The named personality; ``KeyError`` names the known ones."""
    key = (name or DEFAULT).strip().lower()
    if key not in PERSONALITIES:
        raise KeyError(f"unknown personality {name!r} (known: {', '.join(sorted(PERSONALITIES))})")
    return PERSONALITIES[key]


def assign(powers: Iterable[str], rng: random.Random) -> dict[str, str]:
    """A personality name per power, drawn so that every character appears before one repeats."""
    names = sorted(PERSONALITIES)
    out: dict[str, str] = {}
    pool: list[str] = []
    for power in sorted(powers):
        if not pool:
            pool = list(names)
            rng.shuffle(pool)
        out[power] = pool.pop()
    return out
