"""Game option lines (CREATE or a GM session): keyword + value, values checked for shape."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from typing import Any

from judge.adjudicator.phase import Phase
from judge.parsing.commands_lexicon import fold, lexicon, parse_power
from judge.parsing.commands_types import Command, Malformed, Problem, Verb
from judge.rules.option_registry import BOOL_WORDS, WEEKDAY_WORDS, OptionType, option

# days off are a short list: a week's names and a club's holidays, never a calendar
MAX_DAYS_OFF = 60
MAX_REMINDERS = 4  # reminders before one deadline


def grey_words() -> frozenset[str]:
    return frozenset(fold(w) for w in lexicon().raw["values"]["grey"])


def value_of(key: str, word: str) -> str | None:
    """The canonical value a word names for a CHOICE option (``bool`` for yes/no)."""
    folded = fold(word)
    choices = BOOL_WORDS if key == "bool" else option(key).choices
    for canonical, words in choices.items():
        if folded in (fold(w) for w in words):
            return canonical
    return None


def option_line(key: str, rest: list[str], lineno: int, text: str, lang: str) -> Command | Malformed:
    """One option line, read by the type its registry entry declares."""
    base = Command(Verb.OPTION, lineno, text, lang, option=key)
    spec = option(key)

    def bad(detail: str = "") -> Malformed:
        return Malformed(lineno, text, Verb.OPTION, Problem.BAD_VALUE, detail or " ".join(rest))

    if spec.type is OptionType.COMPUTER:
        # BOTS [yes|no|power]: the computer takes the seats nobody joined for (issue 14)
        if not rest:
            return replace(base, setting={"power": None})
        if len(rest) > 1:
            return bad()
        flag = value_of("bool", rest[0])
        if flag is not None:
            return replace(base, setting={"power": None} if flag == "true" else False)
        power = parse_power(rest[0])
        return bad() if power is None else replace(base, setting={"power": power})
    if spec.type is OptionType.FLAG:
        if not rest:
            return replace(base, setting=True)
        flag = value_of("bool", rest[0])
        return bad() if flag is None or len(rest) > 1 else replace(base, setting=flag == "true")
    if not rest:
        return Malformed(lineno, text, Verb.OPTION, Problem.MISSING_ARGUMENT)
    if spec.type is OptionType.CHOICE:
        value = value_of(key, rest[0])
        return bad() if value is None or len(rest) > 1 else replace(base, setting=value)
    if spec.type is OptionType.TEXT:
        return bad() if len(rest) > 1 else replace(base, setting=rest[0])
    if spec.type is OptionType.NAME:
        # the service checks the name against what is installed (``judge variants``)
        return bad() if len(rest) > 1 else replace(base, setting=rest[0].lower())
    if spec.type is OptionType.NUMBER:
        if len(rest) > 1 or not rest[0].isdigit() or not spec.low <= int(rest[0]) <= spec.high:
            return bad()
        return replace(base, setting=int(rest[0]))
    if spec.type is OptionType.LATE_DAYS:
        if len(rest) > 2 or not all(w.isdigit() for w in rest):
            return bad()
        setting = {"total": int(rest[0])}
        if len(rest) == 2:
            setting["per_turn"] = int(rest[1])
        return replace(base, setting=setting)
    if spec.type is OptionType.DEADLINES:
        return _deadlines(base, rest, bad)
    if spec.type is OptionType.ENDING:
        return _ending(base, rest, bad)
    if spec.type is OptionType.CLOCK:
        return _clock(base, rest, bad)
    if spec.type is OptionType.DAYS_OFF:
        return _days_off(base, rest, bad)
    if spec.type is OptionType.HOURS_LIST:
        return _hours_list(spec.low, spec.high, base, rest, bad)
    if spec.type is OptionType.LIMITS:
        return _limits(spec.high, base, rest, bad)
    if spec.type is OptionType.ABSENCES:
        return _absence_limit(spec.high, base, rest, bad)
    raise AssertionError(f"option type without a grammar: {spec.type}")  # pragma: no cover


def _ending(base: Command, rest: list[str], bad: Any) -> Command | Malformed:
    """``18`` centres, a date ``2025-06-30`` or a phase ``F1910M``."""
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


def clock_time(word: str) -> str | None:
    """``21:00``, ``9:30`` or ``2100`` -> ``"21:00"``; None when it is no time of day."""
    m = re.fullmatch(r"(\d{1,2})[:.h]?(\d{2})", word.strip().lower())
    if m is None or int(m[1]) > 23 or int(m[2]) > 59:
        return None
    return f"{int(m[1]):02d}:{m[2]}"


def _clock(base: Command, rest: list[str], bad: Any) -> Command | Malformed:
    """``21:00`` (every kind of phase), ``M=21:00 R=12:00 A=12:00`` or ``no`` (no clock)."""
    if len(rest) == 1 and value_of("bool", rest[0]) == "false":
        return replace(base, setting={})
    if len(rest) == 1 and "=" not in rest[0]:
        when = clock_time(rest[0])
        return bad() if when is None else replace(base, setting=dict.fromkeys("MRA", when))
    words = " ".join(rest).replace("=", " ").split()
    if len(words) % 2 or len(words) > 6:
        return bad()
    clock: dict[str, str] = {}
    for kind, word in zip(words[::2], words[1::2], strict=True):
        k, when = fold(kind)[:1], clock_time(word)
        if k not in "MRA" or when is None:
            return bad()
        clock[k] = when
    return replace(base, setting=clock)


def _days_off(base: Command, rest: list[str], bad: Any) -> Command | Malformed:
    """Weekday names in any of the three languages and dates ``2027-12-25``; ``no`` clears."""
    if len(rest) == 1 and value_of("bool", rest[0]) == "false":
        return replace(base, setting=[])
    words = " ".join(rest).replace(",", " ").split()
    if len(words) > MAX_DAYS_OFF:
        return bad()
    days: list[str] = []
    for word in words:
        folded = fold(word)
        day = next((d for d, names in WEEKDAY_WORDS.items() if folded in names), None)
        if day is None and re.fullmatch(r"\d{4}-\d{2}-\d{2}", word):
            try:
                day = date.fromisoformat(word).isoformat()
            except ValueError:
                return bad(word)
        if day is None:
            return bad(word)
        if day not in days:
            days.append(day)
    return replace(base, setting=days)


def _hours_list(low: int, high: int, base: Command, rest: list[str], bad: Any,
                ) -> Command | Malformed:
    """``24 2`` (hours, any order; stored largest first) or ``no`` (none)."""
    if len(rest) == 1 and value_of("bool", rest[0]) == "false":
        return replace(base, setting=[])
    words = " ".join(rest).replace(",", " ").split()
    if not 1 <= len(words) <= MAX_REMINDERS or not all(w.isdigit() for w in words):
        return bad()
    hours = sorted({int(w) for w in words}, reverse=True)
    if not all(low <= h <= high for h in hours):
        return bad()
    return replace(base, setting=hours)


def _limits(high: int, base: Command, rest: list[str], bad: Any) -> Command | Malformed:
    """``48 168``: hours per phase and per game; ``48``: per phase only; ``no``: no cap."""
    if len(rest) == 1 and value_of("bool", rest[0]) == "false":
        return replace(base, setting={})
    if not 1 <= len(rest) <= 2 or not all(w.isdigit() and int(w) <= high for w in rest):
        return bad()
    return replace(base, setting=dict(zip(("phase", "game"), (int(w) for w in rest),
                                          strict=False)))


def _absence_limit(high: int, base: Command, rest: list[str], bad: Any) -> Command | Malformed:
    """``14 28``: days one absence may last and days away in the whole game; ``14``: the
    game's total is the same; ``no``: no absence allowed."""
    if len(rest) == 1 and value_of("bool", rest[0]) == "false":
        return replace(base, setting={"each": 0, "game": 0})
    if not 1 <= len(rest) <= 2 or not all(w.isdigit() and int(w) <= high for w in rest):
        return bad()
    each = int(rest[0])
    return replace(base, setting={"each": each, "game": int(rest[-1]) if len(rest) == 2 else each})
