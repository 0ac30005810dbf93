"""Command keywords per language (``command_words.json``), folded for matching.

Power words are not here: they are the variants' (``map.json``'s ``"powers"``: names in every
language and abbreviations). A command is read before its game is known (``SIGNON FRANCE game``
names the game after the power), so a command's power word is looked up in every installed
variant, the standard map's meaning first; the service then checks the power is the game's.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from rapidfuzz import fuzz, process

from judge.adjudicator.catalog import DEFAULT_VARIANT, variant_names
from judge.adjudicator.catalog import variant as installed_variant
from judge.parsing.commands_types import GM, LANGS, Verb
from judge.rules.option_registry import OPTIONS, option


def fold(text: str) -> str:
    """Upper case without accents: ``Régler`` -> ``REGLER``."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).upper()


@dataclass(frozen=True)
class CommandWords:
    raw: dict[str, Any]
    # folded phrase (tuple of words) -> (verb or option key, language)
    phrases: dict[tuple[str, ...], tuple[str, str]]
    longest: int

    def keyword(self, verb: Verb, lang: str) -> str:
        return self.raw["commands"][verb.value][lang][0]

    def option_keyword(self, key: str, lang: str) -> str:
        return option(key).keyword(lang)

    def power_name(self, power: str, lang: str, variant: str | None = None) -> str:
        """The power's name (or the GM's) in ``lang``, on the map of ``variant``; without a
        variant (a text that knows none), on the first installed variant's that has it."""
        if power == GM:
            return str(self.raw["gm_names"].get(lang, self.raw["gm_names"]["en"]))
        return installed_variant(variant or variant_with(power)).power_name(power, lang)


def variant_with(power: str) -> str:
    """The first installed variant (the standard one first) whose map has ``power``."""
    return _variant_with(power, variant_names())


@cache
def _variant_with(power: str, names: tuple[str, ...]) -> str:
    for name in (DEFAULT_VARIANT, *names):
        if power in installed_variant(name).powers:
            return name
    return DEFAULT_VARIANT


@cache
def lexicon() -> CommandWords:
    raw = json.loads(resources.files("judge.parsing").joinpath("command_words.json").read_text(
        encoding="utf-8"))
    phrases: dict[tuple[str, ...], tuple[str, str]] = {}
    for key, info in raw["commands"].items():
        for lang in LANGS:
            for phrase in info[lang]:
                phrases.setdefault(tuple(fold(phrase).split()), (key, lang))
    # the game options' keywords come from the option registry (judge.rules.option_registry)
    for spec in OPTIONS:
        for lang in LANGS:
            for phrase in spec.words[lang]:
                phrases.setdefault(tuple(fold(phrase).split()), (f"option:{spec.key}", lang))
    return CommandWords(raw, phrases, max(len(p) for p in phrases))


@cache
def power_words(variants: tuple[str, ...]) -> dict[str, str]:
    """Folded word -> power code, from the names (every language) and abbreviations of the
    powers of ``variants``, the first variant's meaning first; the GM's words before all."""
    words = {fold(w): GM for w in lexicon().raw["gm"]}
    for name in variants:
        v = installed_variant(name)
        for code in v.powers:
            info = v.power(code)
            for word in (*info.names.values(), *info.abbreviations):
                words.setdefault(fold(word), code)
    return words


def parse_power(word: str, allow_gm: bool = False, variant: str | None = None) -> str | None:
    """The power ``word`` names: in ``variant`` when the game is known, else in any installed
    variant (the standard map's meaning first)."""
    variants = (variant,) if variant else (DEFAULT_VARIANT, *variant_names())
    power = power_words(variants).get(fold(word).strip(".,;:"))
    if power == GM and not allow_gm:
        return None
    return power


def closest_command(text: str) -> Verb | None:
    """The command a mistyped line most likely meant (rapidfuzz), or None when nothing is close."""
    words = fold(text).split()
    if not words:
        return None
    lex = lexicon()
    choices = {" ".join(p): name for p, name_lang in lex.phrases.items()
               for name in [name_lang[0]] if not name.startswith("option:")}
    probe = " ".join(words[:2])
    best = process.extractOne(words[0], list(choices), scorer=fuzz.ratio, score_cutoff=70)
    two = process.extractOne(probe, list(choices), scorer=fuzz.ratio, score_cutoff=75)
    if two and (not best or two[1] > best[1]):
        best = two
    return Verb(choices[best[0]]) if best else None
