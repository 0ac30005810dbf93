"""Turning a raw order line into lower-case, accent-free tokens.

Players type on phones and old keyboards: accents come and go, dashes arrive as en dashes, em
dashes or arrows, and several orders share a line. Everything the grammar sees goes through
:func:`tokenize`, and the lexicon normalises its own phrases with the same function, so the
two always agree.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# move signs that are not a plain hyphen; "=>"/"->" must be replaced before "=" and ">" are read
_ARROWS = re.compile(r"=>|->|-->|→|⟶|⇒|–|—|−|‐|‑|‒|―|>")
# "St. Petersburg", "S. Pietroburgo": the dot is not the end of an order
_ABBREV_DOT = re.compile(r"\b(st|s|ste)\.\s*")
# "n.c." / "s.c." / "e.c." coasts
_DOTTED_COAST = re.compile(r"\b([nse])\.\s?c\.?")
_TOKEN = re.compile(r"[a-z0-9]+|[-=:+()/,;.!?]")
SEPARATORS = frozenset({",", ";", "."})
IGNORED_PUNCTUATION = frozenset({"!", "?"})


def fold(text: str) -> str:
    """Lower case, accents removed, typographic apostrophes and dashes made plain."""
    if text.isascii():
        stripped = text
    else:
        decomposed = unicodedata.normalize("NFKD", text)
        stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    stripped = stripped.replace("ß", "ss").replace("’", " ").replace("'", " ").replace("`", " ")
    stripped = stripped.replace("&", " ")
    return stripped.lower()


@lru_cache(maxsize=4096)
def tokenize(text: str) -> tuple[str, ...]:
    """Tokens of ``text``: words, and the signs ``- = : + ( ) / , ; . ! ?``."""
    folded = fold(text)
    folded = _ARROWS.sub(" - ", folded)
    if "." in folded:
        folded = _ABBREV_DOT.sub(r"\1 ", folded)
        folded = _DOTTED_COAST.sub(r"\1c", folded)
    return tuple(_TOKEN.findall(folded))


def phrase_tokens(text: str) -> tuple[str, ...]:
    """Tokens of a lexicon phrase; hyphens inside names are dropped (matching skips them)."""
    return tuple(t for t in tokenize(text) if t not in ("-", ".", "(", ")"))


_RAW_ABBREV_DOT = re.compile(r"\b(st|s|ste)\.\s*", re.IGNORECASE)
_RAW_DOTTED_COAST = re.compile(r"\b([nse])\.\s?c\.?", re.IGNORECASE)
_RAW_SEPARATOR = re.compile(r"[,;]|\.(?=\s|$)")


def split_raw(line: str) -> list[str]:
    """The pieces of a line between ``,`` ``;`` and full stops, as the player wrote them."""
    if "." in line:
        line = _RAW_ABBREV_DOT.sub(r"\1 ", line)
        line = _RAW_DOTTED_COAST.sub(r"\1c", line)
    return [piece.strip() for piece in _RAW_SEPARATOR.split(line) if piece.strip()]
