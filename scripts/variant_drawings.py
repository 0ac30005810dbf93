"""Regenerate the shipped variants' ``drawing.json`` from DPjudge's ``.ps`` drawings.

Run by hand (needs Ghostscript, Debian's ``ghostscript``, and Shapely, ``pip install -e
'.[maps]'``); only its output is committed::

    python scripts/variant_drawings.py                 # every variant of VARIANTS
    python scripts/variant_drawings.py ancmed 1900     # some
    python scripts/variant_drawings.py --library DIR   # the .ps files elsewhere

The province codes are the variant's ``map.json``'s when the folder has one, else the drawing's
own label points (its ``% INFO`` header). A variant whose ``.map`` draws on another map's
drawing (``fleetrome``: ``MAP standard``) has no ``.ps`` and keeps the standard drawing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.maps.ps_drawing import (  # noqa: E402
    PsDrawingError,
    drawing_for_map,
    drawing_from_ps,
    label_points,
)

LIBRARY = ROOT.parent / "shared" / "variants" / "dpjudge"
# the shipped variants with a drawing of their own (hundred converts too, but its .map is not
# yet played: see scripts/import_variants.py)
VARIANTS = ("ancmed", "modern", "youngstown", "chaos", "fleetrome", "milan", "canton",
            "crowded", "fiveman", "britain", "sengoku", "aberration", "v8", "chromatic", "1900")


def write(name: str, library: Path) -> str:
    ps = library / f"{name}.ps"
    if not ps.is_file():
        return f"{name}: no {ps.name} (drawn on another map's drawing), skipped"
    text = ps.read_text("latin-1")
    folder = ROOT / "judge" / "variants" / name
    board = folder / "map.json"
    if board.is_file():
        drawing = drawing_for_map(text, json.loads(board.read_text("utf-8")), name)
    else:  # no map.json yet: the drawing's own label points
        drawing = drawing_from_ps(text, sorted(c for c in label_points(text) if "/" not in c),
                                  variant=name)
    folder.mkdir(exist_ok=True)
    out = json.dumps(drawing, ensure_ascii=False, indent=1) + "\n"
    (folder / "drawing.json").write_text(out, encoding="utf-8")
    return (f"{name}: {len(drawing['provinces'])} provinces, {drawing['width']}x"
            f"{drawing['height']}, {len(out.encode()) // 1024} KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("names", nargs="*", default=list(VARIANTS))
    parser.add_argument("--library", type=Path, default=LIBRARY)
    args = parser.parse_args()
    for name in args.names:
        try:
            print(write(name, args.library))
        except PsDrawingError as exc:  # a drawing it cannot read: say which and why
            print(f"{name}: {exc}")


if __name__ == "__main__":
    main()
