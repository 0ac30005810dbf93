"""The service binds exactly one handler to every command of the table that reaches it, and
reads everything else about a command from its declaration (docs/architecture.md's worked
example of adding a command: a spec row, a handler, its words, its reply text)."""

from __future__ import annotations

import inspect
import re
from dataclasses import fields
from pathlib import Path

import judge.service.commands  # noqa: F401  (importing the package binds the handlers)
from judge.parsing import commands as parser
from judge.parsing.command_table import COMMANDS, SPECS, Api, Following, Orders, SecretUse, SignOn
from judge.parsing.commands import LANGS, Command, Role, Verb, parse_mail
from judge.parsing.commands_lexicon import lexicon
from judge.service import commands as commands_package
from judge.service.commands import by_token, guard, session
from judge.service.commands.registry import BINDINGS, PARSER_ONLY, handles, role_of, unbound
from judge.service.mail_commands import echo_of, secrets_of

ROOT = Path(__file__).resolve().parents[2]


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
    assert {c.verb for c in COMMANDS if c.reads_orders} == {
        Verb.STATUS, Verb.PREVIEW, Verb.PROCESS, Verb.CLEAR, Verb.FOR}
    assert SPECS[Verb.CLEAR].orders is Orders.CLEARS and SPECS[Verb.FOR].orders is Orders.BLOCK


def test_the_worked_example_holds_every_verb_is_one_row_one_handler_and_its_words() -> None:
    """What adding a command touches (docs/architecture.md): every verb has exactly one spec
    row, exactly one handler (or is consumed by the parser), its words and argument syntax
    in English, French and Italian, and a HELP line."""
    rows = [c.verb for c in COMMANDS]
    assert sorted(rows) == sorted(Verb) and len(rows) == len(set(rows))
    words = lexicon().raw["commands"]
    for verb in Verb:
        if verb in PARSER_ONLY:
            assert verb not in BINDINGS, verb
        else:
            assert callable(BINDINGS[verb]), verb
        if not SPECS[verb].own_words:
            continue  # an option line: its keywords are the options' (option_registry)
        assert SPECS[verb].help, verb
        for lang in LANGS:
            assert words[verb.value][lang], (verb, lang)
            assert lang in words[verb.value]["args"], (verb, lang)
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    example = page[page.index("## Worked example: adding a mail command"):]
    for touched in ("command_table.py", "command_words.json", "@handles", "answers.py",
                    "messages.j2"):
        assert touched in example, touched


def test_the_run_reads_declarations_not_verbs() -> None:
    """No verb is named where a mail's commands are prepared, run or masked: each such fact
    is a field of the command's row."""
    for function in (commands_package._command, commands_package.prepare_mail,
                     commands_package._Preparation, commands_package.refused_line,
                     commands_package._keyword, secrets_of, echo_of, by_token.run_lines,
                     parser.parse_mail, parser._orders_follow):
        source = inspect.getsource(function)
        assert not re.search(r"Verb\.[A-Z]", source), function.__qualname__
    for name in ("PASSWORD_VERBS", "KEPT_WORDS", "JOINER_VERBS", "SEAT_VERBS", "GM_VERBS"):
        for module in (commands_package, session, by_token, guard):
            assert not hasattr(module, name), (module.__name__, name)


def test_secrets_are_declared_on_real_command_fields() -> None:
    names = {f.name for f in fields(Command)}
    declared = {c.verb: c.secret for c in COMMANDS if c.secret is not None}
    assert set(declared) == {Verb.SIGNON, Verb.CREATE, Verb.JOIN, Verb.SET_PASSWORD}
    assert {v for v, secret in declared.items() if secret.use is SecretUse.CHECKED} == {
        Verb.SIGNON}
    for secret in declared.values():
        assert secret.field in names
    parsed = parse_mail(["SIGNON FRANCE alpha alpha", "SET PASSWORD s3cret",
                         "JOIN beta pw2 FRANCE", "SIGNON FRANCE alpha pw3 extra"])
    assert secrets_of(parsed) >= {"alpha", "s3cret", "pw2", "pw3", "extra"}
    echoes = [echo_of(item) for item in parsed.items]
    assert echoes[:3] == ["SIGNON FRANCE alpha ****", "SET PASSWORD ****", "JOIN beta **** FRANCE"]
    assert echoes[3] == "SIGNON FRANCE alpha **** ****"


def test_sign_on_changes_are_declared() -> None:
    assert {c.verb for c in COMMANDS if c.signon is SignOn.OPENS} == {Verb.SIGNON, Verb.CREATE}
    assert {c.verb for c in COMMANDS if c.signon is SignOn.SWITCHES} == {Verb.BECOME}
    assert {Verb.SIGNOFF, Verb.ENDPRESS} == PARSER_ONLY


def test_which_token_may_send_a_command_is_declared() -> None:
    """The API's command door (by_token) reads ``api``: a seat's token its press, FOR blocks,
    late days and clock votes; the GM's every GM command and option line but BECOME, and the
    GM's press."""
    seat = {c.verb for c in COMMANDS if Api.SEAT in c.api}
    gm = {c.verb for c in COMMANDS if Api.GM in c.api}
    assert seat == {Verb.PRESS, Verb.BROADCAST, Verb.FOR, Verb.LATE, Verb.APPROVE, Verb.OPPOSE}
    assert gm == ({c.verb for c in COMMANDS if c.role is Role.GM} - {Verb.BECOME}
                  | {Verb.PRESS, Verb.BROADCAST})
    assert {c.verb for c in COMMANDS if not c.own_words} == {Verb.OPTION}


def test_what_follows_a_command_is_declared() -> None:
    """Whether the plain lines after a command are orders is its ``following``; a broken
    CREATE still ends the sign-on before it, a broken SIGNON signs nobody on or off."""
    following = {c.verb: c.following for c in COMMANDS if c.following is not Following.AS_BEFORE}
    assert following == {Verb.SIGNON: Following.ORDERS_UNLESS_GM, Verb.BECOME: Following.ORDERS,
                         Verb.CREATE: Following.NOT_ORDERS}
    assert {c.verb for c in COMMANDS if c.following_if_malformed} == {Verb.CREATE}

    def kinds(lines: list[str]) -> list[str]:
        return [type(item).__name__ for item in parse_mail(lines).items]

    assert kinds(["SIGNON FRANCE g pw", "A PAR-BUR"]) == ["Command", "OrderLine"]
    assert kinds(["SIGNON GM g pw", "A PAR-BUR"]) == ["Command", "NotUnderstood"]
    assert kinds(["SIGNON GM g pw", "BECOME FRANCE", "A PAR-BUR"]) == [
        "Command", "Command", "OrderLine"]
    assert kinds(["SIGNON FRANCE g pw", "CREATE", "A PAR-BUR"]) == [
        "Command", "Malformed", "NotUnderstood"]
    assert kinds(["SIGNON FRANCE g pw", "SIGNON", "A PAR-BUR"]) == [
        "Command", "Malformed", "OrderLine"]
    ended = parse_mail(["HELP", "SIGNOFF", "LIST"])
    assert kinds(["HELP", "SIGNOFF", "LIST"]) == ["Command"] and ended.ended_at == 2
    assert kinds(["ENDPRESS"]) == ["Malformed"]
