"""Render bulletin views with Jinja2, one template folder per language.

Templates live in ``judge/templates/bulletins/<lang>/<event>.txt.j2`` (package data). The
first line of a template is ``Subject: ...``; the rest is the body. StrictUndefined turns a
misspelt field into an error at render time rather than a blank in a player's mail.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined

from judge.bulletins.names import LANGUAGES


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("judge", "templates"),
        undefined=StrictUndefined,
        autoescape=False,  # plain-text mail, never HTML
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["join_or"] = lambda items, empty="-": ", ".join(items) if items else empty
    return env


def render(event: str, lang: str, view: dict[str, Any]) -> tuple[str, str]:
    """Return ``(subject, body)`` of the ``event`` bulletin in ``lang``."""
    if lang not in LANGUAGES:
        raise ValueError(f"no bulletins in language {lang!r}; expected one of {LANGUAGES}")
    text = environment().get_template(f"bulletins/{lang}/{event}.txt.j2").render(**view)
    first, _, body = text.partition("\n")
    if not first.startswith("Subject: "):
        raise ValueError(f"template bulletins/{lang}/{event}.txt.j2 must start with 'Subject: '")
    return first.removeprefix("Subject: ").strip(), body.lstrip("\n")
