"""What the play page shows of the phases played (issue 29): each phase's map and every
power's orders with their results, the units dislodged or destroyed said so, the places by
their full names in the page's language; the colour legend of the map's powers. Pure: it
reads turn snapshots (the turn row's JSON) and draws them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.adjudicator.phase import Phase
from judge.archive import pages
from judge.bulletins.notation import order_in_words
from judge.bulletins.views import unit_fates
from judge.i18n import N_, tr
from judge.maps.style import power_colour
from judge.maps.svg import render_svg
from judge.templating import power_name

# what became of a unit, said after its order's result
FATE_WORDS = {"dislodged": N_("dislodged: it must retreat"),
              "destroyed": N_("destroyed: it had nowhere to retreat")}


def _units_by_province(position: Mapping[str, Any]) -> dict[str, str]:
    return {u.split()[1].split("/")[0]: u
            for units in (position.get("units") or {}).values() for u in units}


def phase_view(turn: Mapping[str, Any], name: str, lang: str, variant: str) -> dict[str, Any]:
    """One played phase: its code and title, its map (SVG) and a row per order of every
    power: ``power``, ``order`` (canonical), ``words`` (full names), ``result``, ``text``
    (the result in words), ``fate`` (None, ``dislodged`` or ``destroyed``, and its words)."""
    phase = Phase.parse(str(turn["phase"]))
    after = turn.get("position_after") or {}
    outcomes: Mapping[str, Sequence[Mapping[str, Any]]] = turn.get("outcomes") or {}
    dislodged = after.get("dislodged") or {}
    after_units = _units_by_province(after)
    rows: list[dict[str, Any]] = []
    for power in sorted(outcomes, key=lambda p: power_name(p, lang, variant)):
        results = outcomes[power]
        fates = unit_fates(phase, results, dislodged.get(power, {}), after_units)
        for r, fate in zip(results, fates, strict=True):
            order = str(r.get("order", ""))
            rows.append({
                "power": power, "order": order, "colour": power_colour(variant, power, "#000"),
                "words": order_in_words(order, lang, variant=variant,
                                        adjustment=phase.is_adjustment),
                "result": str(r.get("result", "")),
                "text": pages.outcome_words(str(r.get("result", "")),
                                            str(r.get("reason", "") or ""),
                                            str(r.get("refusal", "") or ""), lang),
                "fate": fate, "fate_text": tr(lang, FATE_WORDS[fate]) if fate else "",
            })
    snap = pages.map_input(turn)
    snap["title"], snap["language"] = name, lang
    return {"phase": str(turn["phase"]), "title": pages.phase_title(str(turn["phase"]), lang),
            "svg": render_svg(snap), "rows": rows}


def legend(variant: str, powers: Sequence[str], counts: Mapping[str, int],
           lang: str) -> list[dict[str, Any]]:
    """One entry per power of the map: its name in ``lang``, its colour on the map, its
    centres now; the most centres first."""
    entries = [{"power": p, "name": power_name(p, lang, variant),
                "colour": power_colour(variant, p, "#000"), "centres": counts.get(p, 0)}
               for p in powers]
    return sorted(entries, key=lambda e: (-int(e["centres"]), str(e["name"])))
