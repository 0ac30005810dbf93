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

from babel.dates import get_day_names
from jinja2 import (
    BaseLoader,
    Environment,
    FileSystemLoader,
    StrictUndefined,
    pass_context,
    select_autoescape,
)
from jinja2.runtime import Context
from markupsafe import Markup

from judge.i18n import check_lang, elide, translations
from judge.parsing.commands_lexicon import lexicon
from judge.rules.deadline_clock import WEEKDAYS
from judge.shipped import shipped_dir

# the widest power name of each language, for the columns of LIST, SUMMARY and START
POWER_WIDTH = {"en": 10, "it": 12, "fr": 12}


def weekday_name(day: str, lang: str) -> str:
    """A day off's identifier (``sat``; judge.rules.deadline_clock.WEEKDAYS) as the locale
    abbreviates it (Babel's CLDR data: ``Sat``, ``sab``, ``sam``: French's dot dropped, as a
    list of them ends a sentence); a date stays as written."""
    if day not in WEEKDAYS:
        return day
    return str(get_day_names("abbreviated", locale=lang)[WEEKDAYS.index(day)]).rstrip(".")


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
    # templates/ at the top of the repository, judge/templates once installed (judge.shipped)
    return FileSystemLoader(shipped_dir("templates"))


def _gettext_callables(lang: str) -> dict[str, Any]:
    """Jinja's newstyle gettext (``_("... %(game)s", game=g)`` fills its own placeholders and
    escapes them in HTML), with one step added before the filling: French elision, which
    depends on the value filled in (``lettre d'Angleterre``, ``lettre de France``;
    judge.i18n.elide)."""
    t = translations(lang)

    def fill(context: Context, text: str, variables: dict[str, Any]) -> str:
        text = elide(lang, text, variables)
        if context.eval_ctx.autoescape:
            text = Markup(text)
        return text % variables

    @pass_context
    def gettext(context: Context, message: str, **variables: Any) -> str:
        return fill(context, t.gettext(message), variables)

    @pass_context
    def ngettext(context: Context, singular: str, plural: str, num: int,
                 **variables: Any) -> str:
        variables.setdefault("num", num)
        return fill(context, t.ngettext(singular, plural, num), variables)

    @pass_context
    def pgettext(context: Context, ctx: str, message: str, **variables: Any) -> str:
        return fill(context, t.pgettext(ctx, message), variables)

    @pass_context
    def npgettext(context: Context, ctx: str, singular: str, plural: str, num: int,
                  **variables: Any) -> str:
        variables.setdefault("num", num)
        return fill(context, t.npgettext(ctx, singular, plural, num), variables)

    return {"gettext": gettext, "ngettext": ngettext, "pgettext": pgettext,
            "npgettext": npgettext}


def _install(env: Environment, lang: str) -> Environment:
    # installed as they are (newstyle=False): the callables above already do what Jinja's
    # newstyle wrappers do, and the templates use no {% trans %} block
    env.install_gettext_callables(  # type: ignore[attr-defined]
        newstyle=False, **_gettext_callables(lang))
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
    env.filters["weekday"] = lambda day: weekday_name(day, lang)
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
