"""Reply texts: Jinja2 templates in ``templates/replies/``, written once in English and
translated through the catalogs (judge.i18n, judge.templating); StrictUndefined.

``messages.j2`` holds one macro per outcome or refusal (named after the enum value), so a
reply is a list of ``(key, params)`` rendered once the reply's language is known.
"""

from __future__ import annotations

from typing import Any

from judge.i18n import LANGUAGES, check_lang
from judge.templating import text_environment, with_article_fr

__all__ = ["LANGUAGES", "check_lang", "has_message", "message", "page", "warm", "with_article_fr"]


def _module(lang: str) -> Any:
    return text_environment(check_lang(lang)).get_template("replies/messages.j2").module


def message(lang: str, key: str, **params: Any) -> str:
    macro = getattr(_module(lang), key, None)
    if macro is None:
        raise KeyError(f"no message {key!r} in replies/messages.j2")
    return str(macro(**params)).strip("\n")


def page(lang: str, name: str, **params: Any) -> str:
    template = text_environment(check_lang(lang)).get_template(f"replies/{name}.txt.j2")
    return template.render(**params)


def warm() -> None:
    """Compile the reply templates of every language now (a few hundred ms): done when the
    drain starts, so the first mails' replies are not compiled inside a write transaction
    that holds SQLite's lock while LMTP deliveries wait for it (issue 16)."""
    for lang in LANGUAGES:
        _module(lang)


def has_message(lang: str, key: str) -> bool:
    return hasattr(_module(lang), key)
