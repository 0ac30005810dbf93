"""Make the shipped variant folders from DPjudge's map library (issue 26).

    PYTHONPATH=. python scripts/import_variants.py ../shared/variants/dpjudge

Each DPjudge map in ``IMPORTED`` goes through ``judge variants import`` (the reader in
``judge/adjudicator/mapfile.py``, the conversion in ``map_import.py``) into
``judge/variants/<name>/`` (variant.json, map.json, DPjudge's LICENSE); the two-player cut-downs
of the standard map are written here (variant.json only). Re-running it rewrites the same files.
``drawing.json`` is not made here: ``judge/maps/ps_drawing.py`` makes it from the ``.ps``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from judge.cli import main

VARIANTS = Path(__file__).resolve().parent.parent / "judge" / "variants"

# name -> (English title, extra arguments). Not shipped, and why (the reader says it too):
# hundred (FLOW: five-year turns with adjustments every tenth year), classical and ambition
# (other FLOWs), 1897 (NEWHOMES). 1900 plays its "*" Cape of Good Hope links and its partisan
# site as the board's weak_links and partisans (docs/variants-format.md).
IMPORTED: dict[str, tuple[str, tuple[str, ...]]] = {
    "ancmed": ("Ancient Mediterranean", ()),
    "modern": ("Modern", ()),
    "youngstown": ("Youngstown", ()),
    "chaos": ("Chaos", ()),
    "fleetrome": ("Fleet Rome", ()),
    "milan": ("Milan", ()),
    "canton": ("Canton", ()),
    "crowded": ("Crowded", ()),
    "fiveman": ("Five-Man", ()),
    "britain": ("Britain", ()),
    "sengoku": ("Sengoku", ()),
    "aberration": ("Aberration", ()),
    "v8": ("V8", ()),
    "chromatic": ("Chromatic", ()),
    "shiftaround": ("Shift Around", ()),
    "1900": ("1900", ()),
}

# the two-player cut-downs of the standard map: those two powers with their usual units, every
# other centre neutral, 18 centres win
CUT_DOWNS = {
    "france-austria": (("AUSTRIA", "FRANCE"), "France vs Austria"),
    "england-turkey": (("ENGLAND", "TURKEY"), "England vs Turkey"),
    "germany-italy": (("GERMANY", "ITALY"), "Germany vs Italy"),
}


def run(library: Path) -> int:
    for name, (title, extra) in IMPORTED.items():
        code = main(
            ["variants", "import", str(library / f"{name}.map"), "--title", title, *extra]
        )
        if code:
            return code
    for name, (powers, title) in CUT_DOWNS.items():
        folder = VARIANTS / name
        folder.mkdir(exist_ok=True)
        data = {
            "name": name,
            "titles": {"en": title},
            "map": "standard",
            "powers": list(powers),
            "first_phase": "S1901M",
            "victory": 18,
        }
        (folder / "variant.json").write_text(json.dumps(data, indent=1) + "\n", "utf-8")
        print(f"{folder}: {title}")
    return 0


if __name__ == "__main__":
    sys.exit(run(Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/variants/dpjudge")))
