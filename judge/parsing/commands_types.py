"""The command language's vocabulary of types: verbs, roles, problems, parsed items."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

LANGS = ("en", "it", "fr")
GM = "GM"
SIGNATURE = "-- "


class Verb(StrEnum):
    HELP = "HELP"
    LIST = "LIST"
    HISTORY = "HISTORY"
    SUMMARY = "SUMMARY"
    OBSERVE = "OBSERVE"
    CREATE = "CREATE"
    JOIN = "JOIN"
    SIGNON = "SIGNON"
    SIGNOFF = "SIGNOFF"
    CLEAR = "CLEAR"
    STATUS = "STATUS"
    SET_WAIT = "SET_WAIT"
    SET_NOWAIT = "SET_NOWAIT"
    PRESS = "PRESS"
    BROADCAST = "BROADCAST"
    ENDPRESS = "ENDPRESS"
    SET_PASSWORD = "SET_PASSWORD"
    SET_ADDRESS = "SET_ADDRESS"
    SET_NAME = "SET_NAME"
    TOKEN = "TOKEN"  # the JSON API's bearer token, mailed to the address of record (issue 27)
    LATE = "LATE"
    DRAW = "DRAW"
    NO_DRAW = "NO_DRAW"
    CONCEDE = "CONCEDE"
    FOR = "FOR"
    RESIGN = "RESIGN"
    PROPOSE = "PROPOSE"  # negotiation with the computer powers and the players (issue 14)
    ACCEPT = "ACCEPT"
    REFUSE = "REFUSE"
    APPROVE = "APPROVE"  # issue 30: agree to a playing GM's extension or pause
    OPPOSE = "OPPOSE"
    ABSENCE = "ABSENCE"  # issue 30: a player's announced absence (njudge's SET ABSENCE)
    START = "START"
    SET_DEADLINE = "SET_DEADLINE"
    EXTEND = "EXTEND"
    PAUSE = "PAUSE"
    RESUME = "RESUME"
    PROCESS = "PROCESS"
    PREVIEW = "PREVIEW"
    ROLLBACK = "ROLLBACK"
    REPLACE = "REPLACE"
    EJECT = "EJECT"
    BECOME = "BECOME"
    GRANT = "GRANT"
    END = "END"
    WEBHOOK = "WEBHOOK"  # the GM's webhook for a chat server or a program (issue 27)
    OPTION = "OPTION"  # a game option line (CREATE or GM session)


class Role(StrEnum):
    ANYONE = "anyone"
    PLAYER = "player"
    GM = "gm"
    BLOCK = "block"


class Problem(StrEnum):
    """Why a line that starts with a keyword could not be read."""

    MISSING_ARGUMENT = "missing_argument"
    TOO_MANY_ARGUMENTS = "too_many_arguments"
    UNKNOWN_POWER = "unknown_power"
    NOT_A_NUMBER = "not_a_number"
    BAD_PHASE = "bad_phase"
    BAD_DATE = "bad_date"
    BAD_VALUE = "bad_value"
    UNCLOSED_BLOCK = "unclosed_block"
    STRAY_END = "stray_end"


@dataclass(frozen=True)
class Command:
    verb: Verb
    lineno: int
    text: str
    lang: str  # language of the keyword used
    game: str | None = None
    password: str | None = None
    power: str | None = None  # canonical power name, or "GM"
    powers: tuple[str, ...] = ()
    number: int | None = None
    value: str | None = None  # address, phase, phase range "S1901M..F1902M", date text, hours
    option: str | None = None  # for OPTION: the option key
    setting: Any = None  # for OPTION: the JSON-ready value
    body: tuple[str, ...] = ()  # lines of a PRESS / BROADCAST / FOR block
    grey: bool = False


@dataclass(frozen=True)
class OrderLine:
    lineno: int
    text: str


@dataclass(frozen=True)
class NotUnderstood:
    lineno: int
    text: str
    suggestion: Verb | None = None


@dataclass(frozen=True)
class Malformed:
    lineno: int
    text: str
    verb: Verb
    problem: Problem
    detail: str = ""


Item = Command | OrderLine | NotUnderstood | Malformed


@dataclass
class ParsedMail:
    items: list[Item] = field(default_factory=list)
    lang: str | None = None  # language of the first keyword, a hint for the reply
    ended_at: int | None = None  # line number of SIGNOFF / signature, if any

    def commands(self) -> list[Command]:
        return [i for i in self.items if isinstance(i, Command)]
