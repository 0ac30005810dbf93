"""Powers named in any language still parse on the standard map, now from the variant's data
(``map.json``'s ``"powers"``), in commands and in orders."""

from __future__ import annotations

import pytest

from judge.adjudicator.catalog import variant
from judge.parsing import parse_orders
from judge.parsing.commands import parse_mail
from judge.parsing.commands_lexicon import lexicon, parse_power

STANDARD = variant("standard")


@pytest.mark.parametrize(
    ("word", "power"),
    [
        ("Angleterre", "ENGLAND"), ("INGHILTERRA", "ENGLAND"), ("england", "ENGLAND"),
        ("Autriche", "AUSTRIA"), ("Germania", "GERMANY"), ("Allemagne", "GERMANY"),
        ("Turchia", "TURKEY"), ("Turquie", "TURKEY"), ("Russie", "RUSSIA"), ("Italie", "ITALY"),
        ("ENG", "ENGLAND"), ("E", "ENGLAND"), ("T", "TURKEY"),
    ],
)
def test_a_command_reads_a_power_in_every_language(word: str, power: str) -> None:
    assert parse_power(word) == power
    assert parse_power(word, variant="standard") == power


def test_the_gm_is_a_command_word_not_a_power() -> None:
    assert parse_power("Arbitro") is None
    assert parse_power("Arbitro", allow_gm=True) == "GM"
    assert lexicon().power_name("GM", "fr") == "Arbitre"


def test_a_power_of_another_map_is_not_read_on_the_standard_one() -> None:
    assert parse_power("Arden", variant="standard") is None


def test_signon_names_the_power_in_french_and_italian() -> None:
    parsed = parse_mail(["SIGNON ANGLETERRE partita1 secret"])
    assert [c.power for c in parsed.commands()] == ["ENGLAND"]
    parsed = parse_mail(["SIGNON Inghilterra partita1 secret"])
    assert [c.power for c in parsed.commands()] == ["ENGLAND"]


@pytest.mark.parametrize(
    ("lang", "label"), [("fr", "Angleterre :"), ("it", "Inghilterra:"), ("en", "England:")]
)
def test_an_order_label_names_the_power_in_the_language(lang: str, label: str) -> None:
    report = parse_orders([label, "F LON - NTH"], lang, position=STANDARD.initial_position())
    assert report.orders_by_power() == {"ENGLAND": [report.orders[0]]}


def test_the_names_and_adjectives_come_from_the_map() -> None:
    info = STANDARD.power("ENGLAND")
    assert (info.name("fr"), info.name("it"), info.adjective("en")) == (
        "Angleterre", "Inghilterra", "English")
    assert info.territory == frozenset({"CLY", "EDI", "LON", "LVP", "WAL", "YOR"})
    assert STANDARD.power_name("GERMANY", "de") == "Germany"  # falls back on English
