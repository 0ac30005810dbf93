"""The command language: cleaned mail body lines -> typed commands (pure, no I/O).

One mail is one session. Commands come one per line, with keywords in English, Italian or
French (``JOIN`` / ``ISCRIVI`` / ``INSCRIRE``), matched without regard to case or accents; the
longest keyword phrase wins, so ``PRESS TO`` beats the option ``PRESS``. ``SIGNOFF`` or a
``-- `` signature ends the session; ``//`` lines are comments. ``PRESS``/``BROADCAST`` open a
block closed by ``ENDPRESS``, ``FOR power`` one closed by ``END``. After a ``SIGNON`` of a
power, lines that are no command are that power's orders (``OrderLine``): the order parser, not
this module, judges them. Elsewhere they are ``NotUnderstood`` with the closest command.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from judge.adjudicator.phase import Phase
from judge.parsing.commands_lexicon import (
    Lexicon,
    closest_command,
    fold,
    lexicon,
    parse_power,
)
from judge.parsing.commands_options import grey_words, option_line
from judge.parsing.commands_types import (
    GM,
    LANGS,
    NO_ARGS,
    POWERS,
    SIGNATURE,
    Command,
    Item,
    Malformed,
    NotUnderstood,
    OrderLine,
    ParsedMail,
    Problem,
    Role,
    Verb,
)

__all__ = [
    "GM", "LANGS", "POWERS", "Command", "Item", "Lexicon", "Malformed", "NotUnderstood",
    "OrderLine", "ParsedMail", "Problem", "Role", "Verb", "closest_command", "fold", "lexicon",
    "parse_mail", "parse_power",
]

# ---------------------------------------------------------------- the session parser

FORCE_WORDS = frozenset({"FORCE", "FORZA", "FORZATO", "FORCER", "FORCEE"})


def parse_mail(lines: list[str] | tuple[str, ...]) -> ParsedMail:
    """Read one mail's cleaned body lines into commands, order lines and complaints."""
    parsed = ParsedMail()
    signed_on_power = False
    block: _Block | None = None
    for lineno, raw_line in enumerate(lines, start=1):
        line = raw_line.rstrip("\r\n")
        if block is not None:
            if _closes(line, block.closer):
                parsed.items.append(block.finish())
                block = None
            else:
                block.body.append(line)
            continue
        stripped = line.strip()
        if line.startswith(SIGNATURE) or line.rstrip() == "--":
            parsed.ended_at = lineno
            break
        if not stripped or stripped.startswith("//"):
            continue
        match = _match_keyword(stripped)
        if match is None:
            if signed_on_power:
                parsed.items.append(OrderLine(lineno, stripped))
            else:
                parsed.items.append(NotUnderstood(lineno, stripped, closest_command(stripped)))
            continue
        name, lang, rest = match
        if parsed.lang is None:
            parsed.lang = lang
        if name.startswith("option:"):
            parsed.items.append(option_line(name.split(":", 1)[1], rest, lineno, stripped, lang))
            continue
        verb = Verb(name)
        if verb is Verb.SIGNOFF:
            parsed.ended_at = lineno
            break
        if verb is Verb.ENDPRESS:
            parsed.items.append(Malformed(lineno, stripped, verb, Problem.STRAY_END))
            continue
        item = _command(verb, rest, lineno, stripped, lang)
        if isinstance(item, Command) and verb in (Verb.PRESS, Verb.BROADCAST, Verb.FOR):
            closer = Verb.END if verb is Verb.FOR else Verb.ENDPRESS
            block = _Block(item, closer)
            continue
        if isinstance(item, Command) and verb is Verb.SIGNON:
            signed_on_power = item.power != GM
        elif isinstance(item, Command) and verb is Verb.BECOME:
            signed_on_power = True  # the GM now gives that power's orders
        elif verb is Verb.CREATE:
            signed_on_power = False
        parsed.items.append(item)
    if block is not None:
        parsed.items.append(Malformed(block.start.lineno, block.start.text, block.start.verb,
                                      Problem.UNCLOSED_BLOCK))
    return parsed


@dataclass
class _Block:
    start: Command
    closer: Verb
    body: list[str] = field(default_factory=list)

    def finish(self) -> Command:
        body = list(self.body)
        while body and not body[-1].strip():
            body.pop()
        while body and not body[0].strip():
            body.pop(0)
        return _replace(self.start, body=tuple(body))


def _replace(cmd: Command, **changes: Any) -> Command:
    return replace(cmd, **changes)


def _closes(line: str, closer: Verb) -> bool:
    match = _match_keyword(line.strip())
    return match is not None and match[0] == closer.value and not match[2]


def _match_keyword(line: str) -> tuple[str, str, list[str]] | None:
    """(verb or option:key, language, remaining words) for the longest keyword phrase."""
    words = line.split()
    folded = [fold(w) for w in words]
    lex = lexicon()
    for n in range(min(lex.longest, len(words)), 0, -1):
        hit = lex.phrases.get(tuple(folded[:n]))
        if hit is None:
            continue
        name, lang = hit
        rest = words[n:]
        if not name.startswith("option:") and Verb(name) in NO_ARGS and rest:
            continue
        return name, lang, rest
    return None


_HOURS = re.compile(r"^(\d+)([HDGJ]?)$")  # hours, or days: D (en), G (giorni), J (jours)


def _command(verb: Verb, rest: list[str], lineno: int, text: str, lang: str) -> Command | Malformed:
    base = Command(verb, lineno, text, lang)

    def bad(problem: Problem, detail: str = "") -> Malformed:
        return Malformed(lineno, text, verb, problem, detail)

    def need(n: int, most: int | None = None) -> Malformed | None:
        if len(rest) < n:
            return bad(Problem.MISSING_ARGUMENT)
        if most is not None and len(rest) > most:
            return bad(Problem.TOO_MANY_ARGUMENTS, " ".join(rest[most:]))
        return None

    if verb in NO_ARGS:
        return base
    if verb is Verb.LIST:
        return need(0, 1) or _replace(base, game=_game(rest[0]) if rest else None)
    if verb in (Verb.SUMMARY, Verb.OBSERVE):
        return need(1, 1) or _replace(base, game=_game(rest[0]))
    if verb is Verb.HISTORY:
        if problem := need(1, 2):
            return problem
        value = None
        if len(rest) == 2:
            ends = rest[1].upper().split("..")
            try:
                phases = [str(Phase.parse(p)) for p in ends if p]
            except ValueError:
                return bad(Problem.BAD_PHASE, rest[1])
            if not phases:  # "..": a range with neither end
                return bad(Problem.BAD_PHASE, rest[1])
            value = "..".join(phases) if len(ends) == 1 else f"{phases[0]}..{phases[-1]}"
        return _replace(base, game=_game(rest[0]), value=value)
    if verb is Verb.CREATE:
        return need(2, 2) or _replace(base, game=_game(rest[0]), password=rest[1])
    if verb is Verb.JOIN:
        if problem := need(2):
            return problem
        prefs: list[str] = []
        for word in " ".join(rest[2:]).replace(",", " ").split():
            power = parse_power(word)
            if power is None:
                return bad(Problem.UNKNOWN_POWER, word)
            if power not in prefs:
                prefs.append(power)
        return _replace(base, game=_game(rest[0]), password=rest[1], powers=tuple(prefs))
    if verb is Verb.SIGNON:
        return _signon(base, rest, bad)
    if verb is Verb.PRESS:
        words = " ".join(rest).replace(",", " ").split()
        grey = bool(words) and fold(words[-1]) in grey_words()
        if grey:
            words = words[:-1]
        if not words:
            return bad(Problem.MISSING_ARGUMENT)
        powers: list[str] = []
        for word in words:
            power = parse_power(word, allow_gm=True)  # press to the GM is allowed
            if power is None:
                return bad(Problem.UNKNOWN_POWER, word)
            powers.append(power)
        return _replace(base, powers=tuple(dict.fromkeys(powers)), grey=grey)
    if verb is Verb.BROADCAST:
        if rest and not (len(rest) == 1 and fold(rest[0]) in grey_words()):
            return bad(Problem.TOO_MANY_ARGUMENTS, " ".join(rest))
        return _replace(base, grey=bool(rest))
    if verb in (Verb.SET_PASSWORD, Verb.SET_ADDRESS):
        return need(1, 1) or _replace(base, value=rest[0])
    if verb is Verb.LATE:
        if problem := need(1, 1):
            return problem
        return _number(base, rest[0], bad)
    if verb in (Verb.CONCEDE, Verb.FOR, Verb.EJECT, Verb.BECOME):
        if problem := need(1, 1):
            return problem
        power = parse_power(rest[0])
        return _replace(base, power=power) if power else bad(Problem.UNKNOWN_POWER, rest[0])
    if verb is Verb.GRANT:
        if problem := need(2, 2):
            return problem
        power = parse_power(rest[0])
        if power is None:
            return bad(Problem.UNKNOWN_POWER, rest[0])
        return _number(_replace(base, power=power), rest[1], bad)
    if verb is Verb.REPLACE:
        if problem := need(2, 2):
            return problem
        power = parse_power(rest[0])
        if power is None:
            return bad(Problem.UNKNOWN_POWER, rest[0])
        if "@" not in rest[1]:
            return bad(Problem.BAD_VALUE, rest[1])
        return _replace(base, power=power, value=rest[1].strip("<>"))
    if verb in (Verb.PROCESS, Verb.ROLLBACK):
        # PROCESS phase FORCE: process even while the game waits for a replacement (seed 002)
        forced = verb is Verb.PROCESS and len(rest) == 2 and rest[1].upper() in FORCE_WORDS
        if not forced and (problem := need(1, 1)):
            return problem
        try:
            return _replace(base, value=str(Phase.parse(rest[0])),
                            setting="force" if forced else None)
        except ValueError:
            return bad(Problem.BAD_PHASE, rest[0])
    if verb is Verb.SET_DEADLINE:
        if problem := need(1, 2):
            return problem
        value = " ".join(rest)
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}( \d{1,2}:\d{2})?", value):
            return bad(Problem.BAD_DATE, value)
        return _replace(base, value=value)
    if verb is Verb.EXTEND:
        if problem := need(1, 2):
            return problem
        m = _HOURS.match(fold("".join(rest)))
        if not m:
            return bad(Problem.NOT_A_NUMBER, " ".join(rest))
        hours = int(m.group(1)) * (24 if m.group(2) in ("D", "G", "J") else 1)
        return _replace(base, number=hours)
    raise AssertionError(f"verb without a grammar: {verb}")  # pragma: no cover


def _signon(base: Command, rest: list[str], bad: Any) -> Command | Malformed:
    if len(rest) == 2:
        # njudge's form: SIGNON Fgame password (power initial glued to the game name)
        power = parse_power(rest[0][:1], allow_gm=True)
        if power is None or len(rest[0]) < 2:
            return bad(Problem.UNKNOWN_POWER, rest[0])
        return _replace(base, power=power, game=_game(rest[0][1:]), password=rest[1])
    if len(rest) < 3:
        return bad(Problem.MISSING_ARGUMENT)
    if len(rest) > 3:
        return bad(Problem.TOO_MANY_ARGUMENTS, " ".join(rest[3:]))
    power = parse_power(rest[0], allow_gm=True)
    if power is None:
        return bad(Problem.UNKNOWN_POWER, rest[0])
    return _replace(base, power=power, game=_game(rest[1]), password=rest[2])


def _number(base: Command, word: str, bad: Any) -> Command | Malformed:
    if not word.isdigit():
        return bad(Problem.NOT_A_NUMBER, word)
    return _replace(base, number=int(word))


def _game(word: str) -> str:
    return word.strip().lower()
