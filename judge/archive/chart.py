"""Supply-centre counts per year as an inline SVG line chart (pure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape, quoteattr

from judge.adjudicator.catalog import variant as installed_variant
from judge.maps.style import power_colour

WIDTH, HEIGHT = 560, 260
LEFT, RIGHT, TOP, BOTTOM = 34, 96, 14, 30
CHAR_WIDTH = 6.6  # a character of the 11-pixel sans-serif legend, wide letters included


def centre_chart(years: Sequence[str], counts: Mapping[str, Sequence[int]],
                 variant: str = "standard", names: Mapping[str, str] | None = None,
                 label: str = "Supply centres per year") -> str:
    """Lines of ``counts[power][i]`` centres at ``years[i]``; powers keep the colours of
    ``variant``'s map. ``names``: each power's name in the page's language (its tooltip and
    its legend; by default the map's English one); ``label``: the chart's accessible name, in
    that language too."""
    names = names or {}

    def name(power: str) -> str:
        return names.get(power) or power_name(variant, power)

    top = max([18, *(max(v) for v in counts.values() if v)])
    # the legend at the line ends gets the room its longest label needs ("Austria-Hungary
    # 12", "Autriche-Hongrie 12"): a fixed margin cut the long names off (issue 29)
    longest = max([0, *(len(f"{name(p)} {v[-1] if v else 0}") for p, v in counts.items())])
    right = max(RIGHT, 12 + int(longest * CHAR_WIDTH))
    width = WIDTH - RIGHT + right
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / max(1, len(years) - 1)

    def x(i: int) -> float:
        return LEFT + i * step if len(years) > 1 else LEFT + plot_w / 2

    def y(v: int) -> float:
        return TOP + plot_h - v / top * plot_h

    out = [
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {HEIGHT}" '
        f'role="img" aria-label={quoteattr(label)} font-family="sans-serif" font-size="11">'
    ]
    for v in range(0, top + 1, 6 if top > 18 else 3):
        out.append(
            f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
            f'stroke="#ddd"/><text x="{LEFT - 6}" y="{y(v) + 4:.1f}" text-anchor="end" '
            f'fill="#555">{v}</text>'
        )
    for i, year in enumerate(years):
        out.append(
            f'<text x="{x(i):.1f}" y="{HEIGHT - 10}" text-anchor="middle" fill="#555">'
            f"{escape(year)}</text>"
        )
    ends: list[tuple[float, str, int]] = []
    for power, values in counts.items():
        colour = power_colour(variant, power)
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        out.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2.5" '
            f'stroke-linejoin="round"><title>{escape(name(power))}</title></polyline>'
        )
        for i, v in enumerate(values):
            out.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}"/>')
        if values:
            ends.append((y(values[-1]), power, values[-1]))
    # legend labels at the line ends, pushed apart so equal counts stay readable
    last = -100.0
    for ly, power, v in sorted(ends):
        ly = max(ly, last + 12)
        last = ly
        out.append(
            f'<text x="{LEFT + plot_w + 8}" y="{ly + 4:.1f}" '
            f'fill="{power_colour(variant, power)}">{escape(name(power))} {v}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def power_name(variant: str, power: str) -> str:
    """The power's English name on ``variant``'s map (the chart's legend)."""
    return installed_variant(variant).power_name(power, "en")
