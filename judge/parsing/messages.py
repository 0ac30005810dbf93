"""Refusals and notes in the player's language: the English texts of ``message_texts``
translated through the catalogs (judge.i18n)."""

from __future__ import annotations

from typing import Any

from judge.i18n import elide, translations
from judge.parsing import message_texts
from judge.parsing.errors import Note, ParseError
from judge.parsing.lexicon import lexicon
from judge.parsing.suggestions import suggest

# parameters that hold a province or location code and are shown by name
_PLACE_KEYS = frozenset({"province", "target", "location", "army"})


def _text(lang: str, message: str) -> str:
    return translations(lang).gettext(message)


def place_name(code: str, lang: str, *, variant: str) -> str:
    """``SPA/NC`` -> ``Spain/NC`` in English, ``Espagne/NC`` in French (names of ``variant``'s map)."""
    lex = lexicon(lang, variant)
    province, _, coast = code.partition("/")
    name = lex.name(province)
    return f"{name}/{coast}" if coast else name


def render(reason: ParseError | Note, params: dict[str, Any], lang: str, *, variant: str) -> str:
    """The message for ``reason`` in ``lang`` with ``params`` filled in."""
    texts = message_texts.ERRORS if isinstance(reason, ParseError) else message_texts.NOTES
    values: dict[str, Any] = {}
    for key, value in params.items():
        values[key] = place_name(value, lang, variant=variant) if key in _PLACE_KEYS and value else value
    if reason is ParseError.UNKNOWN_PROVINCE:
        values["suggestions"] = _suggestions(str(params.get("word", "")), lang, variant)
    elif reason is ParseError.AMBIGUOUS_PROVINCE:
        ambiguous = lexicon(lang, variant).ambiguous.get(str(params.get("word")), {})
        values.update(_meanings(ambiguous, lang, variant))
        values["word"] = str(params.get("word", "")).upper()
    elif reason is Note.READ_IN_GAME_NOTATION:
        conflicts = lexicon(lang, variant).conflicts.get(str(params.get("word")), {})
        values.update(_meanings(conflicts, lang, variant))
        values["word"] = str(params.get("word", "")).upper()
    return elide(lang, _text(lang, texts[reason.value]), values) % _Defaults(values)


def _suggestions(word: str, lang: str, variant: str) -> str:
    lex = lexicon(lang, variant)
    codes = suggest(word, lex)
    if not codes:
        return ""
    shown = [f"{lex.short(code)} ({lex.name(code)})" for code in codes]
    choices = _text(lang, message_texts.OR).join(shown)
    return _text(lang, message_texts.SUGGESTIONS) % {"choices": choices}


def _meanings(by_lang: dict[str, str], lang: str, variant: str) -> dict[str, str]:
    """What a word means in other notations: "Liverpool in French notation or Livonia..."."""
    notations = {other: _text(lang, text) for other, text in message_texts.NOTATIONS.items()}
    joiner = _text(lang, message_texts.OR)
    meanings = joiner.join(
        f"{place_name(code, lang, variant=variant)} {notations[other]}" for other, code in sorted(by_lang.items())
    )
    others = "; ".join(
        f"{notations[other]}: {place_name(code, lang, variant=variant)}" for other, code in sorted(by_lang.items())
    )
    codes = joiner.join(sorted(set(by_lang.values())))
    return {"meanings": meanings, "others": others, "codes": codes}


class _Defaults(dict[str, Any]):
    """Missing template values show as empty rather than raising."""

    def __missing__(self, key: str) -> str:
        return ""


def describe(order: object, lang: str, *, variant: str) -> str:
    """A canonical order with province names of ``lang`` on ``variant``'s map:
    ``A Paris - Bourgogne``."""
    lex = lexicon(lang, variant)
    words = []
    for word in str(order).split():
        province, _, coast = word.partition("/")
        if len(province) == 3 and province in lex.display:
            name = lex.name(province)
            words.append(f"{name}/{coast}" if coast else name)
        else:
            words.append(word)
    return " ".join(words)


def in_notation(orders: list[str], lang: str, *, variant: str) -> list[str]:
    """Canonical orders with the province codes the game's players write: a French player
    reads ``A TOU - ESP`` (seed 000), never ``A MAR - SPA``, where MAR would be Morocco."""
    if lang == "en":
        return list(orders)
    lex = lexicon(lang, variant)
    out = []
    for order in orders:
        words = []
        for word in order.split():
            province, slash, coast = word.partition("/")
            if len(province) == 3 and province in lex.display:
                province = lex.short(province).upper()
            words.append(f"{province}{slash}{coast}")
        out.append(" ".join(words))
    return out
