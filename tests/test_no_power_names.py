"""A power's name or colour is written in its variant's folder and nowhere else (issue 26, point 1):
a new map with new powers is one folder, and no module, template or word table of the judge
knows the standard map's seven.

The words looked for are the standard map's own (``judge/variants/standard/map.json``): every
power code, every name in every language, every colour and tint. They
are looked for as whole words, without regard to case or accents, in
- the string literals of every module of ``judge/`` outside ``judge/variants/`` (a docstring or a
  comment that shows an example in the project's fixed notation is documentation, not data:
  ``SIGNON FRANCE game`` explains a command the same way on every map);
- every data file beside them: templates, the command and order word tables, the message
  catalogs, the play page's static files.
Adjectives and the parsers' other spellings are not looked for: the standard powers'
adjectives, and their feminine forms among the other spellings, are also the names of languages
(English, "notation française", "italiana"), which the judge must be able to write.
"""

from __future__ import annotations

import ast
import json
import re
import unicodedata
from pathlib import Path

JUDGE = Path(__file__).resolve().parents[1] / "judge"
VARIANTS = JUDGE / "variants"
DATA_SUFFIXES = {".json", ".j2", ".html", ".js", ".css", ".txt", ".svg", ".po", ".pot"}

# file (relative to judge/) -> the words it may hold, and why. Keep it short.
ALLOWED: dict[str, set[str]] = {}


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def _forbidden() -> tuple[re.Pattern[str], set[str]]:
    raw = json.loads((VARIANTS / "standard" / "map.json").read_text("utf-8"))
    words: set[str] = set()
    colours: set[str] = set()
    for code, info in raw["powers"].items():
        words.add(code)
        words.update(info["names"].values())
        colours.update((info["colour"].lower(), info["tint"].lower()))
    # two-letter spellings ("uk") are too short to mean a power in a module's text
    folded = sorted({_fold(w) for w in words if len(w) > 2}, key=len, reverse=True)
    pattern = re.compile(r"(?<![a-z0-9_])(" + "|".join(map(re.escape, folded)) + r")(?![a-z0-9_])")
    return pattern, colours


def _docstrings(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _python_texts(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skip = _docstrings(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
    ]


def _data_texts(path: Path) -> list[tuple[int, str]]:
    return list(enumerate(path.read_text(encoding="utf-8").splitlines(), start=1))


def _files() -> list[Path]:
    return sorted(
        p for p in JUDGE.rglob("*")
        if p.is_file() and VARIANTS not in p.parents
        and (p.suffix == ".py" or p.suffix in DATA_SUFFIXES)
    )


def _findings() -> list[str]:
    pattern, colours = _forbidden()
    found: list[str] = []
    for path in _files():
        where = str(path.relative_to(JUDGE))
        texts = _python_texts(path) if path.suffix == ".py" else _data_texts(path)
        allowed = ALLOWED.get(where, set())
        for line, text in texts:
            folded = _fold(text)
            hits = {m.group(1) for m in pattern.finditer(folded)}
            hits |= {c for c in colours if c in folded}
            hits -= allowed
            if hits:
                found.append(f"{where}:{line}: {sorted(hits)}")
    return found


def test_the_scan_sees_the_words_it_looks_for() -> None:
    pattern, colours = _forbidden()
    for word in ("Inghilterra", "AUTRICHE", "turkey", "Allemagne", "Turchia"):
        assert pattern.search(_fold(word)), word
    assert not pattern.search(_fold("English French Italian ENG"))
    assert "#3fa7e0" in colours
    assert len(_files()) > 150


def test_no_power_name_or_colour_is_written_outside_a_variant() -> None:
    assert _findings() == []


def test_the_allow_list_only_names_what_is_still_there() -> None:
    pattern, _ = _forbidden()
    stale = []
    for where, words in ALLOWED.items():
        path = JUDGE / where
        texts = _python_texts(path) if path.suffix == ".py" else _data_texts(path)
        seen = {m.group(1) for _, t in texts for m in pattern.finditer(_fold(t))}
        stale.extend(f"{where}: {w}" for w in words - seen)
    assert stale == []
