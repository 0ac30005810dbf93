"""Reply texts: Jinja2 templates in ``judge/templates/replies/<lang>/`` (StrictUndefined).

``messages.j2`` holds one macro per outcome or refusal (named after the enum value), so a
reply is a list of ``(key, params)`` rendered once the reply's language is known.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined

from judge.parsing.commands import lexicon

LANGUAGES = ("en", "it", "fr")


def _power_filter(lang: str) -> Any:
    def name(power: str) -> str:
        return lexicon().power_name(str(power), lang)
    return name


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("judge", "templates"),
        undefined=StrictUndefined,
        autoescape=False,  # plain-text mail
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # templates ship with the code: no stat() of the file on every get_template
        auto_reload=False,
    )
    env.filters["power_en"] = _power_filter("en")
    env.filters["power_it"] = _power_filter("it")
    env.filters["power_fr"] = _power_filter("fr")
    env.filters["powers_en"] = lambda ps: ", ".join(_power_filter("en")(p) for p in ps)
    env.filters["powers_it"] = lambda ps: ", ".join(_power_filter("it")(p) for p in ps)
    env.filters["powers_fr"] = lambda ps: ", ".join(_power_filter("fr")(p) for p in ps)
    env.filters["powers_art_fr"] = lambda ps: ", ".join(
        with_article_fr(_power_filter("fr")(p)) for p in ps)
    return env


def with_article_fr(name: str) -> str:
    """The seven powers' French names are all feminine: "la France", "l'Allemagne"."""
    return f"l'{name}" if name[:1].lower() in "aeiouyéèêh" else f"la {name}"


def check_lang(lang: str | None) -> str:
    return lang if lang in LANGUAGES else "en"


def message(lang: str, key: str, **params: Any) -> str:
    module = environment().get_template(f"replies/{check_lang(lang)}/messages.j2").module
    macro = getattr(module, key, None)
    if macro is None:
        raise KeyError(f"no message {key!r} in replies/{lang}/messages.j2")
    return str(macro(**params)).strip("\n")


def page(lang: str, name: str, **params: Any) -> str:
    template = environment().get_template(f"replies/{check_lang(lang)}/{name}.txt.j2")
    return template.render(**params)


def has_message(lang: str, key: str) -> bool:
    module = environment().get_template(f"replies/{check_lang(lang)}/messages.j2").module
    return hasattr(module, key)
