"""SVG to PNG with CairoSVG (no I/O: bytes in memory, no external resources)."""

from __future__ import annotations

import cairosvg


def render_png(svg: str, scale: float = 1.0) -> bytes:
    """The PNG image of ``svg``; ``scale`` multiplies the SVG's own width and height."""
    # unsafe=False (the default) stops CairoSVG from fetching external entities or files
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
