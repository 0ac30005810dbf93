"""The judge's message catalogs: every sentence a player reads, in English, Italian and French.

Prose lives in gettext catalogs, ``judge/locale/<lang>/LC_MESSAGES/judge.po`` (template:
``judge/locale/judge.pot``), extracted with ``pybabel extract -F babel.cfg`` from
the templates and from the Python code that marks its strings with :func:`tr`, :func:`trn` or
:data:`N_`. The tables that are data rather than prose (order words, command words, province
names and codes) stay in their JSON files.

The catalogs are read from the ``.po`` files with Babel when first used, not from compiled
``.mo`` files: the ``.po`` is then the only copy (no stale ``.mo`` can disagree with it), an
editable install and the wheel read the same file, and no build step has to run before the
tests. Reading three catalogs takes a few milliseconds, once per process.

This module is a leaf: the pure core (parsing's refusal texts) may use it, so it imports
nothing of the judge and no I/O library; it reads package data only.
"""

from __future__ import annotations

import re
from functools import cache
from gettext import GNUTranslations, NullTranslations
from importlib import resources
from io import BytesIO
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGUAGES = ("en", "it", "fr")
DOMAIN = "judge"
# English is the source language: its catalog exists for the plural forms and for a future
# English house style, and an empty msgstr there means "the msgid as written"
SOURCE_LANGUAGE = "en"


def check_lang(lang: str | None) -> str:
    """The language itself when the judge speaks it; English otherwise."""
    return lang if lang in LANGUAGES else SOURCE_LANGUAGE


def po_path(lang: str) -> Any:
    """The catalog of ``lang`` as a package resource (a Traversable)."""
    return resources.files("judge").joinpath(f"locale/{lang}/LC_MESSAGES/{DOMAIN}.po")


def translations(lang: str) -> NullTranslations:
    """The compiled catalog of ``lang``, English for a language the judge does not speak."""
    return _compiled(check_lang(lang))


@cache
def _compiled(lang: str) -> NullTranslations:
    # fuzzy entries left out: an unreviewed translation is not shown to a player (and
    # tests/test_catalogs.py allows none)
    with po_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    compiled = BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return GNUTranslations(compiled)


def N_(message: str) -> str:  # noqa: N802 - the gettext convention pybabel looks for
    """Mark ``message`` for extraction where it is defined; translate it where it is shown."""
    return message


def NC_(context: str, message: str) -> tuple[str, str]:  # noqa: N802 - gettext convention
    """Mark ``message`` in ``context`` for extraction; ``trp(lang, *marked)`` shows it."""
    return context, message


def tr(lang: str, message: str, **params: Any) -> str:
    """``message`` in ``lang``, with ``%(name)s`` placeholders filled from ``params``."""
    text = elide(lang, translations(lang).gettext(message), params)
    return text % params if params else text


def trn(lang: str, singular: str, plural: str, count: int, **params: Any) -> str:
    """The form of ``singular``/``plural`` that ``count`` takes in ``lang``; ``%(num)d`` is
    ``count`` (as in Jinja's ``ngettext``)."""
    params.setdefault("num", count)
    return elide(lang, translations(lang).ngettext(singular, plural, count), params) % params


def trp(lang: str, context: str, message: str, **params: Any) -> str:
    """``message`` as meant in ``context`` (one English word, several translations: "none" of
    press is "nessuna", "none" of orders is "nessuno")."""
    text = elide(lang, translations(lang).pgettext(context, message), params)
    return text % params if params else text


# French writes "de" and "que" as "d'" and "qu'" before a word that begins with a vowel:
# "lettre d'Angleterre" but "lettre de France". A translation is written once, with "de
# %(power)s", and the name only arrives when it is filled in, so the elision is decided then,
# from the name itself: no list of names (a variant's powers and provinces come from its map).
_ELIDING = re.compile(r"\b([Dd]e|[Qq]ue) %\((\w+)\)s")
_VOWELS = frozenset("aeiouàâäéèêëîïôöùûüœæ")


def elides(word: str) -> bool:
    """Whether French elides before ``word``: a word (not a code like ``ATL`` or an order like
    ``A PAR``) whose first letter is a vowel. An initial h is taken as aspirated, as in the
    country names that have one (de Hongrie, de Hollande)."""
    return len(word) > 1 and word[0].lower() in _VOWELS and word[1].islower()


def elide(lang: str, text: str, params: Any) -> str:
    """``text`` (a translation, placeholders unfilled) with "de %(x)s" written "d'%(x)s" where
    French elides before the value of ``x`` in ``params``; other languages unchanged."""
    if lang != "fr" or not params:
        return text

    def one(m: re.Match[str]) -> str:
        value = params.get(m[2]) if hasattr(params, "get") else None
        return f"{m[1][:-1]}'%({m[2]})s" if isinstance(value, str) and elides(value) else m[0]

    return _ELIDING.sub(one, text)


_PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def placeholders(text: str) -> set[str]:
    """The named placeholders of a message, for the catalog tests."""
    return set(_PLACEHOLDER.findall(text))
