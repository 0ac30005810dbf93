"""The ``judge`` package's module import graph has no circle (issue 28 point 1).

A circle between modules is what made imports hide inside functions: each module of a circle
needs the others loaded first, so one of them must wait until it is called. The graph is
grimp's (import-linter's engine) and counts every import, those inside functions too; an
``if TYPE_CHECKING:`` import names a type for the checker only and loads nothing, so it is left
out, as ``.importlinter`` leaves it out of the contracts.
"""

from __future__ import annotations

from collections.abc import Iterable

import grimp


def _graph() -> grimp.ImportGraph:
    return grimp.build_graph("judge", exclude_type_checking_imports=True, cache_dir=None)


def circles(graph: grimp.ImportGraph) -> list[frozenset[str]]:
    """The strongly connected groups of two modules or more (Tarjan's algorithm, iterative:
    the package is deep enough for Python's recursion limit to matter)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[frozenset[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work: list[tuple[str, Iterable[str]]] = []
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work.append((root, iter(sorted(graph.find_modules_directly_imported_by(root)))))
        while work:
            node, children = work[-1]
            child = next(iter(children), None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child,
                                 iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(frozenset(group))
    return found


def describe(graph: grimp.ImportGraph, group: frozenset[str]) -> str:
    """A circle as the imports that make it, with their lines, for the failure message."""
    lines = [" <-> ".join(sorted(group))]
    for importer in sorted(group):
        for imported in sorted(graph.find_modules_directly_imported_by(importer) & group):
            for detail in graph.get_import_details(importer=importer, imported=imported):
                lines.append(f"    {importer}:{detail['line_number']}: "
                             f"{detail['line_contents']}")
    return "\n".join(lines)


def test_the_package_has_no_import_circle() -> None:
    graph = _graph()
    found = circles(graph)
    assert not found, "import circles in judge:\n" + "\n".join(
        describe(graph, g) for g in found)


def test_circles_are_found() -> None:
    """The search itself: a circle of three modules and one of two, beside a clean chain."""
    graph = grimp.ImportGraph()
    for module in ("p", "p.a", "p.b", "p.c", "p.d", "p.e", "p.f"):
        graph.add_module(module)
    for importer, imported in (("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"),
                               ("p.d", "p.e"), ("p.e", "p.d"), ("p.e", "p.f"),
                               ("p.a", "p.f")):
        graph.add_import(importer=importer, imported=imported, line_number=1,
                         line_contents=f"import {imported}")
    assert sorted(sorted(g) for g in circles(graph)) == [["p.a", "p.b", "p.c"], ["p.d", "p.e"]]
    assert "p.c:1: import p.a" in describe(graph, frozenset({"p.a", "p.b", "p.c"}))
