"""Regenerate ``docs/variants.md`` and each variant's picture ``docs/variants/NAME.png``.

Run by hand after a variant is added or its drawing changes (only the output is committed)::

    python scripts/variant_pictures.py            # every installed variant
    python scripts/variant_pictures.py ancmed     # some (the page still lists them all)

Each picture is the variant's first position (its starting units and home centres) drawn by
the judge's own renderer (``judge.maps``: the bulletins' mail map), so the docs show exactly
what players see. The page gives each variant's players (seats and powers), victory condition,
first phase and rule switches, read from its folder (``variant.json``, ``map.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.adjudicator.catalog import variant, variant_names  # noqa: E402
from judge.adjudicator.jsonio import position_to_json  # noqa: E402
from judge.maps.composite import composite_png  # noqa: E402

DOCS = ROOT / "docs"
FOLDERS = ROOT / "judge" / "variants"
# DPjudge's RULE switches (its Rules.html, beside the maps), in a line each
SWITCHES = {
    "BUILD_ANY": "a power builds in any supply centre it owns, not only at home (Chaos)",
    "HOME_BUILDS": "a power builds in any home centre it owns, its own or another power's",
    "REMOTE_BUILDS": "a power builds in any owned centre, home or not, as on Aberration",
    "NO_DRAW": "no draw can be declared: the game ends with a winner",
    "CD_DUMMIES": "a power left without a player is played by the judge (civil disorder)",
    "CD_BUILDS": "a power in civil disorder still builds",
    "IMMOBILE_DUMMIES": "the units of a power without a player only hold",
}


def _read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text("utf-8")) if path.is_file() else {}


def picture(name: str) -> Path:
    """Draw the variant's first position into ``docs/variants/NAME.png``."""
    start = position_to_json(variant(name).initial_position())
    start["variant"] = name
    start["title"] = variant(name).titles.get("en", name)
    target = DOCS / "variants" / f"{name}.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(composite_png(start))
    return target


def _powers(name: str) -> list[str]:
    v = variant(name)
    raw = _read(FOLDERS / v.board.name / "map.json").get("powers", {})
    out = []
    for seat in v.seats:
        names = [str(raw.get(p, {}).get("names", {}).get("en") or p.title()) for p in seat]
        homes = sum(1 for c in v.board.provinces.values() if c.home in seat and c.supply_center)
        out.append(f"{' + '.join(names)} ({homes} home centres)")
    return out


def section(name: str, drawn: bool = True) -> str:
    v = variant(name)
    raw = _read(FOLDERS / name / "variant.json")
    drawing = _read(FOLDERS / v.board.name / "drawing.json")
    title = v.titles.get("en", name)
    centres = len(v.board.supply_centers)
    lines = [f"## {title} (`{name}`)", ""]
    if drawn:
        lines += [f"![{title}](variants/{name}.png)", ""]
    else:
        lines += ["(No picture: its DPjudge drawing is in an older format the converter does not "
                  "read.)", ""]
    seats = _powers(name)
    lines.append(f"- **Players**: {len(seats)}: " + "; ".join(seats) + ".")
    if v.neutral:
        lines.append(f"- **Neutral** (no player): {', '.join(p.title() for p in sorted(v.neutral))}.")
    lines.append(f"- **Victory**: {v.victory} of the map's {centres} supply centres held by one player.")
    lines.append(f"- **First phase**: `{v.first_phase}`; map `{v.board.name}` "
                 f"({len(v.board.provinces)} provinces).")
    rules = raw.get("rules") or []
    told = [f"`{r}` ({SWITCHES[r]})" if r in SWITCHES else f"`{r}`" for r in rules]
    links = sorted({" - ".join(sorted(pair)) for pair in v.board.weak_links})
    if links:
        told.append("Cape of Good Hope links " + ", ".join(links) + " (moves along them at half "
                    "strength, cutting no support; no support across them; retreats along them "
                    "yield: [format](variants-format.md#dpjudges-special-rules))")
    for power, sites in sorted(v.board.partisans.items()):
        told.append(f"partisan site {', '.join(sites)} of {power.title()} (one build more, "
                    "and a place to build, while it has lost some but not all of its home "
                    "centres)")
    if told:
        lines.append("- **Rules**: " + "; ".join(told) + ".")
    else:
        lines.append("- **Rules**: the standard rules.")
    source = raw.get("source") or {}
    if source:
        files = ", ".join(f"`{f}`" for f in source.get("files", []))
        lines.append(f"- **Source**: DPjudge's {files}; {source.get('notice', '')}.")
    if drawing.get("credits"):
        lines.append("- **Drawing**: " + "; ".join(drawing["credits"]) + ".")
    return "\n".join(lines) + "\n"


def page(names: list[str], undrawn: set[str]) -> str:
    head = [
        "# The variants",
        "",
        "Every variant the judge ships, as `judge variants` lists them: its map with the starting",
        "units (drawn by the judge's own renderer, as in the bulletins), its players, victory",
        "condition and rules. Generated by `scripts/variant_pictures.py`; do not edit by hand.",
        "The DPjudge maps and drawings are converted from the DPjudge map library (MIT licence,",
        "Copyright 2017 Manus Hand); each drawing keeps its makers' credits.",
        "",
    ]
    return "\n".join(head) + "\n" + "\n".join(section(n, n not in undrawn) for n in names)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    every = list(variant_names())
    undrawn: set[str] = set()
    for name in args.names or every:
        try:
            print(picture(name).relative_to(ROOT))
        except KeyError as exc:  # a province its drawing lacks: a map with no drawing.json
            undrawn.add(name)
            print(f"{name}: not drawn (its drawing lacks {exc})")
    (DOCS / "variants.md").write_text(page(every, undrawn), encoding="utf-8")
    print("docs/variants.md")


if __name__ == "__main__":
    main()
