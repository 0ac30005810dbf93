"""Which function handles which verb, and who may use it (the role comes from the lexicon)."""

from __future__ import annotations

from collections.abc import Callable

from judge.parsing.commands import Command, Role, Verb, lexicon
from judge.service.commands.session import MailSession

Handler = Callable[[MailSession, Command], None]
HANDLERS: dict[Verb, Handler] = {}


def handles(*verbs: Verb) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for verb in verbs:
            HANDLERS[verb] = fn
        return fn
    return register


def role_of(verb: Verb) -> Role:
    if verb is Verb.OPTION:
        return Role.GM
    return Role(lexicon().command_info(verb)["role"])
