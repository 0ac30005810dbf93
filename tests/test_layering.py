"""The architecture's rules, checked on the source: the pure core has no I/O, imports point down.

An AST walk rather than an import hook, so a forbidden import is caught even on a branch of code
that no other test executes.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

JUDGE = Path(__file__).resolve().parent.parent / "judge"

PURE = ("adjudicator", "rules", "parsing", "bots")
IO_MODULES = {
    "asyncio", "socket", "ssl", "selectors", "subprocess", "threading", "multiprocessing",
    "http", "urllib", "smtplib", "imaplib", "email", "sqlite3", "shutil", "tempfile", "os",
    "sqlalchemy", "alembic", "psycopg", "aiosmtpd", "aioimaplib", "aiosmtplib", "apscheduler",
    "uvicorn", "starlette", "cairosvg", "logging",
}
# Calls that read the clock or a global random generator: time must arrive as `now`, chance
# through an injected random.Random.
FORBIDDEN_CALLS = {
    ("datetime", "now"), ("datetime", "utcnow"), ("datetime", "today"), ("date", "today"),
    ("time", "time"), ("time", "monotonic"), ("time", "perf_counter"),
    ("random", "random"), ("random", "choice"), ("random", "shuffle"), ("random", "randint"),
    ("random", "sample"), ("random", "seed"), ("random", "uniform"),
}
# Which judge packages each layer may import (design.md: parsing -> rules -> adjudicator).
ALLOWED_INTERNAL = {
    "adjudicator": {"adjudicator"},
    "rules": {"rules", "adjudicator"},
    "parsing": {"parsing", "rules", "adjudicator", "i18n"},
    "bots": {"bots", "parsing", "rules", "adjudicator", "i18n"},
}
# Third-party libraries that exactly one place may import.
OWNERS = {
    "sqlalchemy": ("storage",),
    "alembic": ("storage",),
    "aiosmtpd": ("mail",),
    "aioimaplib": ("mail",),
    "aiosmtplib": ("mail",),
    "apscheduler": ("scheduler.py",),
}


def _modules(package: str) -> list[Path]:
    return sorted((JUDGE / package).rglob("*.py"))


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, node.lineno))
    return found


def _calls(path: Path) -> list[tuple[str, str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if isinstance(owner, ast.Name):
                found.append((owner.id, node.func.attr, node.lineno))
    return found


@pytest.mark.parametrize("package", PURE)
def test_pure_core_imports_no_io(package: str) -> None:
    bad = []
    for path in _modules(package):
        for name, line in _imports(path):
            top = name.split(".")[0]
            if top in IO_MODULES:
                bad.append(f"{path.relative_to(JUDGE)}:{line} imports {name}")
            if top == "judge":
                layer = name.split(".")[1] if "." in name else ""
                if layer not in ALLOWED_INTERNAL[package]:
                    bad.append(f"{path.relative_to(JUDGE)}:{line} imports upward: {name}")
        for owner, attr, line in _calls(path):
            if (owner, attr) in FORBIDDEN_CALLS:
                bad.append(f"{path.relative_to(JUDGE)}:{line} calls {owner}.{attr}()")
    assert not bad, "pure core breaks the layering:\n" + "\n".join(bad)


def test_pure_packages_exist() -> None:
    for package in PURE:
        assert _modules(package), f"judge/{package} has no modules"


@pytest.mark.parametrize("library", sorted(OWNERS))
def test_single_owner_of_each_io_library(library: str) -> None:
    owners = OWNERS[library]
    bad = []
    for path in sorted(JUDGE.rglob("*.py")):
        rel = path.relative_to(JUDGE)
        if rel.parts[0] in owners or str(rel) in owners:
            continue
        for name, line in _imports(path):
            if name.split(".")[0] == library:
                bad.append(f"{rel}:{line} imports {name}")
    assert not bad, f"only {owners} may import {library}:\n" + "\n".join(bad)
