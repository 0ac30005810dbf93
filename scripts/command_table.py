"""Rewrite (or with ``--check``, verify) the command reference pages, docs/commands*.md.

The pages are generated from the command declaration (``judge.parsing.command_table``: each
command's words, argument syntax and HELP line in English, Italian and French, and the game
options); ``tests/parsing/test_command_table.py`` fails when a committed page is out of date.
Usage: ``python scripts/command_table.py [--check] [--docs DIR]`` (DIR: default docs/).
"""

from __future__ import annotations

import sys
from pathlib import Path

from judge.parsing.command_table import REFERENCE_FILES, reference_page

DOCS = Path(__file__).resolve().parent.parent / "docs"


def main(argv: list[str]) -> int:
    docs = Path(argv[argv.index("--docs") + 1]) if "--docs" in argv else DOCS
    stale = []
    for lang, name in REFERENCE_FILES.items():
        path = docs / name
        page = reference_page(lang)
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == page:
            continue
        if "--check" in argv:
            stale.append(name)
        else:
            path.write_text(page, encoding="utf-8")
            print(f"wrote {path}")
    if stale:
        print(f"{', '.join(stale)} out of date: run python scripts/command_table.py")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
