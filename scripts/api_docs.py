"""Rewrite (or with ``--check``, verify) docs/api.md from the API's OpenAPI document.

Usage: ``python scripts/api_docs.py [--check]``; ``tests/api/test_api_docs.py`` fails when the
page is out of date.
"""

from __future__ import annotations

import sys
from pathlib import Path

from judge.api.reference import markdown, openapi

PAGE = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def main(argv: list[str]) -> int:
    new = markdown(openapi())
    if "--check" in argv:
        if not PAGE.exists() or PAGE.read_text(encoding="utf-8") != new:
            print("docs/api.md is out of date: run python scripts/api_docs.py")
            return 1
        return 0
    PAGE.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
