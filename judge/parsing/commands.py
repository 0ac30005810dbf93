"""The command language: cleaned mail body lines -> typed commands (pure, no I/O).

One mail is one session. Commands come one per line, with keywords in English, Italian or
French (``JOIN`` / ``ISCRIVI`` / ``INSCRIRE``), matched without regard to case or accents; the
longest keyword phrase wins, so ``PRESS TO`` beats the option ``PRESS``. ``SIGNOFF`` or a
``-- `` signature ends the session; ``//`` lines are comments. ``PRESS``/``BROADCAST`` open a
block closed by ``ENDPRESS``, ``FOR power`` one closed by ``END``. After a ``SIGNON`` of a
power, lines that are no command are that power's orders (``OrderLine``): the order parser, not
this module, judges them. Elsewhere they are ``NotUnderstood`` with the closest command.
Each command's arguments, block and role are its row in ``command_table``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from judge.parsing.command_table import (
    FORCE_WORDS,
    ArgumentProblem,
    CommandSpec,
    Following,
    SignOn,
    read_arguments,
    spec,
)
from judge.parsing.commands_lexicon import (
    CommandWords,
    closest_command,
    fold,
    lexicon,
    parse_power,
)
from judge.parsing.commands_options import option_line
from judge.parsing.commands_types import (
    GM,
    LANGS,
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
    "FORCE_WORDS", "GM", "LANGS", "Command", "Item", "CommandWords", "Malformed", "NotUnderstood",
    "OrderLine", "ParsedMail", "Problem", "Role", "Verb", "closest_command", "fold", "lexicon",
    "parse_mail", "parse_power",
]

# ---------------------------------------------------------------- the session parser


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
        declared = spec(verb)
        if declared.signon is SignOn.CLOSES:
            parsed.ended_at = lineno
            break
        if declared.role is Role.BLOCK:
            # a word that only closes a block, met outside one
            parsed.items.append(Malformed(lineno, stripped, verb, Problem.STRAY_END))
            continue
        item = _command(verb, rest, lineno, stripped, lang)
        if isinstance(item, Command) and declared.closer is not None:
            block = _Block(item, declared.closer)
            continue
        signed_on_power = _orders_follow(declared, item, signed_on_power)
        parsed.items.append(item)
    if block is not None:
        parsed.items.append(Malformed(block.start.lineno, block.start.text, block.start.verb,
                                      Problem.UNCLOSED_BLOCK))
    return parsed


def _orders_follow(declared: CommandSpec, item: Command | Malformed, before: bool) -> bool:
    """Whether the plain lines after ``item`` are a power's orders (its ``following``)."""
    if isinstance(item, Malformed) and not declared.following_if_malformed:
        return before
    match declared.following:
        case Following.ORDERS_UNLESS_GM:
            return isinstance(item, Command) and item.power != GM
        case Following.ORDERS:
            return True  # the GM now gives that power's orders
        case Following.NOT_ORDERS:
            return False
    return before


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
        if not name.startswith("option:") and spec(Verb(name)).standalone and rest:
            continue
        return name, lang, rest
    return None


def _command(verb: Verb, rest: list[str], lineno: int, text: str, lang: str) -> Command | Malformed:
    try:
        fields = read_arguments(verb, rest)
    except ArgumentProblem as refused:
        return Malformed(lineno, text, verb, refused.problem, refused.detail)
    return Command(verb, lineno, text, lang, **fields)
