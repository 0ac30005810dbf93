"""What pyproject.toml cannot say: the package's layout and the compiled adjudicator.

Layout: ``templates/`` and ``migrations/`` sit at the top of the repository and are mapped into
the package here (``judge/templates``, ``judge/storage/migrations`` in the wheel), so an
installed judge finds them from any working directory (``judge.shipped``; tests/test_wheel.py
builds and installs a real wheel). Their files are package data declared in pyproject.toml.

The compiled adjudicator: the hot modules of ``judge/adjudicator`` (and the house rules'
request reading, and the computer powers' search with the values it reads) compiled with
mypyc (the mypy project's compiler: C extensions from the same typed source, no second
implementation to keep in step), about twice as fast on a batch of phases. The pure-Python source stays the reference: the test suite runs it
(``tests/conftest.py``) and ``tests/adjudicator/test_compiled.py`` checks the compiled build
against it, answer for answer. ``JUDGE_MYPYC`` chooses:

* unset (the README's ``pip install -e .``, and ``pip install .``): compiled where it can be.
  mypy is a build requirement (pyproject.toml), so pip brings mypyc into the build's own
  environment; without a C compiler, or when mypyc cannot compile the source, the build says
  why on its output and installs the pure-Python package, which answers the same, slower.
  (Without build isolation and without mypy installed, it is pure Python too.)
* ``JUDGE_MYPYC=1``: compiled, or the build fails (``scripts/build_compiled.sh`` builds it in
  place for a checkout: after changing the adjudicator's source, run it again).
* ``JUDGE_MYPYC=0``: pure Python, nothing compiled.

In a checkout (``pip install -e``) the extensions sit next to the ``.py`` files, and Python
imports an extension before the source of the same name: a source file changed after the build
would be shadowed by its stale extension, so the judge then imports the whole package from
source instead (``judge.pure_python.stale_build``) until the build is made again.
"""

from __future__ import annotations

import os
import shutil
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from setuptools import Extension, find_namespace_packages, setup
from setuptools.command.build_ext import build_ext

# top-level folder -> the package it becomes in the wheel (judge/shipped.py: INSIDE)
SHIPPED = {
    "judge.templates": "templates",
    "judge.storage.migrations": "migrations",
    "judge.storage.migrations.versions": "migrations/versions",
}
# every package under judge/ (with or without __init__.py: data folders are packages too, so
# their files can be package data), then the mapped ones
PACKAGES = [*find_namespace_packages(include=["judge", "judge.*"]), *SHIPPED]

# Left out: ``outcomes.py`` (the rule options, made once, and names it re-exports),
# ``datc.py`` (the DATC file reader, no hot path) and the package's ``__init__``.
COMPILED_MODULES = [
    f"judge/adjudicator/{name}.py"
    for name in (
        "adjudication",
        "adjustment_phase",
        "adjustments",
        "catalog",
        "convoy_routes",
        "field_value",
        "geography",
        "jsonio",
        "legality",
        "movement_phase",
        "order_result",
        "order_index",
        "order_plans",
        "orders",
        "phase",
        "phase_flow",
        "phase_result",
        "position",
        "possible",
        "refusals",
        "resolver",
        "retreat_phase",
        "retreats",
        "variant",
        "verdicts",
    )
] + [
    # the house rules' reading of a ``judge adjudicate`` request (its batch path)
    "judge/rules/house_request.py",
    "judge/rules/house_jsonio.py",
] + [
    # the computer powers' search (its trial scoring is most of a decision's time), the values
    # it reads and the plain engine that draws the likely replies
    f"judge/bots/{name}.py"
    for name in ("search", "battles", "valuation", "mapview", "baseline", "choice")
]


MODE = os.environ.get("JUDGE_MYPYC", "")  # "1" compiled or fail, "0" pure, "" where it can be
GROUP = "judge.adjudicator.compiled"


class CompiledBuild(build_ext):
    """Makes the C sources with mypyc only when the extensions are built (not each time pip
    reads the project's metadata: mypyc type-checks the whole package first), and in the
    default mode falls back to pure Python when they cannot be built."""

    def finalize_options(self) -> None:
        if self.distribution.ext_modules and self.distribution.ext_modules[0] is PLACEHOLDER:
            self.distribution.ext_modules = self._mypycify()
        super().finalize_options()

    def _mypycify(self) -> list[Any]:
        missing = self._missing_compiler()
        if missing is not None and MODE != "1":
            # said before mypyc's minute of work, which would be lost
            _pure(f"no C compiler ({missing} is not found)")
            return []
        from mypyc.build import mypycify  # only this build needs it

        try:
            return list(mypycify(COMPILED_MODULES, opt_level="3", group_name=GROUP))
        except (Exception, SystemExit) as exc:  # mypyc exits on an error it has printed
            if MODE == "1":
                raise
            _pure(f"mypyc could not compile the adjudicator ({exc!r})")
            return []

    def _missing_compiler(self) -> str | None:
        """The C compiler's program when it is not there (a Unix-like compiler: its command
        line is known before compiling; another says so when it fails, in ``run``)."""
        from distutils.ccompiler import new_compiler  # setuptools' distutils
        from distutils.sysconfig import customize_compiler

        compiler = new_compiler(compiler=self.compiler)
        customize_compiler(compiler)
        command = getattr(compiler, "compiler_so", None)
        if command and shutil.which(command[0]) is None:
            return str(command[0])
        return None

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - no C compiler, a failed compile or link
            if MODE == "1":
                raise
            # a half-built group must not be installed: a module whose library is missing
            # would not import at all
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            self.extensions = []
            self.distribution.ext_modules = []
            _pure(f"the compiled adjudicator could not be built ({exc})")

    def copy_extensions_to_source(self) -> None:
        super().copy_extensions_to_source()
        # copied with the build's times: touched, so that each is newer than the source it
        # was made from even when the build reused an unchanged one (judge.stale_build)
        build_py = self.get_finalized_command("build_py")
        for ext in self.extensions:
            inplace, _ = self._get_inplace_equivalent(build_py, ext)
            os.utime(inplace)


def _pure(why: str) -> None:
    print(f"judge: {why}; installing the pure-Python adjudicator (same answers, slower)",
          file=sys.stderr)


# Stands for the extensions until build_ext makes them (CompiledBuild.finalize_options): its
# presence makes setuptools run build_ext and tag the wheel for this platform.
PLACEHOLDER = Extension(f"{GROUP}__mypyc", sources=[])


def _compiled() -> list[Extension]:
    if MODE == "0":
        return []
    if MODE != "1" and find_spec("mypyc") is None:
        return []  # no mypyc in this build's environment (no build isolation, no mypy)
    return [PLACEHOLDER]


setup(
    packages=PACKAGES,
    package_dir=SHIPPED,
    ext_modules=_compiled(),
    cmdclass={"build_ext": CompiledBuild},
)
