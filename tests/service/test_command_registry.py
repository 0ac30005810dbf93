"""The service binds exactly one handler to every command of the table that reaches it."""

from __future__ import annotations

import judge.service.commands  # noqa: F401  (importing the package binds the handlers)
from judge.parsing.command_table import COMMANDS
from judge.parsing.commands import Role, Verb
from judge.service.commands.registry import BINDINGS, PARSER_ONLY, handles, role_of, unbound


def test_every_command_that_reaches_the_service_has_a_handler() -> None:
    assert unbound() == []
    assert set(BINDINGS) == {c.verb for c in COMMANDS} - PARSER_ONLY


def test_a_verb_cannot_be_bound_twice() -> None:
    try:
        handles(Verb.HELP)(lambda s, cmd: None)
    except ValueError as error:
        assert "HELP" in str(error)
    else:  # pragma: no cover
        raise AssertionError("a second HELP handler was accepted")


def test_roles_and_order_reading_come_from_the_declarations() -> None:
    assert role_of(Verb.START) is Role.GM and role_of(Verb.JOIN) is Role.ANYONE
    assert {v for v, b in BINDINGS.items() if b.reads_orders} == {
        Verb.STATUS, Verb.PREVIEW, Verb.PROCESS, Verb.CLEAR, Verb.FOR}
