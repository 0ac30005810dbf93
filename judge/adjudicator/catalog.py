"""The installed variants: one folder each under ``judge/variants/`` (package data).

A folder holds ``variant.json`` (name in three languages, the map folder it uses, powers, first
phase, centres to win, seats, neutral powers, closed territory, the lot) and, when it brings
its own map, ``map.json`` (the graph, the province names in three languages) and
``drawing.json`` (the map drawing, read by ``judge.maps``). Seed 001's fewer-player games
(``standard-6`` ... ``standard-2``) are folders with only ``variant.json`` over the standard map.
Reading package data is no I/O in the layering's sense: it is part of the installed code.

Keys of ``variant.json`` beyond those: ``powers`` (the map's powers that play: a cut-down such as
``france-austria`` names two, every other centre then neutral), ``rules`` (DPjudge's RULE
switches as its ``.map`` names them; BUILD_ANY, HOME_BUILDS and REMOTE_BUILDS set where powers
build, see ``adjustments.BuildRule``), ``builds`` (that rule named directly: home, any, homes,
remote, homes_remote), ``centers`` (power -> the centres it owns at the start, when not its
home centres: DPjudge's OWNS) and ``source`` (the ``.map`` files a folder was imported from and the
notice of their licence, whose text is the folder's ``LICENSE``). The first phase may be any
phase of the standard year (``W1900A``: Chaos starts with builds) in any year (``S0001M``).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from judge.adjudicator.adjustments import BuildRule, build_rule
from judge.adjudicator.geography import closed_board, load_board
from judge.adjudicator.phase import Phase
from judge.adjudicator.variant import Lot, Variant, VariantError

DEFAULT_VARIANT = "standard"


@cache
def variant_names() -> tuple[str, ...]:
    """Every installed variant, sorted (package data: read once; every request asks)."""
    root = resources.files("judge.variants")
    return tuple(
        sorted(e.name for e in root.iterdir() if e.joinpath("variant.json").is_file())
    )


@cache
def variant(name: str = DEFAULT_VARIANT) -> Variant:
    """The variant called ``name``; ``VariantError`` when none is installed under that name."""
    if name not in variant_names():
        raise VariantError(
            f"unknown variant {name!r} (installed: {', '.join(variant_names())})"
        )
    raw = json.loads(
        resources.files("judge.variants").joinpath(name, "variant.json").read_text("utf-8")
    )
    return variant_from_json(raw)


def variant_from_json(raw: dict[str, Any]) -> Variant:
    if "first_phase" not in raw:
        raise VariantError(f"{raw.get('name')}: variant.json needs a first_phase")
    board = load_board(raw.get("map", raw["name"]))
    powers = tuple(raw.get("powers", board.powers))
    unknown = set(powers) - set(board.powers)
    if unknown:
        raise VariantError(f"{raw['name']}: powers not on the map: {sorted(unknown)}")
    neutral = frozenset(raw.get("neutral", ()))
    seats = tuple(tuple(s) for s in raw.get("seats", [[p] for p in powers if p not in neutral]))
    seated = [p for s in seats for p in s]
    if sorted(seated) != sorted(p for p in powers if p not in neutral):
        raise VariantError(f"{raw['name']}: every non-neutral power needs exactly one seat")
    closed = None
    if raw.get("closed_while_neutral"):
        closed = closed_board(
            board, frozenset(c for p in neutral for c in board.home_centers(p))
            | frozenset(raw.get("closed_provinces", ()))
        )
    switches = tuple(raw.get("rules", ()))
    builds = BuildRule(raw["builds"]) if "builds" in raw else build_rule(switches)
    lot = None
    if raw.get("lot"):
        lot = Lot(raw["lot"]["power"], Phase.parse(raw["lot"]["drawn_before"]))
    return Variant(
        name=raw["name"],
        titles=dict(raw.get("titles", {})),
        board=board,
        powers=powers,
        first_phase=Phase.parse(raw["first_phase"]),  # every variant.json names it
        victory=int(raw["victory"]),
        seats=seats,
        neutral=neutral,
        closed_board=closed,
        lot=lot,
        builds=builds,
        switches=switches,
        first_centers=(
            {p: tuple(cs) for p, cs in raw["centers"].items()} if "centers" in raw else None
        ),
    )
