"""Render bulletin views with Jinja2: one template per event, written in English and translated
through the catalogs (judge.i18n), in the layout each language's clubs are used to.

Templates live in ``templates/bulletins/<event>.txt.j2`` (package data: judge/templates once
installed). The first line of a template is ``Subject: ...``; the rest is the body.
StrictUndefined turns a misspelt field into an error at render time rather than a blank in a
player's mail.
"""

from __future__ import annotations

from typing import Any

from judge.i18n import LANGUAGES  # the judge's languages (a map's own: its map.json)
from judge.templating import text_environment

# How each language lays a bulletin out (data, not prose): the width of the power column,
# capitals for power names and one line of orders per power as in seed 000's French
# bulletins, the separator of centre lists, the gap after "POWER:" and the legend of marks.
LAYOUTS: dict[str, dict[str, Any]] = {
    "en": {"col": 8, "upper": False, "inline_orders": False, "sep": ", ", "tag_gap": " ",
           "legend": False},
    "it": {"col": 12, "upper": False, "inline_orders": False, "sep": ", ", "tag_gap": " ",
           "legend": False},
    "fr": {"col": 11, "upper": True, "inline_orders": True, "sep": " ", "tag_gap": "   ",
           "legend": True},
}


def render(event: str, lang: str, view: dict[str, Any]) -> tuple[str, str]:
    """Return ``(subject, body)`` of the ``event`` bulletin in ``lang``."""
    if lang not in LANGUAGES:
        raise ValueError(f"no bulletins in language {lang!r}; expected one of {LANGUAGES}")
    template = text_environment(lang).get_template(f"bulletins/{event}.txt.j2")
    # the power filters name the powers of the game's variant (judge.templating)
    game_variant = (view.get("header") or {}).get("variant_name")
    text = template.render(**view, layout=LAYOUTS[lang], game_variant=game_variant)
    first, _, body = text.partition("\n")
    if not first.startswith("Subject: "):
        raise ValueError(f"template bulletins/{event}.txt.j2 must start with 'Subject: '")
    return first.removeprefix("Subject: ").strip(), body.lstrip("\n")
