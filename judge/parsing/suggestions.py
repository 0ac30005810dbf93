"""Suggestions ("did you mean"): the provinces whose names or codes look most like an unknown word."""

from __future__ import annotations

from rapidfuzz import fuzz, process

from judge.parsing.lexicon import Lexicon

_LIMIT = 3
_CUTOFF = 60.0


def suggest(word: str, lex: Lexicon) -> list[str]:
    """Up to three province codes, best first, for ``word`` (already folded to lower case)."""
    if not word:
        return []
    choices = list(lex.aliases)
    # WRatio favours long names containing the word; plain ratio judges short codes fairly
    scorer = fuzz.ratio if len(word) <= 4 else fuzz.WRatio
    found = process.extract(word, choices, scorer=scorer, limit=12, score_cutoff=_CUTOFF)
    codes: list[str] = []
    for alias, _score, _index in found:
        code = lex.aliases[alias]
        if code not in codes:
            codes.append(code)
        if len(codes) == _LIMIT:
            break
    return codes
