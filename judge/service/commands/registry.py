"""Which function handles which verb: the service's half of a command's declaration.

Everything else about a command (its words, arguments, role, passwords, what it does with the
orders and the sign-on, its HELP line) is its row in ``judge.parsing.command_table`` (parsing
is pure and below the service); the service binds one handler to each verb that reaches it
with ``@handles``, and ``tests/service/test_command_registry.py`` checks that none is missing.
"""

from __future__ import annotations

from collections.abc import Callable

from judge.parsing.command_table import COMMANDS, SignOn, spec
from judge.parsing.commands import Command, Role, Verb
from judge.service.commands.session import MailSession

Handler = Callable[[MailSession, Command], None]


BINDINGS: dict[Verb, Handler] = {}
# verbs the session parser consumes itself: they end the mail (SIGNOFF) or close a block
PARSER_ONLY = frozenset(c.verb for c in COMMANDS
                        if c.role is Role.BLOCK or c.signon is SignOn.CLOSES)


def handles(*verbs: Verb) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for verb in verbs:
            if verb in BINDINGS:
                raise ValueError(f"{verb} has two handlers")
            BINDINGS[verb] = fn
        return fn
    return register


def role_of(verb: Verb) -> Role:
    return spec(verb).role


def unbound() -> list[Verb]:
    """Verbs of the command table that reach the service without a handler (should be none)."""
    return [c.verb for c in COMMANDS if c.verb not in PARSER_ONLY and c.verb not in BINDINGS]
