"""Issue 12 point 5: an option applies to the rule sets the registry declares. CREATE/SET
refuse one that means nothing under the game's rules, in the game's language; HELP and the
reference pages (docs/commands*.md) say where each applies."""

from __future__ import annotations

import pytest

from judge.parsing.command_table import reference_page
from judge.rules.option_registry import OPTIONS, option
from judge.rules.options import RuleSet
from judge.service.games import options
from judge.storage import Database
from tests.service.commands_harness import GM, Harness

CREATE = {"en": "CREATE", "it": "CREA", "fr": "CREER"}
LANGUAGE = {"en": "LANGUAGE en", "it": "LINGUA it", "fr": "LANGUE fr"}
RULEBOOK = {"en": "RULES rulebook", "it": "REGOLE regolamento", "fr": "REGLES livre"}
WAIT = {"en": "REPLACEMENT WAIT 240", "it": "ATTESA SOSTITUTO 240",
        "fr": "ATTENTE REMPLACANT 240"}
REFUSED = {
    "en": 'Option REPLACEMENT WAIT does not apply to games played with the 2008 rulebook rules',
    "it": "L'opzione ATTESA SOSTITUTO non vale per le partite giocate con le regole "
          "«regolamento 2008»",
    "fr": "L'option ATTENTE REMPLACANT ne s'applique pas aux parties jouées avec les règles "
          "« livret 2008 »",
}


def test_some_option_is_declared_for_one_rule_set_only() -> None:
    assert option("replacement_wait_hours").rule_sets == frozenset({RuleSet.ITALIAN})
    assert not option("replacement_wait_hours").applies_to(RuleSet.RULEBOOK)


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_create_refuses_an_option_of_another_rule_set_in_the_games_language(
        db: Database, lang: str) -> None:
    h = Harness(db)
    reply = h.reply(GM, f"{CREATE[lang]} club gmpass\n{LANGUAGE[lang]}\n{RULEBOOK[lang]}\n"
                        f"{WAIT[lang]}")
    assert REFUSED[lang] in " ".join(reply.split()), reply
    assert "replacement_wait_hours" not in options(h.game("club"))


def test_the_same_option_is_taken_under_the_italian_rules(db: Database) -> None:
    h = Harness(db)
    reply = h.reply(GM, f"CREATE club gmpass\n{WAIT['en']}")
    assert "does not apply" not in reply
    assert options(h.game("club"))["replacement_wait_hours"] == 240


def test_help_and_the_reference_page_say_where_an_option_applies(db: Database) -> None:
    table = reference_page("en")
    rows = {line.split("|")[1].strip(" `"): line for line in table.splitlines()
            if line.startswith("| `")}
    for spec in OPTIONS:
        row = rows[spec.keyword("en")]
        want = "every rule set" if spec.rule_sets == frozenset(RuleSet) else ", ".join(
            r.value for r in RuleSet if r in spec.rule_sets)
        assert row.rstrip(" |").endswith(want), row
    h = Harness(db)
    help_text = h.reply(GM, "HELP")
    wait_line = next(line for line in help_text.splitlines() if "REPLACEMENT WAIT" in line)
    assert "only with the rules: Italian club" in wait_line
    assert "only with the rules" not in next(
        line for line in help_text.splitlines() if line.strip().startswith("PRESS "))
