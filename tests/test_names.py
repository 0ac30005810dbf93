"""Names that say one thing: a module's file name, or a class's name, alone says where you are."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

JUDGE = Path(__file__).resolve().parent.parent / "judge"


def test_every_module_name_is_unique_in_the_package() -> None:
    where: dict[str, list[str]] = defaultdict(list)
    for path in JUDGE.rglob("*.py"):
        if path.name != "__init__.py":
            where[path.name].append(str(path.relative_to(JUDGE)))
    assert len(where) > 50
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}


def test_every_class_name_is_unique_in_the_package() -> None:
    where: dict[str, list[str]] = defaultdict(list)
    for path in JUDGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                where[node.name].append(str(path.relative_to(JUDGE)))
    assert len(where) > 50
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}
