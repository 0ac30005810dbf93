"""Reading the order tables ``tests/data/orders_<lang>.tsv`` and the positions they name.

A row is ``input<TAB>expected[<TAB>context]``. ``expected`` lists one result per order read
from the input, joined by `` | ``: a canonical order, or ``!Reason`` for a refusal. ``context``
holds ``setup=<name of setups.json>``, ``power=<POWER>`` and ``phase=<PHASE>`` words. Lines
starting with ``#`` are comments; ``# seed NNN`` marks the rows that come from that seed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from judge.adjudicator.orders import parse_unit
from judge.adjudicator.position import Dislodged, Position
from tests.standard_variant import STANDARD

DATA = Path(__file__).resolve().parent.parent / "data"
SETUPS = json.loads((Path(__file__).resolve().parent / "setups.json").read_text("utf-8"))


@dataclass(frozen=True)
class Row:
    lang: str
    line: int
    text: str
    expected: str
    context: dict[str, str]
    source: str  # "seed 000" ... or "own"

    @property
    def id(self) -> str:
        return f"{self.lang}:{self.line}"


def rows(lang: str) -> list[Row]:
    out: list[Row] = []
    source = "own"
    path = DATA / f"orders_{lang}.tsv"
    for n, raw in enumerate(path.read_text("utf-8").splitlines(), start=1):
        if not raw.strip():
            continue
        if raw.startswith("#"):
            words = [w.rstrip(":,") for w in raw[1:].split()]
            if words[:1] == ["seed"] and len(words) > 1:
                source = f"seed {words[1]}"
            elif words[:1] == ["own"]:
                source = "own"
            continue
        cells = raw.split("\t")
        assert len(cells) in (2, 3), f"{path.name}:{n}: expected 2 or 3 tab-separated cells"
        context = dict(w.split("=", 1) for w in cells[2].split()) if len(cells) == 3 else {}
        out.append(Row(lang, n, cells[0], cells[1].strip(), context, source))
    return out


def position(name: str) -> Position:
    setup = SETUPS[name]
    if setup.get("initial"):
        pos = STANDARD.initial_position()
        return pos
    pos = STANDARD.position(setup["phase"], setup["units"], setup.get("centers"))
    for power, entries in setup.get("dislodged", {}).items():
        for text, retreats in entries.items():
            unit = parse_unit(text, power)
            pos.dislodged[unit.province] = Dislodged(unit, None, tuple(retreats))
    return pos
