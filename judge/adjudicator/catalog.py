"""The installed variants: one folder each under ``judge/variants/`` (package data).

A folder holds ``variant.json`` (name in three languages, the map folder it uses, powers, first
phase, centres to win, seats, neutral powers, closed territory, the lot) and, when it brings
its own map, ``map.json`` (the graph, the province names in three languages) and
``drawing.json`` (the map drawing, read by ``judge.maps``). ``map.json`` is the one place a
power's facts live: its ``"powers"`` object gives per power code ``names`` and ``adjectives``
(language -> word, ``en`` always), ``other_names`` (language -> more spellings the parsers read),
``abbreviations`` (what commands accept: ``AUS``, ``A``), ``colour`` and ``tint`` (hex) and
``territory`` (the provinces coloured as its home land); ``"languages"`` lists the languages its
province names exist in; ``"words"`` (optional) gives per language what the order parser reads
beyond the province records: ``aliases`` (code -> more spellings: ``Gulf of Lyons``), ``drop``
(code -> abbreviations not read in that language) and ``display`` (code -> the name a reply
shows); ``"coast_aliases"`` (optional) the coast a direction word names where the coast's own
name does not say it (the standard map's Bulgarian east coast is also "north", as seed 000 and
webDiplomacy's English call it). They reach every caller as the Variant's ``PowerInfo`` values
(``variant(name).power(code)``) or, from a board, through ``map_powers(board.name)``. Seed
001's fewer-player games (``standard-6`` ... ``standard-2``) are folders with only
``variant.json`` over the standard map.
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
from collections.abc import Mapping
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from judge.adjudicator.adjustments import BuildRule, build_rule
from judge.adjudicator.geography import (
    EXTRA_FOLDERS,
    closed_board,
    load_board,
    map_json,
    variant_folder,
)
from judge.adjudicator.phase import Phase
from judge.adjudicator.variant import (
    Lot,
    PowerInfo,
    Variant,
    VariantError,
    power_info_from_json,
)

DEFAULT_VARIANT = "standard"


@cache
def variant_names() -> tuple[str, ...]:
    """Every installed variant, sorted (package data: read once; every request asks)."""
    root = resources.files("judge.variants")
    installed = {e.name for e in root.iterdir() if e.joinpath("variant.json").is_file()}
    return tuple(sorted(installed | set(EXTRA_FOLDERS)))


def add_variant_folder(folder: Traversable) -> str:
    """Play the variant in ``folder`` (``variant.json``, and ``map.json`` when it brings its own
    map) beside the installed ones, under its ``variant.json`` name; returns that name. A club's
    own map before it is installed, or a test's map; an installed name cannot be replaced."""
    name = str(json.loads(folder.joinpath("variant.json").read_text("utf-8"))["name"])
    if EXTRA_FOLDERS.get(name) == folder:
        return name
    if name in variant_names():
        raise VariantError(f"variant {name!r} is already installed")
    EXTRA_FOLDERS[name] = folder
    variant_names.cache_clear()
    return name


def remove_variant_folder(name: str) -> None:
    """Stop playing the variant ``add_variant_folder`` added under ``name`` (what was read from
    it is forgotten: the same name may later come from another folder)."""
    if EXTRA_FOLDERS.pop(name, None) is not None:
        for cached in (variant_names, variant, map_powers, map_words, map_languages, load_board,
                       map_json):
            cached.cache_clear()


@cache
def map_powers(map_name: str) -> Mapping[str, PowerInfo]:
    """The powers of map folder ``map_name`` (a board's ``name``), read from its ``map.json``."""
    board = load_board(map_name)
    return power_info_from_json(
        map_json(map_name).get("powers", {}), board.powers, board.all_home_centers
    )


@cache
def map_words(map_name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The parser's words of map folder ``map_name`` beyond its province records: per language
    ``aliases``/``drop``/``display``, and the coast aliases (see the module docstring)."""
    raw = map_json(map_name)
    return dict(raw.get("words", {})), dict(raw.get("coast_aliases", {}))


@cache
def map_languages(map_name: str) -> tuple[str, ...]:
    """The languages the province names of map folder ``map_name`` exist in."""
    return tuple(map_json(map_name).get("languages", ["en"]))


@cache
def variant(name: str = DEFAULT_VARIANT) -> Variant:
    """The variant called ``name``; ``VariantError`` when none is installed under that name."""
    if name not in variant_names():
        raise VariantError(
            f"unknown variant {name!r} (installed: {', '.join(variant_names())})"
        )
    raw = json.loads(variant_folder(name).joinpath("variant.json").read_text("utf-8"))
    return variant_from_json(raw)


def variant_from_json(raw: dict[str, Any]) -> Variant:
    if "first_phase" not in raw:
        raise VariantError(f"{raw.get('name')}: variant.json needs a first_phase")
    map_name = raw.get("map", raw["name"])
    board = load_board(map_name)
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
        power_info=map_powers(map_name),
        languages=map_languages(map_name),
    )
