"""Game option lines (CREATE or a GM session): keyword + value, values checked for shape."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from typing import Any

from judge.adjudicator.phase import Phase
from judge.parsing.commands_lexicon import fold, lexicon
from judge.parsing.commands_types import Command, Malformed, Problem, Verb

# the house rules' waits a GM may set by mail (README: ONP, two strikes), in hours
DURATION_OPTIONS = frozenset({"replacement_wait", "replacement_grace", "sommossa_vote"})
# four weeks of waiting at most: longer, and the game is as good as stopped
MAX_DURATION_HOURS = 24 * 28


def duration_hours(word: str) -> int | None:
    """``72``, ``72h``: hours; ``3d``, ``3g``, ``3j``: days (English, Italian, French)."""
    match = re.fullmatch(r"(\d{1,4})([hdgj]?)", word.lower())
    if match is None:
        return None
    hours = int(match.group(1)) * (24 if match.group(2) in ("d", "g", "j") else 1)
    return hours if 1 <= hours <= MAX_DURATION_HOURS else None


def grey_words() -> frozenset[str]:
    return frozenset(fold(w) for w in lexicon().raw["values"]["grey"])


def value_of(kind: str, word: str) -> str | None:
    folded = fold(word)
    for canonical, words in lexicon().raw["values"][kind].items():
        if folded in (fold(w) for w in words):
            return canonical
    return None


def option_line(key: str, rest: list[str], lineno: int, text: str, lang: str) -> Command | Malformed:
    base = Command(Verb.OPTION, lineno, text, lang, option=key)

    def bad(detail: str = "") -> Malformed:
        return Malformed(lineno, text, Verb.OPTION, Problem.BAD_VALUE, detail or " ".join(rest))

    if key in ("blind", "gm_reads_press"):
        if not rest:
            return replace(base, setting=True)
        flag = value_of("bool", rest[0])
        return bad() if flag is None or len(rest) > 1 else replace(base, setting=flag == "true")
    if not rest:
        return Malformed(lineno, text, Verb.OPTION, Problem.MISSING_ARGUMENT)
    if key in ("language", "press", "assignment", "rules", "scoring"):
        value = value_of(key, rest[0])
        return bad() if value is None or len(rest) > 1 else replace(base, setting=value)
    if key in DURATION_OPTIONS:
        hours = duration_hours(rest[0]) if len(rest) == 1 else None
        return bad() if hours is None else replace(base, setting=hours)
    if key == "timezone":
        return bad() if len(rest) > 1 else replace(base, setting=rest[0])
    if key == "variant":
        # the service checks the name against the installed variants (``judge variants``)
        return bad() if len(rest) > 1 else replace(base, setting=rest[0].lower())
    if key == "late_days":
        if len(rest) > 2 or not all(w.isdigit() for w in rest):
            return bad()
        setting = {"total": int(rest[0])}
        if len(rest) == 2:
            setting["per_turn"] = int(rest[1])
        return replace(base, setting=setting)
    if key == "deadlines_hours":
        return _deadlines(base, rest, bad)
    if key == "end":
        word = rest[0]
        if len(rest) > 1:
            return bad()
        if word.isdigit():
            return replace(base, setting={"centres": int(word)})
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", word):
            # a real calendar date (not 2025-02-30, not 0000-00-00), or the game would
            # later fail on it at every turn
            try:
                date.fromisoformat(word)
            except ValueError:
                return bad()
            return replace(base, setting={"on": word})
        try:
            return replace(base, setting={"after": str(Phase.parse(word))})
        except ValueError:
            return bad()
    raise AssertionError(f"option without a grammar: {key}")  # pragma: no cover


def _deadlines(base: Command, rest: list[str], bad: Any) -> Command | Malformed:
    """``M=72 R=24 A=24``, ``M 72 R 24``, or three bare numbers in M R A order."""
    words = " ".join(rest).replace("=", " ").split()
    hours: dict[str, int] = {}
    if all(w.isdigit() for w in words) and 1 <= len(words) <= 3:
        hours = dict(zip("MRA", (int(w) for w in words), strict=False))
    else:
        if len(words) % 2:
            return bad()
        for kind, amount in zip(words[::2], words[1::2], strict=True):
            k = fold(kind)[:1]
            if k not in "MRA" or not amount.isdigit():
                return bad()
            hours[k] = int(amount)
    if not hours or any(h <= 0 for h in hours.values()):
        return bad()
    return replace(base, setting=hours)
