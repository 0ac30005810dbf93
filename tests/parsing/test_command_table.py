"""The command table: one declaration per command, from which parsing, HELP and the command
reference pages (docs/commands*.md) come."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from judge.parsing.command_table import (
    COMMANDS,
    REFERENCE_FILES,
    SPECS,
    ArgumentProblem,
    command_rows,
    read_arguments,
    reference_page,
)
from judge.parsing.commands import LANGS, Command, Malformed, Problem, Role, Verb, parse_mail
from judge.parsing.commands_lexicon import lexicon

ROOT = Path(__file__).resolve().parents[2]


def test_every_verb_is_declared_once_and_has_words_in_every_language() -> None:
    assert [c.verb for c in COMMANDS] == list(Verb)  # the table follows the enum, once each
    words = lexicon().raw["commands"]
    assert set(words) == {v.value for v in Verb if v is not Verb.OPTION}
    for verb, info in words.items():
        assert "role" not in info, verb  # who may use a command is said in the table only
        for lang in LANGS:
            assert info[lang] and lang in info["args"], (verb, lang)
        assert "help" not in info, verb  # HELP's line is prose: the table's msgid, the catalogs


def test_every_command_has_a_help_line_in_every_language() -> None:
    for lang in LANGS:
        for row in command_rows(lang):
            assert row.help, (row.verb, lang)
            # a translated line, not the English msgid shown in Italian or French
            assert lang == "en" or row.help != SPECS[row.verb].help, (row.verb, lang)


def test_only_the_last_argument_may_take_the_rest_of_the_line() -> None:
    for command in COMMANDS:
        for arg in command.args[:-1]:
            assert arg.words == 1, command.verb


def test_blocks_and_standalone_keywords_come_from_the_table() -> None:
    assert {c.verb: c.closer for c in COMMANDS if c.closer} == {
        Verb.PRESS: Verb.ENDPRESS, Verb.BROADCAST: Verb.ENDPRESS, Verb.FOR: Verb.END}
    # a keyword without arguments followed by more words is not that command: FIN is END in
    # French and Finland in an order
    assert SPECS[Verb.END].standalone
    items = parse_mail(["SIGNON FRANCE alpha pw", "FIN"])
    assert isinstance(items.items[1], Command) and items.items[1].verb is Verb.END
    items = parse_mail(["SIGNON RUSSIA alpha pw", "FIN - SWE"])
    assert not isinstance(items.items[1], Command)


@pytest.mark.parametrize(("verb", "words", "fields"), [
    (Verb.LIST, [], {}),
    (Verb.LIST, ["Alpha"], {"game": "alpha"}),
    (Verb.HISTORY, ["alpha", "s1901m..f1902m"], {"game": "alpha", "value": "S1901M..F1902M"}),
    (Verb.JOIN, ["alpha", "pw", "Francia,", "Angleterre"],
     {"game": "alpha", "password": "pw", "powers": ("FRANCE", "ENGLAND")}),
    (Verb.GRANT, ["ITALIA", "2"], {"power": "ITALY", "number": 2}),
    (Verb.REPLACE, ["TURKEY", "<new@example.org>"], {"power": "TURKEY", "value": "new@example.org"}),
    (Verb.EXTEND, ["2", "G"], {"number": 48}),
    (Verb.SET_DEADLINE, ["2027-03-01", "20:00"], {"value": "2027-03-01 20:00"}),
    (Verb.PRESS, ["FRANCE,GM", "GREY"], {"powers": ("FRANCE", "GM"), "grey": True}),
    (Verb.BROADCAST, [], {}),
])
def test_arguments_are_read_by_the_declared_spec(verb: Verb, words: list[str],
                                                 fields: dict[str, object]) -> None:
    assert read_arguments(verb, words) == fields


@pytest.mark.parametrize(("verb", "words", "problem", "detail"), [
    (Verb.SUMMARY, [], Problem.MISSING_ARGUMENT, ""),
    (Verb.SUMMARY, ["a", "b", "c"], Problem.TOO_MANY_ARGUMENTS, "b c"),
    (Verb.GRANT, ["Narnia", "x"], Problem.UNKNOWN_POWER, "Narnia"),  # in the order written
    (Verb.GRANT, ["FRANCE", "x"], Problem.NOT_A_NUMBER, "x"),
    (Verb.REPLACE, ["FRANCE", "bob"], Problem.BAD_VALUE, "bob"),
    (Verb.PROCESS, ["soon"], Problem.BAD_PHASE, "soon"),
    (Verb.SET_DEADLINE, ["tomorrow"], Problem.BAD_DATE, "tomorrow"),
    (Verb.PRESS, ["GREY"], Problem.MISSING_ARGUMENT, ""),
    (Verb.BROADCAST, ["GREY", "x"], Problem.TOO_MANY_ARGUMENTS, "GREY x"),
    (Verb.SIGNON, ["FRANCE", "alpha", "pw", "x"], Problem.TOO_MANY_ARGUMENTS, "x"),
])
def test_refusals_say_why(verb: Verb, words: list[str], problem: Problem, detail: str) -> None:
    with pytest.raises(ArgumentProblem) as refused:
        read_arguments(verb, words)
    assert (refused.value.problem, refused.value.detail) == (problem, detail)
    item = parse_mail([" ".join([lexicon().keyword(verb, "en"), *words])]).items[0]
    assert isinstance(item, Malformed) and (item.problem, item.detail) == (problem, detail)


def test_help_rows_follow_the_table_in_each_language() -> None:
    for lang in LANGS:
        rows = command_rows(lang, (Role.GM,))
        assert [r.verb for r in rows] == [c.verb for c in COMMANDS
                                           if c.role is Role.GM and c.verb is not Verb.OPTION]
        assert all(r.keyword and r.help for r in rows)


@pytest.mark.parametrize("lang", LANGS)
def test_the_reference_pages_are_generated_from_the_table(lang: str) -> None:
    page = ROOT / "docs" / REFERENCE_FILES[lang]
    assert page.read_text(encoding="utf-8") == reference_page(lang), (
        f"{page.relative_to(ROOT)} is stale: run python scripts/command_table.py")


def test_the_reference_script_checks_and_writes_the_pages(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "command_table.py"), "--check"],
                          capture_output=True, text=True, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stdout
    written = subprocess.run([sys.executable, str(ROOT / "scripts" / "command_table.py"),
                              "--docs", str(tmp_path)], capture_output=True, text=True,
                             check=True, cwd=ROOT)
    assert written.returncode == 0
    for lang, name in REFERENCE_FILES.items():
        assert (tmp_path / name).read_text(encoding="utf-8") == reference_page(lang)
    (tmp_path / REFERENCE_FILES["fr"]).write_text("hand-edited\n", encoding="utf-8")
    stale = subprocess.run([sys.executable, str(ROOT / "scripts" / "command_table.py"), "--check",
                            "--docs", str(tmp_path)], capture_output=True, text=True,
                           check=False, cwd=ROOT)
    assert stale.returncode == 1 and "commands.fr.md" in stale.stdout
    assert "python scripts/command_table.py" in stale.stdout
