"""Whether a checkout's compiled adjudicator is older than its source.

In a checkout installed with ``pip install -e`` the compiled build's extensions sit next to the
``.py`` files (setup.py), and Python imports an extension before the source of the same name: a
source file edited, checked out or pulled after the build would be shadowed by its stale
extension. ``judge/__init__.py`` then imports the whole package from source
(``judge.pure_python``) until the build is made again. Only ``os``: this runs at every start.
"""

from __future__ import annotations

import os

# where the compiled modules live (setup.py: COMPILED_MODULES)
_COMPILED_DIRS = ("adjudicator", "rules", "bots")


def stale_build() -> str | None:
    """In a checkout (``pip install -e``), a compiled module older than its source (edited,
    checked out or pulled since the build), named; else None. An installed wheel is never
    stale: its files are not edited, and are unpacked in no particular order of time."""
    package = os.path.dirname(os.path.abspath(__file__))
    if not os.path.exists(os.path.join(os.path.dirname(package), "pyproject.toml")):
        return None
    for folder in _COMPILED_DIRS:
        where = os.path.join(package, folder)
        try:
            entries = list(os.scandir(where))
        except OSError:
            continue
        for entry in entries:
            if not entry.name.endswith((".so", ".pyd")):
                continue
            source = os.path.join(where, entry.name.split(".", 1)[0] + ".py")
            try:
                if os.stat(source).st_mtime_ns > entry.stat().st_mtime_ns:
                    return source
            except FileNotFoundError:  # the group's shared library has no source of its own
                continue
    return None
