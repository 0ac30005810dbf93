"""docs/api.md is the OpenAPI document the code generates, written as a page."""

from __future__ import annotations

from pathlib import Path

from judge.api.reference import markdown, openapi

ROOT = Path(__file__).resolve().parents[2]


def test_the_reference_page_is_current() -> None:
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert page == markdown(openapi()), "run python scripts/api_docs.py"


def test_the_page_names_every_route_of_the_document() -> None:
    spec = openapi()
    page = markdown(spec)
    for path, operations in spec["paths"].items():
        for method in operations:
            assert f"`{method.upper()} {path}`" in page
    assert "/api/v1/games/{game}/orders" in spec["paths"]
