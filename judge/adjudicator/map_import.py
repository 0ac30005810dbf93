"""A ``.map`` file (read by ``mapfile.py``) as a variant folder: ``map.json`` and ``variant.json``.

Pure: values in, dicts out (``judge variants import`` writes them). The conversion follows
DPjudge's adjacency rule (``abuts``): an army moves along an entry that is not in mixed case
(``Tar`` is for fleets) to a province that is not water; a fleet moves along an entry whose
first letter is upper case to a location that is not land and that it can stand on (a split
coast's province is written in lower case, ``bul``, and fleets stand on its coasts only). Every
DPjudge-specific decision the judge cannot play stops the conversion with ``MapError``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from judge.adjudicator.mapfile import MapError, MapFile

_KIND = {"WATER": "sea", "LAND": "land", "COAST": "coast", "PORT": "coast", "SHUT": "impassable"}
_SEASON = {"SPRING": "S", "FALL": "F", "WINTER": "W"}
_TYPE = {"MOVEMENT": "M", "RETREATS": "R", "ADJUSTMENTS": "A"}

# RULE switches the judge plays: build rules (``variant.py``'s ``BuildRule``) and the dummies
# of DPjudge, which the judge plays as its neutral powers (``variant.py``: their units hold,
# are disbanded when dislodged, and they make no adjustments)
BUILD_RULES = ("BUILD_ANY", "HOME_BUILDS", "REMOTE_BUILDS")
DUMMY_RULES = ("CD_DUMMIES", "IMMOBILE_DUMMIES", "CD_BUILDS")
# switches about how a game is run, not about the board: kept in variant.json for the service
GAME_RULES = ("NO_DRAW",)

# the colours for powers the drawing gives none, or one another power already has (Chaos's
# drawing paints Berlin and Norway alike): Kelly's colours of maximum contrast (white and black
# left out) first, so that up to twenty powers tell apart at a glance; deterministic by rank
PALETTE = (
    "#be0032", "#0067a5", "#f3c300", "#008856", "#875692", "#f38400", "#848482", "#a1caf1",
    "#882d17", "#8db600", "#e68fac", "#604e97", "#c2b280", "#e25822", "#2b3d26", "#f6a600",
    "#b3446c", "#dcd300", "#654522", "#f99379",
)

# DPjudge's map library licence: travels with every folder made from its files
DPJUDGE_NOTICE = "DPjudge map library, MIT licence, Copyright 2017 Manus Hand (see LICENSE)"

_COLOUR_DEF = re.compile(r"^\s*/(@?\w+)\s+([\d.]+)(?:\s+([\d.]+)\s+([\d.]+))?\s+([rg])\s*$")
_POWER_DEF = re.compile(r"^\s*/([A-Z_][A-Z0-9_.]*)\s+\(.*?\)\s+/(@?\w+)\s+/")


def power_colours(ps_text: str) -> dict[str, str]:
    """Each power's colour in a DPjudge ``.ps`` drawing (``/ROME (R) /Red ... p`` in
    ``VisitPowers``, ``/Red 1 0 0 r`` or ``/Grey .5 g`` where the colour is defined), as hex;
    keyed by the power's name with underscores and spaces removed."""
    defined: dict[str, str] = {}
    named: dict[str, str] = {}
    in_powers = False
    for line in ps_text.splitlines():
        if line.startswith("/VisitPowers"):
            in_powers = True
            continue
        if in_powers:
            if line.startswith("}"):
                in_powers = False
                continue
            pm = _POWER_DEF.match(line)
            if pm and pm.group(1) != "UNOWNED":
                named[pm.group(1).replace("_", "")] = pm.group(2)
            continue
        cm = _COLOUR_DEF.match(line)
        if cm:
            if cm.group(5) == "g" and cm.group(3) is None:
                rgb = (float(cm.group(2)),) * 3
            elif cm.group(5) == "r" and cm.group(3) is not None:
                rgb = (float(cm.group(2)), float(cm.group(3)), float(cm.group(4)))
            else:
                continue
            defined.setdefault(cm.group(1), _hex(rgb))
    return {power: defined[colour] for power, colour in named.items() if colour in defined}


def _hex(rgb: tuple[float, ...]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(c * 255))):02x}" for c in rgb)


def tint(colour: str) -> str:
    """The colour of a power's land: its colour mixed with two thirds of white."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * 2 / 3):02x}" for c in rgb)


def first_phase(begin: str) -> str:
    """``SPRING 1901 MOVEMENT`` as ``S1901M`` (``WINTER 1900 ADJUSTMENTS``: ``W1900A``)."""
    words = begin.split()
    if (
        len(words) != 3
        or words[0] not in _SEASON
        or not words[1].isdigit()
        or words[2] not in _TYPE
    ):
        raise MapError(f"BEGIN {begin}: expected e.g. SPRING 1901 MOVEMENT")
    phase = f"{_SEASON[words[0]]}{int(words[1]):04d}{_TYPE[words[2]]}"
    if phase[0] + phase[-1] not in ("SM", "SR", "FM", "FR", "WA"):
        raise MapError(f"BEGIN {begin}: no such phase in the standard year")
    return phase


class _Geometry:
    """DPjudge's adjacency rule over the tables of a ``MapFile``."""

    def __init__(self, m: MapFile) -> None:
        self.m = m
        self.kind: dict[str, str] = {}
        for key, typ in m.types.items():
            prov = key.upper().split("/")[0]
            if "/" not in key:
                self.kind[prov] = typ
            else:
                self.kind.setdefault(prov, typ)

    def fleet_stands(self, key: str) -> bool:
        typ = self.m.types[key]
        if typ not in ("WATER", "COAST", "PORT"):
            return False
        return "/" in key or key.lower() not in self.m.abuts

    def army_targets(self, key: str) -> list[str]:
        out: set[str] = set()
        for entry in self.m.abuts.get(key, ()):
            prov = entry.upper().split("/")[0]
            if entry == entry.title():
                continue  # mixed case: fleets only
            if self.kind.get(prov) in (None, "WATER", "SHUT"):
                continue
            if prov == key.upper():
                continue  # a province listed among its own neighbours (empire's HOL): no move
            out.add(prov)
        return sorted(out)

    def fleet_targets(self, key: str) -> list[str]:
        out: set[str] = set()
        for entry in self.m.abuts.get(key, ()):
            target = entry.upper()
            if not entry[0].isupper():
                continue  # lower case: armies only
            if target not in self.m.types or self.m.types[target] in ("LAND", "SHUT"):
                continue  # a split coast's province (``bul``) is no fleet's target either
            if target.split("/")[0] == key.upper().split("/")[0]:
                continue  # its own province: no move
            out.add(target)
        return sorted(out)


def _names(m: MapFile, abbr: str, fallback: str) -> dict[str, Any]:
    name = m.names.get(abbr, fallback)
    others = []
    for alias in m.aliases.get(abbr, ()):
        if alias.endswith("?"):
            continue  # DPjudge's ambiguous alias ("and?"): a common word, never a name alone
        text = alias.replace("+", " ")
        if text.upper() != abbr and text not in others:
            others.append(text)
    return {"en": {"name": name, "abbr": [abbr.title()] if "/" not in abbr else [],
                   "other_names": others}}


def convert(
    m: MapFile, name: str, colours: dict[str, str] | None = None,
    fallback_colours: Mapping[str, str] | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(map.json, variant.json)`` of the variant ``name`` made from ``m``.

    A power's colour is the drawing's (``colours``, as ``power_colours`` reads them), else the
    one ``fallback_colours`` gives its code (the standard map's: ``fleetrome``'s France stays blue), else
    one of ``PALETTE`` no other power of the map has.

    A PORT is a coastal province (``"port": true`` in its row) whose fleet may convoy, as a
    fleet at sea does (``geography.Province.convoys``).
    """
    geo = _Geometry(m)
    homes: dict[str, str] = {}
    for decl in m.powers.values():
        for home in decl.homes:
            if home in homes:
                raise MapError(f"{name}: {home} is a home of both {homes[home]} and {decl.code}")
            homes[home] = decl.code
    centres = set(m.supply_centers())
    provinces: list[dict[str, Any]] = []
    by_prov: dict[str, list[str]] = {}
    for key in m.types:
        by_prov.setdefault(key.upper().split("/")[0], []).append(key)
    for prov in sorted(by_prov):
        keys = by_prov[prov]
        main = next((k for k in keys if "/" not in k), None)
        if main is None:
            raise MapError(f"{name}: coasts of {prov} but no province {prov}")
        kind = _KIND[m.types[main]]
        coasts = sorted(k for k in keys if "/" in k)
        army = geo.army_targets(main) if kind in ("land", "coast") else []
        fleet = geo.fleet_targets(main) if geo.fleet_stands(main) and not coasts else []
        row: dict[str, Any] = {
            "code": prov,
            "parent": None,
            "type": kind,
            "supply_center": prov in centres,
            "home": homes.get(prov),
            "army_neighbours": army,
            "fleet_neighbours": fleet,
            "names": _names(m, prov, prov.title()),
        }
        if m.types[main] == "PORT":
            row["port"] = True  # its fleet convoys (DPjudge's PORT)
        provinces.append(row)
        province_name = m.names.get(prov, prov.title())
        for coast in coasts:
            code = coast.upper()
            provinces.append(
                {
                    "code": code,
                    "parent": prov,
                    "type": "coast",
                    "supply_center": False,
                    "home": None,
                    "army_neighbours": [],
                    "fleet_neighbours": geo.fleet_targets(coast),
                    "names": _names(m, code, f"{province_name} ({code.split('/')[1].lower()})"),
                }
            )
    known = {p["code"] for p in provinces}
    for centre in centres:
        if centre not in known:
            raise MapError(f"{name}: supply centre {centre} is no province")
    units: dict[str, list[str]] = {}
    for power in m.powers:
        units[power] = []
        for unit in m.units.get(power, ()):
            kind_, loc = unit.split()
            if loc not in known:
                raise MapError(f"{name}: {power} starts with {unit}: no such location")
            units[power].append(unit)
    for power in m.units:
        if power not in m.powers:
            raise MapError(f"{name}: units for {power}, which is no power")
    colours = colours or {}
    powers: dict[str, Any] = {}
    used: set[str] = set()
    for rank, (code, decl) in enumerate(sorted(m.powers.items())):
        colour = colours.get(code.replace("_", "")) or (fallback_colours or {}).get(code, "")
        if not colour or colour in used:
            free = [c for c in PALETTE if c not in used]
            colour = free[0] if free else PALETTE[rank % len(PALETTE)]
        used.add(colour)
        powers[code] = {
            "names": {"en": decl.name.title()},
            "adjectives": {"en": decl.adjective.title()},
            "colour": colour,
            "tint": tint(colour),
            "territory": sorted(decl.homes),
        }
    map_json: dict[str, Any] = {
        "variant": name,
        "languages": ["en"],
        "source": {"files": list(m.files), "notice": DPJUDGE_NOTICE},
        "provinces": provinces,
        "starting_units": units,
        "powers": powers,
    }
    rows = {p["code"]: p for p in provinces}
    if m.weak:
        # DPjudge's "Cape of Good Hope" links (geography.Board.weak_links)
        for a, b in m.weak:
            if a not in rows or b not in rows:
                raise MapError(f"{name}: weak link {a}-{b}: no such province")
            row = rows[a]
            if b not in row["army_neighbours"] and not any(
                t.split("/")[0] == b for r in provinces if r["code"].split("/")[0] == a
                for t in r["fleet_neighbours"]
            ):
                raise MapError(f"{name}: weak link {a}-{b}: no unit moves along it")
        map_json["weak_links"] = [list(link) for link in sorted(m.weak)]
    partisans = {p: sorted(d.partisans) for p, d in sorted(m.powers.items()) if d.partisans}
    for power, sites in partisans.items():
        for site in sites:
            if site not in rows or rows[site]["parent"] is not None:
                raise MapError(f"{name}: partisan site {site} of {power}: no such province")
            if site in centres:
                raise MapError(f"{name}: partisan site {site} of {power} is a supply centre")
    if partisans:
        map_json["partisans"] = partisans  # geography.Board.partisans
    rules = []
    for rule in m.rules:
        if rule not in BUILD_RULES + DUMMY_RULES + GAME_RULES:
            file, line = m.where[f"RULE {rule}"]
            raise MapError(f"{file}:{line}: RULE: {rule} is not implemented")
        rules.append(rule)
    first_centers: dict[str, list[str]] | None = None
    if any(sorted(o) != sorted(m.powers[p].homes) for p, o in m.owns.items()):
        # OWNS: the first centres are not the homes; a power without OWNS owns its homes
        first_centers = {
            p: sorted(m.owns.get(p, decl.homes)) for p, decl in sorted(m.powers.items())
        }
        taken: dict[str, str] = {}
        for power, owned in first_centers.items():
            for centre in owned:
                if centre in taken:
                    raise MapError(f"{name}: {centre} owned by {taken[centre]} and {power}")
                taken[centre] = power
    if any(r in rules for r in DUMMY_RULES) and not m.dummies:
        raise MapError(f"{name}: dummy rules without a DUMMY power")
    victory = m.victory if m.victory is not None else len(centres) // 2 + 1
    variant_json: dict[str, Any] = {
        "name": name,
        "titles": {"en": name.replace("-", " ").title()},
        "map": name,
        "first_phase": first_phase(m.begin),
        "victory": victory,
    }
    if first_centers is not None:
        variant_json["centers"] = first_centers
    if m.dummies:
        variant_json["neutral"] = sorted(m.dummies)
    if rules:
        variant_json["rules"] = rules
    variant_json["source"] = {"files": list(m.files), "notice": DPJUDGE_NOTICE}
    return map_json, variant_json
