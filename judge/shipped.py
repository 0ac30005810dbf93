"""Where the judge finds its templates and its Alembic migrations, installed or not.

Both sit at the top of the repository (``templates/``, ``migrations/``: files, not Python the
judge imports) and the build maps them into the package (setup.py): an installed judge (the
wheel, the Docker image) has them at ``judge/templates`` and ``judge/storage/migrations``,
whatever its working directory. A checkout (an editable install, or ``PYTHONPATH`` pointing at
it) has them beside the ``judge`` package instead. Inside the package is looked at first, so
an installed judge never reads a folder it did not ship with.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
# name at the top of the repository -> its place inside the package (setup.py: SHIPPED)
INSIDE = {"templates": ("templates",), "migrations": ("storage", "migrations")}


def shipped_dir(name: str) -> Path:
    """The folder ``name`` (``templates`` or ``migrations``) of this judge."""
    inside = PACKAGE.joinpath(*INSIDE[name])
    if inside.is_dir():
        return inside
    beside = PACKAGE.parent / name
    if beside.is_dir():
        return beside
    raise FileNotFoundError(f"the judge's {name}/ is neither in the package ({inside}) nor "
                            f"beside it ({beside}): reinstall the judge")
