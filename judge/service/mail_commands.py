"""One received mail's commands, read once: what its preparation, its masking and its run read.

A mail is read here one time (cut at the line cap, parsed, its confirmation line found, its
passwords listed) into a ``ReadMail``; the preparing pass (scrypt ahead of the write lock),
the masking of its stored raw copy and the command run all take that value
(``MailContext.commands``) instead of parsing the mail again. Which words are passwords is the
commands' declaration (``CommandSpec.secret`` in ``judge.parsing.command_table``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from judge.parsing.command_table import spec
from judge.parsing.commands import Command, Malformed, NotUnderstood, ParsedMail, parse_mail

TOKEN_HEX = 32
# the confirmation's command word in each language -> that language (the acknowledgement is
# said in it); see ``judge.service.confirm``
WORDS = {"confirm": "en", "conferma": "it", "confermo": "it", "confirmer": "fr"}
ANSWER = re.compile(rf"^({'|'.join(WORDS)})[ \t]+([0-9a-f]{{{TOKEN_HEX}}})(?:[ \t]+(\S+))?$",
                    re.IGNORECASE)
MASKED = "****"


@dataclass(frozen=True)
class ConfirmationAnswer:
    token: str
    password: str | None  # REPLACE: the password the new player chose
    line_no: int  # the body line that carried it
    lang: str = "en"  # the language of the command word


@dataclass(frozen=True)
class ReadMail:
    """A mail's lines read as commands, once."""

    parsed: ParsedMail
    unread: int  # non-blank lines past the cap, left unread
    answer: ConfirmationAnswer | None  # a ``CONFIRM <token>`` line of its own
    # every password the mail carries: masked in its stored raw copy once it is handled
    secrets: frozenset[str]


def read_lines(lines: tuple[str, ...] | list[str], cap: int) -> tuple[list[str], int]:
    """The first ``cap`` non-blank lines (with the blank lines between them) and how many
    non-blank lines were left unread: the work one mail may cause is bounded by its lines."""
    kept: list[str] = []
    seen = 0
    for index, line in enumerate(lines):
        if line.strip():
            if seen == cap:
                return kept, sum(1 for rest in lines[index:] if rest.strip())
            seen += 1
        kept.append(line)
    return kept, 0


def find_answer_in(lines: tuple[str, ...] | list[str]) -> ConfirmationAnswer | None:
    # the mail's ``lines`` hold no quoted text, attribution, forwarded part or signature
    for no, line in enumerate(lines, start=1):
        match = ANSWER.match(line.strip())
        if match:
            return ConfirmationAnswer(match.group(2).lower(), match.group(3), no,
                                      WORDS[match.group(1).lower()])
    return None


def secrets_of(parsed: ParsedMail) -> set[str]:
    """Every password the mail carries (sign-ons, joins, new passwords, the rest of a refused
    line that names a password command), so that the stored raw mail can be masked."""
    found: set[str] = set()
    for item in parsed.items:
        if isinstance(item, Command):
            secret = spec(item.verb).secret
            value = secret.of(item) if secret is not None else None
            if value:
                found.add(value)
        elif isinstance(item, Malformed | NotUnderstood):
            kept = kept_words(item)
            if kept is not None:
                found.update(item.text.split()[kept:])
    return found


def kept_words(item: Malformed | NotUnderstood) -> int | None:
    """How many words of a refused line may be repeated (None: all): a line that names a
    command with a password keeps the words before it."""
    verb = item.verb if isinstance(item, Malformed) else item.suggestion
    secret = spec(verb).secret if verb is not None else None
    return secret.kept_words if secret is not None else None


def echo_of(item: object) -> str | None:
    """The line as it is repeated in the reply, with any password masked."""
    if isinstance(item, Malformed | NotUnderstood):
        kept = kept_words(item)
        if kept is None:
            return item.text
        return " ".join(w if i < kept else MASKED for i, w in enumerate(item.text.split()))
    if not isinstance(item, Command):
        text: str | None = getattr(item, "text", None)
        return text
    words = item.text.split()
    secret = spec(item.verb).secret
    value = secret.of(item) if secret is not None else None
    if value:
        # the password is the last word that equals it (the game's name may too)
        for i in range(len(words) - 1, -1, -1):
            if words[i] == value:
                words[i] = MASKED
                break
    return " ".join(words)


def read_mail(lines: tuple[str, ...] | list[str], cap: int) -> ReadMail:
    """Read a mail's command lines (``IncomingMail.lines``), at most ``cap`` of them."""
    kept, unread = read_lines(lines, cap)
    parsed = parse_mail(kept)
    answer = find_answer_in(lines)
    found = secrets_of(parsed)
    if answer is not None and answer.password:
        found.add(answer.password)
    return ReadMail(parsed, unread, answer, frozenset(found))
