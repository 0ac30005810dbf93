"""Words a bulletin shows, per language: powers, units, places, phases, dates.

Power names come from the game's variant (its map's ``"powers"``, ``catalog.py``).
Province names and abbreviations come from the map data file (the same table the parsers
read), so a French bulletin writes ``NRD`` for the North Sea exactly as seed 000 does.
Dates are formatted with Babel (``babel.dates``, CLDR data) rather than with ``locale``: the
machine's installed locales must not change what a player reads.
Season and phase names are prose, in the catalogs (judge.i18n).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from babel.dates import format_datetime

from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.phase import Phase
from judge.i18n import N_, tr

UNIT_NAMES: dict[str, dict[str, str]] = {
    "en": {"A": "Army", "F": "Fleet"},
    "fr": {"A": "Armée", "F": "Flotte"},
    "it": {"A": "Armata", "F": "Flotta"},
}

# seasons and phase kinds: English msgids of the catalogs (the map's title uses the same)
SEASONS = {"S": N_("Spring"), "F": N_("Fall"), "W": N_("Winter")}
PHASE_KINDS = {"M": N_("Movement"), "R": N_("Retreats"), "A": N_("Adjustments")}

# njudge's deadline shape, six fields: day month dd yyyy HH:MM:SS zone. The day and month
# abbreviations are the locale's, from Babel's CLDR data (never the machine's installed locales)
DEADLINE_PATTERN = "EEE MMM dd yyyy HH:mm:ss"


def power_name(power: str, lang: str, variant: str) -> str:
    """The power's name in ``lang`` on the map of ``variant`` (a game or position names it)."""
    return installed_variant(variant).power_name(power, lang)


def phase_title(phase: str, lang: str) -> str:
    """``S1901M`` -> ``Spring 1901 Movement`` (``Printemps 1901 Mouvements`` ...)."""
    ph = Phase.parse(phase)
    return tr(lang, "%(season)s %(year)s %(kind)s", season=tr(lang, SEASONS[ph.season.value]),
              year=ph.year, kind=tr(lang, PHASE_KINDS[ph.kind.value]))


def place_name(location: str, lang: str, variant: str) -> str:
    """Full name of a province or coast, e.g. ``St Petersburg (south coast)``, on the map of
    ``variant`` (a position's JSON names it)."""
    board = installed_variant(variant).board
    if location in board.coast_names:
        return str(_in(board.coast_names[location], lang).get("name") or location)
    province = board.provinces.get(location)
    return str(_in(province.names, lang).get("name") or location) if province else location


def _in(names: Mapping[str, Any], lang: str) -> Mapping[str, Any]:
    """A place's names in ``lang``, else in English: a map has the languages it has (its
    ``map.json``'s ``"languages"``), English always."""
    found = names.get(lang) or names.get("en") or {}
    return found if isinstance(found, Mapping) else {}


def place_abbr(location: str, lang: str, variant: str) -> str:
    """The language's short code; French coasts are written ``STP CN`` as in seed 000."""
    board = installed_variant(variant).board
    names = board.coast_names.get(location) or (
        board.provinces[location].names if location in board.provinces else None
    )
    if names is None:
        return location
    abbrs = _in(names, lang).get("abbr") or []
    # English coasts carry no abbreviation: the canonical ``STP/SC`` is what players write
    return str(abbrs[0]).upper() if abbrs else location


def format_deadline(when: datetime, timezone: str, lang: str) -> str:
    """``Mon Dec 07 2026 20:00:00 CET``: njudge's shape (the ``:: Deadline:`` header line keeps
    its six whitespace-separated fields in every language), in the game's own time zone, with
    the language's abbreviations (``lun dic 07 2026``, ``lun. déc. 07 2026``). The zone is the
    time zone database's abbreviation (``CET``/``CEST``), as njudge writes it."""
    local = when.astimezone(ZoneInfo(timezone))
    return f"{format_datetime(local, DEADLINE_PATTERN, locale=lang)} {local.tzname()}"
