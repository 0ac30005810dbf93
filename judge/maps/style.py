"""Colours and sizes of the map, in one place so the archive's CSS can match them.

The powers' colours are not here: each variant's map gives its own (``map.json``'s ``"powers"``:
``colour`` for units, orders and owned centres, ``tint`` for the land of an owned centre).
"""

from __future__ import annotations

from judge.adjudicator.catalog import variant as installed_variant

SEA = "#b7d4ea"
LAND = "#efe7d1"
IMPASSABLE = "#cfc8b8"
OFFBOARD = "#ddd8cb"
BORDER = "#7d7463"
COAST = "#4d6f8c"
LABEL = "#3a3429"
FAILED = "#d11f1f"
RETREAT = "#d4560f"
UNIT_RADIUS = 11.0


def power_colours(variant: str) -> dict[str, str]:
    """Each power of ``variant``'s map -> its colour."""
    v = installed_variant(variant)
    return {power: v.power(power).colour for power in v.powers}


def power_colour(variant: str, power: str | None, default: str = "#000000") -> str:
    """The colour of ``power`` on ``variant``'s map; ``default`` for a power it does not have."""
    info = installed_variant(variant).power_info.get(power or "")
    return info.colour if info else default


def power_tint(variant: str, power: str | None, default: str = LAND) -> str:
    """The pale tint of land whose supply centre ``power`` owns (opaque: borders stay crisp)."""
    info = installed_variant(variant).power_info.get(power or "")
    return info.tint if info else default


def ink_on(colour: str) -> str:
    """Dark or white text, whichever reads on ``colour`` (its relative luminance, WCAG)."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#222" if lum > 0.5 else "#fff"
