"""One lexicon per language: the words for orders, units, coasts, powers and provinces.

The powers' names come from the variant (its map's ``"powers"``).
The province names and codes come from the map data (``judge/variants/<map>/map.json``, names
per language, and its ``"words"``: extra spellings, dropped abbreviations, display names); the
order words and per-language choices come from ``data/lexicon_<lang>.json``. A language may fall back on another one's province words (French
and Italian players also write the standard English codes), but its own words always win: that
is how ``MAR`` is Marseilles in English and Italian and North Africa in the old French table.

Every game reads all three notations (club games mix Italian, French and English writers). A
word of another language is read wherever it is unambiguous: order words that are nobody's
province, and province words on whose meaning every language that has them agrees. A word the
languages disagree on is read in the game's own language when it has it (and ``conflicts``
keeps the other meanings, so the reply can say how it was read); a standard English code
(``TYR``) keeps its canonical meaning; any other such word (``LIV`` in an English game:
Liverpool in French, Livonia in Italian) is refused as ambiguous (``ambiguous``).
Unique beginnings of province names (``Boem``, ``Mona``, ``Sebas``) are read too.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

from judge.adjudicator.catalog import map_words
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.geography import Board
from judge.parsing.text import phrase_tokens, tokenize

LANGS: tuple[str, ...] = ("en", "fr", "it")

# categories of phrases the grammar asks for
PROVINCE = "province"
POWER = "power"
COAST = "coast"
FILLER = "filler"
CONJUNCTION = "conjunction"
KEYWORDS = (
    "hold", "move", "support", "convoy", "via", "retreat", "disband", "build", "remove", "waive",
    "army", "fleet",
)  # fmt: skip

# map-data abbreviations are sometimes followed by source remarks; only real codes are kept
_CODE = re.compile(r"^[A-Za-z]{2,4}$")
# WC: imported maps split coasts to the west too (Youngstown's Jordan, JOR/WC)
_COAST_DIRECTION = {"NC": "N", "SC": "S", "EC": "E", "WC": "W"}


class Match(NamedTuple):
    category: str
    value: str
    end: int  # index of the first token after the phrase


@dataclass
class Lexicon:
    lang: str
    # first token -> [(phrase tokens, category, value)], longest phrases first
    phrases: dict[str, list[tuple[tuple[str, ...], str, str]]] = field(default_factory=dict)
    # the same, split for speed: one-word phrases by word, longer ones by their first word
    single: dict[str, dict[str, str]] = field(default_factory=dict)
    multi: dict[str, list[tuple[tuple[str, ...], str, str]]] = field(default_factory=dict)
    first_words: dict[str, set[str]] = field(default_factory=dict)  # category -> first words
    vocabulary: set[str] = field(default_factory=set)
    province_words: set[str] = field(default_factory=set)
    single_provinces: set[str] = field(default_factory=set)
    # alias text (folded) -> province code, for "did you mean"
    aliases: dict[str, str] = field(default_factory=dict)
    display: dict[str, str] = field(default_factory=dict)
    abbreviations: dict[str, str] = field(default_factory=dict)
    support_needs_hold_word: bool = False
    # a province word read in this language that other languages give another meaning:
    # folded word -> {language: code}; and words refused because only foreign languages
    # have them and they disagree
    conflicts: dict[str, dict[str, str]] = field(default_factory=dict)
    ambiguous: dict[str, dict[str, str]] = field(default_factory=dict)
    coast_by_direction: dict[str, dict[str, str]] = field(default_factory=dict)

    def add(self, tokens: tuple[str, ...], category: str, value: str) -> None:
        if not tokens:
            return
        entries = self.phrases.setdefault(tokens[0], [])
        if any(t == tokens and c == category for t, c, _ in entries):
            return  # the first meaning given wins (own language before fallback)
        entries.append((tokens, category, value))
        entries.sort(key=lambda e: -len(e[0]))
        if len(tokens) == 1:
            self.single.setdefault(tokens[0], {}).setdefault(category, value)
        else:
            self.multi.setdefault(tokens[0], []).append((tokens, category, value))
            self.multi[tokens[0]].sort(key=lambda e: -len(e[0]))
        self.first_words.setdefault(category, set()).add(tokens[0])
        self.vocabulary.update(tokens)
        if category == PROVINCE:
            self.province_words.add(" ".join(tokens))
            if len(tokens) == 1:
                self.single_provinces.add(tokens[0])

    def match(self, tokens: tuple[str, ...], i: int, categories: frozenset[str]) -> Match | None:
        """Longest phrase of one of ``categories`` starting at ``tokens[i]``.

        Hyphens between the words of a phrase are skipped, so "Mid-Atlantic" and "Pays-Bas"
        match names stored as separate words.
        """
        if i >= len(tokens):
            return None
        first = tokens[i]
        multi = self.multi.get(first)
        for phrase, category, value in multi or ():
            if category not in categories:
                continue
            j = i + 1
            ok = True
            for word in phrase[1:]:
                if j < len(tokens) and tokens[j] == "-" and word != "-":
                    j += 1
                if j >= len(tokens) or tokens[j] != word:
                    ok = False
                    break
                j += 1
            if ok:
                return Match(category, value, j)
        meanings = self.single.get(first)
        if meanings:
            for category, value in meanings.items():
                if category in categories:
                    return Match(category, value, i + 1)
        return None

    def coast(self, province: str, direction: str) -> str | None:
        """The coast of ``province`` that a word meaning north/south/east names, if any."""
        return self.coast_by_direction.get(province, {}).get(direction)

    def name(self, code: str) -> str:
        return self.display.get(code, code)

    def short(self, code: str) -> str:
        """The code a player of this language writes for ``code`` (``MAR`` -> ``TOU`` in French)."""
        return self.abbreviations.get(code, code)


def _read_json(name: str) -> dict[str, Any]:
    return json.loads(resources.files("judge.parsing").joinpath(f"data/{name}").read_text("utf-8"))


def _province_phrases(board: Board, lang: str, spec: dict[str, Any]) -> list[tuple[str, str]]:
    """(alias text, code) pairs for ``lang``, own codes first, then names, then extras."""
    drop = {code: {a.lower() for a in words} for code, words in spec["provinces_drop"].items()}
    out: list[tuple[str, str]] = []
    provinces = board.provinces
    if spec["use_codes"]:
        out.extend((code, code) for code in provinces)
    for code, prov in provinces.items():
        names = prov.names.get(lang, {})
        for abbr in names.get("abbr", []):
            if not _CODE.match(abbr):
                break  # the map data's source remarks follow the codes: "(diplomail table; ..."
            if abbr.lower() not in drop.get(code, set()):
                out.append((abbr, code))
    for code, prov in provinces.items():
        names = prov.names.get(lang, {})
        if names.get("name"):
            out.append((names["name"], code))
        out.extend((other, code) for other in names.get("other_names", []))
    for code, extras in spec["provinces_extra"].items():
        if code in provinces:  # a variant's map may not have every standard province
            out.extend((extra, code) for extra in extras)
    return out


def _province_meanings(
    board: Board, specs: dict[str, dict[str, Any]]
) -> dict[tuple[str, ...], dict[str, str]]:
    """Province phrase tokens -> {language: code}, each language's first meaning."""
    meanings: dict[tuple[str, ...], dict[str, str]] = {}
    for lang, spec in specs.items():
        for alias, code in _province_phrases(board, lang, spec):
            tokens = phrase_tokens(alias)
            if tokens:
                meanings.setdefault(tokens, {}).setdefault(lang, code)
    return meanings


def _name_prefixes(
    board: Board, meanings: dict[tuple[str, ...], dict[str, str]]
) -> dict[str, str]:
    """Unique beginnings (3 letters or more) of one-word province names: ``boem`` -> BOH."""
    found: dict[str, set[str]] = {}
    for tokens, by_lang in meanings.items():
        if len(tokens) != 1 or len(tokens[0]) < 5:
            continue
        for code in by_lang.values():
            for size in range(3, len(tokens[0])):
                found.setdefault(tokens[0][:size], set()).add(code)
    # a beginning shared by names of several provinces (ser-bia, ser-bie, but also sev-...)
    # reads nothing; nor does one that is itself a word of some language
    return {
        prefix: next(iter(codes))
        for prefix, codes in found.items()
        if len(codes) == 1 and (prefix,) not in meanings and prefix.isalpha()
    }


def _coast_table(board: Board, spec: dict[str, Any]) -> dict[str, dict[str, str]]:
    table: dict[str, dict[str, str]] = {}
    for code, prov in board.provinces.items():
        for coast in prov.coasts:
            suffix = coast.split("/", 1)[1]
            table.setdefault(code, {})[_COAST_DIRECTION[suffix]] = suffix
    for code, extra in spec.get("coast_aliases", {}).items():
        if code in board.provinces:
            table.setdefault(code, {}).update(extra)
    return table


def _words(spec: dict[str, Any]) -> list[tuple[tuple[str, ...], str, str]]:
    """The order words, fillers, conjunctions and coast words of one language's table."""
    out = [
        (tokenize(word), category, category)
        for category, words in spec["keywords"].items()
        for word in words
    ]
    out.extend((tokenize(word), FILLER, FILLER) for word in spec["fillers"])
    out.extend((tokenize(word), CONJUNCTION, CONJUNCTION) for word in spec["conjunctions"])
    out.extend((tokenize(word), COAST, direction) for word, direction in spec["coasts"].items())
    return out


@cache
def lexicon(lang: str, variant: str) -> Lexicon:
    """The lexicon of ``lang`` (``en``, ``fr`` or ``it``) over the provinces of ``variant``'s
    map (a position names its variant), built once per pair."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(LANGS)}")
    board = installed_variant(variant).board
    words, coast_aliases = map_words(board.name)
    # a language's table: its order words, and the map's words for its provinces
    specs = {
        name: {
            **_read_json(f"lexicon_{name}.json"),
            "provinces_extra": words.get(name, {}).get("aliases", {}),
            "provinces_drop": words.get(name, {}).get("drop", {}),
            "display": words.get(name, {}).get("display", {}),
        }
        for name in LANGS
    }
    spec = specs[lang]
    common = {"coast_aliases": coast_aliases}
    lex = Lexicon(lang=lang, support_needs_hold_word=spec["support_needs_hold_word"])
    lex.coast_by_direction = _coast_table(board, common)
    meanings = _province_meanings(board, specs)
    order = [lang, *spec["fallback"]]
    # own words first (they win); another language's word only where it names no province
    for source in order:
        for tokens, category, value in _words(specs[source]):
            if source == lang or tokens not in meanings:
                lex.add(tokens, category, value)
    # the powers' words are the variant's (its map's "powers": names, adjectives, spellings)
    the_variant = installed_variant(variant)
    for source in order:
        for power in the_variant.powers:
            for word in the_variant.power(power).words(source):
                lex.add(phrase_tokens(word), POWER, power)
    canonical = {code.lower(): code for code in board.provinces}
    for source in order:
        for alias, code in _province_phrases(board, source, specs[source]):
            tokens = phrase_tokens(alias)
            if not tokens:
                continue
            by_lang = meanings[tokens]
            if source != lang and len(set(by_lang.values())) > 1 and lang not in by_lang:
                word = " ".join(tokens)
                if canonical.get(word) is None:
                    lex.ambiguous[word] = dict(by_lang)
                    continue
                code = canonical[word]  # a standard English code keeps its meaning
            chosen = by_lang.get(lang, code)
            if source != lang and chosen != code:
                continue
            others = {other: c for other, c in by_lang.items() if c != chosen}
            # a standard code read as itself (MAR as Marseilles) needs no remark: it is the
            # judge's own notation; MAR read as North Africa in a French game does
            if others and canonical.get(" ".join(tokens)) != chosen:
                lex.conflicts[" ".join(tokens)] = others
            lex.add(tokens, PROVINCE, chosen)
            lex.aliases.setdefault(" ".join(tokens), chosen)
    for prefix, code in _name_prefixes(board, meanings).items():
        if prefix not in lex.vocabulary:
            lex.add((prefix,), PROVINCE, code)
    for code, prov in board.provinces.items():
        names = prov.names.get(lang, {})
        lex.display[code] = spec["display"].get(code) or names.get("name") or code
        codes = [a for a in names.get("abbr", []) if _CODE.match(a)]
        lex.abbreviations[code] = codes[0] if codes else code
    return lex
