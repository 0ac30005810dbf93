"""Each power's colour and tint: ``style``'s tables for the standard powers, and for any other
power (an imported variant's) a colour from a fixed palette, the same on every map.

The one place a power's colour is chosen (the variant's ``map.json`` ``"powers"`` will feed it).
"""

from __future__ import annotations

import colorsys
import zlib
from functools import cache

from judge.maps import style

# Kelly's colours of maximum contrast (white and black left out) come first, so that a map of
# up to twenty new powers tells them apart at a glance; then hues spread by the golden angle
_KELLY = ("#be0032", "#0067a5", "#f3c300", "#008856", "#875692", "#f38400", "#848482",
          "#a1caf1", "#882d17", "#8db600", "#e68fac", "#604e97", "#c2b280", "#e25822",
          "#2b3d26", "#f6a600", "#b3446c", "#dcd300", "#654522", "#f99379")
_SIZE = 48


@cache
def _palette() -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = [(c, _tint(c)) for c in _KELLY]
    for i in range(_SIZE - len(_KELLY)):
        hue = (i * 0.381966 + 0.1) % 1.0
        light, sat = (0.42, 0.62) if i % 2 == 0 else (0.32, 0.5)
        colour = _hex(colorsys.hls_to_rgb(hue, light, sat))
        out.append((colour, _tint(colour)))
    return tuple(out)


def _tint(colour: str) -> str:
    """The pale land colour of ``colour``: two thirds of the way to white."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return _hex((r + (1 - r) * 0.62, g + (1 - g) * 0.62, b + (1 - b) * 0.62))


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
