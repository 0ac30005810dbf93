"""Every row of the order tables reads to its expected canonical orders or refusals."""

from __future__ import annotations

import re

import pytest

from judge.parsing import parse_orders
from tests.parsing.tables import Row, position, rows
from tests.standard_variant import STANDARD

LANGS = ("en", "fr", "it")
ALL_ROWS = [row for lang in LANGS for row in rows(lang)]


def read(row: Row) -> str:
    pos = position(row.context["setup"]) if "setup" in row.context else None
    report = parse_orders(
        [row.text], row.lang, position=pos, power=row.context.get("power"),
        phase=row.context.get("phase"),
    )  # fmt: skip
    results = [item.canonical or f"!{item.error}" for item in report.items]
    return " | ".join(results)


@pytest.mark.parametrize("row", ALL_ROWS, ids=[r.id for r in ALL_ROWS])
def test_row(row: Row) -> None:
    assert read(row) == row.expected, f"{row.source}: {row.text!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_table_size_and_sources(lang: str) -> None:
    table = rows(lang)
    own = [r for r in table if r.source == "own"]
    assert len(own) >= 150
    seeds = {"en": "seed 001", "fr": "seed 000", "it": "seed 002"}
    assert len([r for r in table if r.source == seeds[lang]]) >= 20


@pytest.mark.parametrize("lang", LANGS)
def test_every_province_appears(lang: str) -> None:
    seen: set[str] = set()
    for row in rows(lang):
        seen.update(re.findall(r"\b[A-Z]{3}\b", row.expected))
    playable = {c for c, p in STANDARD.board.provinces.items() if p.kind != "impassable"}
    assert playable - seen == set()
