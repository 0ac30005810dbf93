"""Jinja2 environments that speak one language each: ``jinja2.ext.i18n`` over the judge's
catalogs (judge.i18n), so a template is written once, in English, and every sentence in it is a
``_()``/``ngettext()``/``pgettext()`` call translated when the template renders.

Newstyle gettext: ``_("Game %(game)s is over.", game=game)`` fills its placeholders itself
(and escapes them in HTML), so a translation can move them where its grammar wants them.

The filters every kind of text shares are here: a power's name in the language, and the same
with the article a French sentence puts before it (``la France``, ``l'Allemagne``) where the
English says ``France``; in Italian and English ``power_art`` is the bare name.

A power's name is its variant's (``map.json``'s ``"powers"``): a template rendered with
``game_variant`` in its context (or ``power(variant)``) names the powers of that variant; one
without (a reply macro) takes the name from the first installed variant that has the power, the
standard one first.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from jinja2 import (
    BaseLoader,
    Environment,
    PackageLoader,
    StrictUndefined,
    pass_context,
    select_autoescape,
)
from jinja2.runtime import Context

from judge.i18n import check_lang, translations
from judge.parsing.commands_lexicon import lexicon

# the widest power name of each language, for the columns of LIST, SUMMARY and START
POWER_WIDTH = {"en": 10, "it": 12, "fr": 12}


def power_name(power: str, lang: str, variant: str | None = None) -> str:
    """The name in ``lang`` of ``power`` (or the GM) on ``variant``'s map; without a variant,
    on the first installed variant's map that has the power."""
    return str(lexicon().power_name(str(power), lang, variant))


def with_article_fr(name: str) -> str:
    """The standard powers' French names are all feminine: "la France", "l'Allemagne"."""
    return f"l'{name}" if name[:1].lower() in "aeiouyéèêh" else f"la {name}"


def power_with_article(power: str, lang: str, variant: str | None = None) -> str:
    name = power_name(power, lang, variant)
    return with_article_fr(name) if lang == "fr" else name


def _context_variant(ctx: Context) -> str | None:
    found = ctx.get("game_variant")
    return str(found) if found else None


def _loader() -> BaseLoader:
    return PackageLoader("judge", "templates")


def _install(env: Environment, lang: str) -> Environment:
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    env.globals["lang"] = lang
    env.globals["power_width"] = POWER_WIDTH[lang]
    env.filters["power"] = pass_context(
        lambda ctx, p, variant=None: power_name(p, lang, variant or _context_variant(ctx)))
    env.filters["powers"] = pass_context(lambda ctx, ps: ", ".join(
        power_name(p, lang, _context_variant(ctx)) for p in _seq(ps)))
    env.filters["power_art"] = pass_context(
        lambda ctx, p: power_with_article(p, lang, _context_variant(ctx)))
    env.filters["powers_art"] = pass_context(lambda ctx, ps: ", ".join(
        power_with_article(p, lang, _context_variant(ctx)) for p in _seq(ps)))
    env.filters["join_or"] = lambda items, empty="-": ", ".join(items) if items else empty
    return env


def _seq(items: Iterable[Any] | str) -> list[Any]:
    return [items] if isinstance(items, str) else list(items)


@cache
def text_environment(lang: str) -> Environment:
    """Plain text (mail): no escaping, blocks trimmed, templates never reloaded (they ship
    with the code: no stat() of the file on every get_template)."""
    env = Environment(
        loader=_loader(),
        undefined=StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        extensions=["jinja2.ext.i18n"],
    )
    return _install(env, check_lang(lang))


@cache
def html_environment(lang: str) -> Environment:
    """HTML (the archive): everything escaped, translations included."""
    return new_html_environment(lang)


def new_html_environment(lang: str) -> Environment:
    """A new HTML environment of its own, for a page family that sets its own filters (the
    play page's and the archive's ``notation`` read their variant from different contexts;
    one shared environment would let the one set last serve both)."""
    env = Environment(
        loader=_loader(),
        autoescape=select_autoescape(enabled_extensions=("html", "j2"), default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
        extensions=["jinja2.ext.i18n"],
    )
    return _install(env, check_lang(lang))
