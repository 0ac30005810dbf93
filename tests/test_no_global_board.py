"""No module reads a global board or a global power list (issue 12): the map and the powers
come from the game's ``Variant``, passed explicitly (or named by the position it belongs to).

The scan reads every module of the package and looks for the names ``standard_board`` and
``POWERS`` (used, imported or defined) and the literal first phase ``"S1901M"`` in code (a
docstring or an error message that shows the format is fine: only a string compared, assigned
or passed counts). ``LEFT`` lists the modules that still do, each with why; it may only shrink:
a module not in it that starts to read a global fails this test, and so does an entry that is
no longer needed.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "judge"

# module -> what it still reads and why (shrink this; never add to it). Empty: the standard
# map's loader and power tuple are gone, a Position names its variant and homes, and a DATC case
# without a phase line takes the standard variant's first phase.
LEFT: dict[str, set[str]] = {}
WATCHED = ("POWERS", "standard_board")


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _messages(tree: ast.AST) -> set[int]:
    """ids of the string constants inside a ``raise`` (error messages showing the format)."""
    return {id(n) for r in ast.walk(tree) if isinstance(r, ast.Raise)
            for n in ast.walk(r) if isinstance(n, ast.Constant)}


def globals_read(source: str) -> set[str]:
    tree = ast.parse(source)
    skip = _docstrings(tree) | _messages(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in WATCHED:
            found.add(node.id)
        elif isinstance(node, ast.Attribute) and node.attr in WATCHED:
            found.add(node.attr)
        elif isinstance(node, ast.ImportFrom):
            found.update(a.name for a in node.names if a.name in WATCHED)
        elif isinstance(node, ast.FunctionDef) and node.name in WATCHED:
            found.add(node.name)
        elif (isinstance(node, ast.Constant) and node.value == "S1901M"
              and id(node) not in skip):
            found.add("S1901M")
    return found


def _scan() -> dict[str, set[str]]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        found = globals_read(path.read_text("utf-8"))
        if found:
            out[path.relative_to(PACKAGE).as_posix()] = found
    return out


def test_no_module_reads_a_global_board_or_power_list() -> None:
    found = _scan()
    new = {m: sorted(f - LEFT.get(m, set())) for m, f in found.items() if f - LEFT.get(m, set())}
    assert not new, f"global board / power list / first phase read in: {new}"


def test_the_list_of_modules_left_only_shrinks() -> None:
    found = _scan()
    stale = {m: sorted(names - found.get(m, set())) for m, names in LEFT.items()
             if names - found.get(m, set())}
    assert not stale, f"no longer needed in LEFT (remove them): {stale}"


def test_the_scan_sees_each_kind_of_use() -> None:
    assert globals_read("from judge.adjudicator.geography import POWERS\n") == {"POWERS"}
    assert globals_read("import x\nb = x.standard_board()\n") == {"standard_board"}
    assert globals_read('game.phase = "S1901M"\n') == {"S1901M"}
    assert globals_read('"""Phases like "S1901M"."""\n') == set()
    assert globals_read('raise ValueError("e.g. S1901M")\n') == set()
