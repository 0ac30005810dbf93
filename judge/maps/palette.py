"""Each power's colour and tint: ``style``'s tables for the standard powers, and for any other
power (an imported variant's) a colour from a fixed palette, the same on every map.

The one place a power's colour is chosen (the variant's ``map.json`` ``"powers"`` will feed it).
"""

from __future__ import annotations

import colorsys
import zlib
from functools import cache

from judge.maps import style

# hues spread by the golden angle, in two strengths: neighbouring entries differ most
_SIZE = 48


@cache
def _palette() -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for i in range(_SIZE):
        hue = (i * 0.381966) % 1.0
        light, sat = (0.42, 0.62) if i % 2 == 0 else (0.32, 0.5)
        colour = colorsys.hls_to_rgb(hue, light, sat)
        tint = colorsys.hls_to_rgb(hue, 0.82, 0.55)
        out.append((_hex(colour), _hex(tint)))
    return tuple(out)


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgb)


def power_colours(power: str, powers: tuple[str, ...] = ()) -> tuple[str, str]:
    """``(colour, tint)`` of ``power``; ``powers`` (the map's, in order) makes the colours of
    powers ``style`` does not know distinct on that map (up to the palette's 48)."""
    if power in style.POWER_COLOURS:
        return style.POWER_COLOURS[power], style.POWER_TINTS[power]
    others = [p for p in powers if p not in style.POWER_COLOURS]
    index = others.index(power) if power in others else zlib.crc32(power.encode()) % _SIZE
    return _palette()[index % _SIZE]


def power_colour(power: str, powers: tuple[str, ...] = ()) -> str:
    return power_colours(power, powers)[0]


def power_tint(power: str, powers: tuple[str, ...] = ()) -> str:
    return power_colours(power, powers)[1]
