"""French elision (issue 28): "de" and "que" before a name that begins with a vowel are written
"d'" and "qu'" when the name is filled in (judge.i18n.elide), in templates, in tr() and in the
parser's refusals, for any name the map gives (no table of names)."""

from __future__ import annotations

import pytest

from judge.bulletins.render import render
from judge.bulletins.views import letters_view
from judge.i18n import elide, elides, tr
from judge.parsing.errors import ParseError
from judge.parsing.messages import render as render_refusal
from tests.bulletins.cases import game


@pytest.mark.parametrize(("word", "elided"), [
    ("Angleterre", True), ("Allemagne", True), ("Autriche", True), ("Italie", True),
    ("Égypte", True), ("France", False), ("Russie", False), ("Turquie", False),
    ("Hongrie", False),  # h aspiré, as in the country names that have one
    ("ATL", False), ("A PAR - BUR", False), ("AIDE", False), ("", False), ("A", False),
])
def test_which_words_french_elides_before(word: str, elided: bool) -> None:
    assert elides(word) is elided


def test_elision_is_decided_by_the_value_and_only_in_french() -> None:
    text = "lettre de %(sender)s, plus que %(other)s, côte de %(code)s"
    assert elide("fr", text, {"sender": "Angleterre", "other": "Italie", "code": "ATL"}) == \
        "lettre d'%(sender)s, plus qu'%(other)s, côte de %(code)s"
    assert elide("fr", text, {"sender": "France", "other": "Russie", "code": "ATL"}) == text
    assert elide("it", text, {"sender": "Angleterre", "other": "Italie", "code": "x"}) == text
    assert elide("fr", "De %(x)s", {"x": "Autriche"}) == "D'%(x)s"


@pytest.mark.parametrize(("sender", "subject"), [
    ("ENGLAND", "demo : lettre d'Angleterre"), ("AUSTRIA", "demo : lettre d'Autriche"),
    ("FRANCE", "demo : lettre de France"), ("TURKEY", "demo : lettre de Turquie"),
])
def test_a_computer_powers_letter_in_french_elides_its_sender(sender: str, subject: str) -> None:
    subject_line, body = render("letters", "fr", letters_view(game("fr"), "S1901M", sender,
                                                               ["GERMANY"], ["Bonjour."]))
    assert subject_line == subject
    news, _ = render("letters", "fr", letters_view(game("fr"), "S1901M", sender, [], ["Salut."]))
    assert news == subject.replace("lettre", "nouvelles")


def test_tr_and_the_parsers_refusals_elide_too() -> None:
    assert tr("fr", "%(game)s: letter from %(sender)s", game="g", sender="Italie") == \
        "g : lettre d'Italie"
    assert tr("it", "%(game)s: letter from %(sender)s", game="g", sender="Italia") == \
        "g: lettera da Italia"
    refusal = render_refusal(ParseError.BUILD_NOT_HOME, {"province": "PAR", "power": "Allemagne"},
                             "fr", variant="standard")
    assert refusal.endswith("n'est pas un centre national d'Allemagne")
