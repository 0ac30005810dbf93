"""Command keywords per language (``command_words.json``), folded for matching."""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from rapidfuzz import fuzz, process

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
    power_words: dict[str, str]

    def keyword(self, verb: Verb, lang: str) -> str:
        return self.raw["commands"][verb.value][lang][0]

    def option_keyword(self, key: str, lang: str) -> str:
        return option(key).keyword(lang)

    def power_name(self, power: str, lang: str) -> str:
        return self.raw["power_names"].get(lang, self.raw["power_names"]["en"]).get(power, power)


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
    power_words = {fold(w): p for p, words in raw["powers"].items() for w in words}
    return CommandWords(raw, phrases, max(len(p) for p in phrases), power_words)


def parse_power(word: str, allow_gm: bool = False) -> str | None:
    power = lexicon().power_words.get(fold(word).strip(".,;:"))
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
