"""Which function handles which verb: the service's half of a command's declaration.

A command's words, arguments and role are its row in ``judge.parsing.command_table`` (parsing is
pure and below the service); the service binds one handler to each verb that reaches it with
``@handles``, and ``tests/service/test_command_registry.py`` checks that none is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from judge.parsing.command_table import COMMANDS, spec
from judge.parsing.commands import Command, Role, Verb
from judge.service.commands.session import MailSession

Handler = Callable[[MailSession, Command], None]


@dataclass(frozen=True)
class Binding:
    handler: Handler
    # the handler reads the stored orders: the order lines given above it in the mail are
    # stored first
    reads_orders: bool = False


BINDINGS: dict[Verb, Binding] = {}
# verbs the session parser consumes itself: they end the mail or close a block
PARSER_ONLY = frozenset({Verb.SIGNOFF, Verb.ENDPRESS})


def handles(*verbs: Verb, reads_orders: bool = False) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for verb in verbs:
            if verb in BINDINGS:
                raise ValueError(f"{verb} has two handlers")
            BINDINGS[verb] = Binding(fn, reads_orders)
        return fn
    return register


def role_of(verb: Verb) -> Role:
    return spec(verb).role


def unbound() -> list[Verb]:
    """Verbs of the command table that reach the service without a handler (should be none)."""
    return [c.verb for c in COMMANDS if c.verb not in PARSER_ONLY and c.verb not in BINDINGS]
