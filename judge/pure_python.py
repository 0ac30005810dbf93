"""Which build of the adjudicator is loaded, and a way to load the pure-Python one regardless.

The compiled build (``setup.py``: what an install makes where a C compiler is present;
``scripts/build_compiled.sh``) puts C extensions of the hot modules (``judge.adjudicator``, the
house rules' request reading, the computer powers' search) next to their source, and Python imports an extension before a
``.py`` file of the same name. ``JUDGE_PURE_PYTHON=1`` in the environment (read by
``judge/__init__.py``) imports them from source instead: the reference the compiled build is
checked against (``tests/conftest.py`` sets it for the whole suite,
``tests/adjudicator/test_compiled.py``, ``benchmarks/mila_compare.py``). So does a checkout
whose source changed after its build (``judge.stale_build``).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from types import ModuleType

_PACKAGE = "judge."


class _SourceOnly(MetaPathFinder):
    """Finds the judge's modules among their ``.py`` files only (the compiled ones are all in
    one library: a build is loaded whole or not at all)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith(_PACKAGE) or path is None:
            return None
        for entry in path:
            spec = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(fullname)
            if spec is not None:
                return spec
        return None


def use_pure_python() -> None:
    """Import the judge's modules from source from now on (before anything imports them)."""
    if not any(isinstance(f, _SourceOnly) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceOnly())


def compiled_modules() -> list[str]:
    """The judge's modules loaded so far that are not Python source (the compiled ones)."""
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith("judge.")
        and (getattr(module, "__file__", None) or ".py").endswith((".so", ".pyd"))
    )

