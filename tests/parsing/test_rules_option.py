"""The RULES option names the three rule sets in the three languages."""

from __future__ import annotations

import pytest

from judge.parsing.commands import parse_mail
from judge.rules.options import RuleSet


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("RULES italian", "italian"),
        ("REGOLE regolamento", "rulebook"),
        ("RULES french", "french"),
        ("REGOLE francesi", "french"),
        ("REGLES francaises", "french"),
        ("REGLES françaises", "french"),
    ],
)
def test_rules_option(line: str, value: str) -> None:
    (command,) = parse_mail([line]).commands()
    assert command.option == "rules" and command.setting == value
    assert RuleSet(command.setting).value == value
