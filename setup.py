"""What pyproject.toml cannot say: the package's layout and the optional compiled build.

Layout: ``templates/`` and ``migrations/`` sit at the top of the repository and are mapped into
the package here (``judge/templates``, ``judge/storage/migrations`` in the wheel), so an
installed judge finds them from any working directory (``judge.shipped``; tests/test_wheel.py
builds and installs a real wheel). Their files are package data declared in pyproject.toml.

The compiled build: by default this adds nothing: the judge installs as pure Python, the reference that the tests
and the corpora check. With ``JUDGE_MYPYC=1`` the hot modules of ``judge/adjudicator`` (and the
house rules' request reading) are compiled with mypyc (the mypy project's compiler: C extensions from the same typed source, no
second implementation to keep in step), about twice as fast on a batch of phases:

    pip install mypy                                  # mypyc comes with mypy (the dev extra)
    JUDGE_MYPYC=1 pip install --no-build-isolation .  # a compiled install
    scripts/build_compiled.sh                         # or in place, for a checkout (-e)

``tests/adjudicator/test_compiled.py`` checks a compiled build against the pure source.
"""

from __future__ import annotations

import os

from setuptools import find_namespace_packages, setup

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
]


def _compiled() -> list[object]:
    if os.environ.get("JUDGE_MYPYC") != "1":
        return []
    from mypyc.build import mypycify  # only this build needs it

    return mypycify(COMPILED_MODULES, opt_level="3", group_name="judge.adjudicator.compiled")


setup(packages=PACKAGES, package_dir=SHIPPED, ext_modules=_compiled())
