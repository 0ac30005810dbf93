"""Negotiation lines in English, Italian and French: the five kinds of seed 003 and answers."""

from __future__ import annotations

import pytest

from judge.adjudicator.orders import Move, UnitType
from judge.bots.proposals import (
    Kind,
    PressError,
    Proposal,
    ProposalAnswer,
    from_terms,
    is_press_line,
    parse_press,
    render,
)

A = UnitType.ARMY


@pytest.mark.parametrize(
    ("lang", "line", "expected"),
    [
        ("en", "PROPOSE FRANCE PEACE", Proposal(Kind.PEACE, "ENGLAND", "FRANCE")),
        ("it", "proponi Francia pace", Proposal(Kind.PEACE, "ENGLAND", "FRANCE")),
        ("fr", "PROPOSER France paix", Proposal(Kind.PEACE, "ENGLAND", "FRANCE")),
        (
            "en",
            "PROPOSE FRANCE SUPPORT A PAR - BUR",
            Proposal(Kind.SUPPORT, "ENGLAND", "FRANCE", order=Move(A, "PAR", "BUR")),
        ),
        (
            "it",
            "PROPONI FRANCIA APPOGGIO A Par - Bor",
            Proposal(Kind.SUPPORT, "ENGLAND", "FRANCE", order=Move(A, "PAR", "BUR")),
        ),
        (
            "fr",
            "proposer France soutien A PAR - BOU",
            Proposal(Kind.SUPPORT, "ENGLAND", "FRANCE", order=Move(A, "PAR", "BUR")),
        ),
        (
            "en",
            "PROPOSE FRANCE SHARE BEL ENGLAND HOL FRANCE",
            Proposal(
                Kind.SHARE, "ENGLAND", "FRANCE", shares=(("BEL", "ENGLAND"), ("HOL", "FRANCE"))
            ),
        ),
        (
            "fr",
            "PROPOSER FRANCE PARTAGE Belgique Angleterre Hollande France",
            Proposal(
                Kind.SHARE, "ENGLAND", "FRANCE", shares=(("BEL", "ENGLAND"), ("HOL", "FRANCE"))
            ),
        ),
        (
            "it",
            "PROPONI FRANCIA SPARTIZIONE Belgio Inghilterra Olanda Francia",
            Proposal(
                Kind.SHARE, "ENGLAND", "FRANCE", shares=(("BEL", "ENGLAND"), ("HOL", "FRANCE"))
            ),
        ),
        (
            "en",
            "PROPOSE FRANCE ALLIANCE AGAINST GERMANY",
            Proposal(Kind.ALLIANCE, "ENGLAND", "FRANCE", against="GERMANY"),
        ),
        (
            "it",
            "PROPONI FRANCIA ALLEANZA CONTRO GERMANIA",
            Proposal(Kind.ALLIANCE, "ENGLAND", "FRANCE", against="GERMANY"),
        ),
        (
            "fr",
            "PROPOSER FRANCE ALLIANCE CONTRE ALLEMAGNE",
            Proposal(Kind.ALLIANCE, "ENGLAND", "FRANCE", against="GERMANY"),
        ),
        ("en", "PROPOSE FRANCE DMZ BUR", Proposal(Kind.DMZ, "ENGLAND", "FRANCE", zone="BUR")),
        (
            "it",
            "PROPONI FRANCIA ZONA NEUTRA Manica",
            Proposal(Kind.DMZ, "ENGLAND", "FRANCE", zone="ENG"),
        ),
        (
            "fr",
            "PROPOSER FRANCE ZONE NEUTRE Manche",
            Proposal(Kind.DMZ, "ENGLAND", "FRANCE", zone="ENG"),
        ),
        ("en", "ACCEPT", ProposalAnswer(True, None)),
        ("it", "ACCETTO 4", ProposalAnswer(True, 4)),
        ("fr", "REFUSER 2", ProposalAnswer(False, 2)),
        ("it", "RIFIUTO", ProposalAnswer(False, None)),
    ],
)
def test_reads_each_kind_in_each_language(lang: str, line: str, expected: object) -> None:
    assert is_press_line(line)
    assert parse_press(line, lang, "ENGLAND", variant="standard") == expected


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("PROPOSE", PressError.NO_POWER),
        ("PROPOSE ATLANTIS PEACE", PressError.NO_POWER),
        ("PROPOSE ENGLAND PEACE", PressError.SELF),
        ("PROPOSE FRANCE FRIENDSHIP", PressError.NO_KIND),
        ("PROPOSE FRANCE DMZ NOWHERE", PressError.BAD_PROVINCE),
        ("PROPOSE FRANCE SUPPORT A PAR H", PressError.NOT_A_MOVE),
        ("PROPOSE FRANCE SUPPORT ZZZ", PressError.BAD_ORDER),
        ("PROPOSE FRANCE SHARE BEL GERMANY", PressError.BAD_SHARE),
        ("PROPOSE FRANCE SHARE BEL ENGLAND BEL FRANCE", PressError.BAD_SHARE),
        ("PROPOSE FRANCE ALLIANCE AGAINST FRANCE", PressError.SELF),
        ("ACCEPT SOON", PressError.BAD_NUMBER),
    ],
)
def test_refusals_say_why(line: str, error: PressError) -> None:
    assert parse_press(line, "en", "ENGLAND", variant="standard") is error


def test_other_lines_are_not_negotiation() -> None:
    assert not is_press_line("A PAR - BUR")
    assert not is_press_line("PRESS TO FRANCE")


def test_render_reads_back_in_every_language_and_terms_round_trip() -> None:
    deals = [
        Proposal(Kind.PEACE, "ITALY", "AUSTRIA"),
        Proposal(Kind.SUPPORT, "ITALY", "AUSTRIA", order=Move(A, "VEN", "TRI")),
        Proposal(Kind.SHARE, "ITALY", "AUSTRIA", shares=(("SER", "AUSTRIA"), ("GRE", "ITALY"))),
        Proposal(Kind.ALLIANCE, "ITALY", "AUSTRIA", against="TURKEY"),
        Proposal(Kind.DMZ, "ITALY", "AUSTRIA", zone="TYR"),
    ]
    for deal in deals:
        for lang in ("en", "it", "fr"):
            text = render(deal, lang, variant="standard")
            assert parse_press(text, lang, "ITALY", variant="standard") == deal, text
        assert from_terms("ITALY", "AUSTRIA", deal.terms()) == deal
    assert render(deals[3], "it", variant="standard") == "PROPONI AUSTRIA ALLEANZA CONTRO TURCHIA"
