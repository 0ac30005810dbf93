"""(c) A French game: orders in seed 000's notation, press, grey press, and a draw vote that
ends the game; bulletins in French with the seed's outcome marks."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from judge.bulletins.names import place_abbr
from tests.bulletins.test_golden import check_golden
from tests.e2e.players import address, form_game, orders, password
from tests.e2e.table import Table
from tests.service.sample_game import SPRING_1901
from tests.standard_variant import STANDARD

pytestmark = pytest.mark.slow
NAME = "paris"


def french(order: str) -> str:
    """``A MAR - SPA`` -> ``A TOU-ESP``: seed 000's abbreviations and compact dash."""
    text = re.sub(r"\b[A-Z]{3}(?:/[A-Z]{2})?\b", lambda m: place_abbr(m.group(0), "fr", "standard"), order)
    return text.replace(" - ", "-")


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
async def test_press_grey_press_and_draw(table: Table) -> None:
    await form_game(table, NAME, ["LANGUE fr", "PRESSE grise", "REGLES livre"])

    # white press: England learns it is France writing
    await table.send(address("FRANCE"), "\n".join([
        f"SIGNON FRANCE {NAME} {password('FRANCE')}",
        "PRESSE A ANGLETERRE", "La Manche restera vide ce printemps.", "FIN PRESSE"]) + "\n")
    press = [m for m in table.mails_to(address("ENGLAND"))
             if "La Manche restera vide" in m.body]
    assert len(press) == 1
    assert "France" in press[0].body or "FRANCE" in press[0].body
    assert not [m for m in table.mails_to(address("GERMANY"))
                if "La Manche restera vide" in m.body]

    # grey press: everyone reads it, nobody learns who wrote it
    await table.send(address("GERMANY"), "\n".join([
        f"SIGNON GERMANY {NAME} {password('GERMANY')}",
        "DIFFUSION GRISE", "Méfiez-vous de la Russie.", "FIN PRESSE"]) + "\n")
    # grey press leaves with the next hourly batch, never in the second of the mail
    assert not [m for m in table.mails_to(address("ITALY")) if "Méfiez-vous" in m.body]
    await table.later(timedelta(hours=1))
    for power in STANDARD.powers:
        if power == "GERMANY":
            continue
        grey = [m for m in table.mails_to(address(power)) if "Méfiez-vous" in m.body]
        assert len(grey) == 1, power
        assert "Allemagne" not in grey[0].text and "GERMANY" not in grey[0].text
        assert address("GERMANY") not in grey[0].text

    for power in STANDARD.powers:
        await orders(table, NAME, power, [french(o) for o in SPRING_1901[power]])
    await table.later(timedelta(minutes=5))
    spring = table.last_to(address("ITALY"), "résultats S1901M")
    assert "AUTRICHE:   A VIE=TRI,   A BUD:GAL,   F TRI=MON" in spring.body
    assert "RUSSIE:   A MOS=UKR,   A VAR:GAL,   F STP CS=BOT,   F ODE:NOI" in spring.body
    check_golden("e2e_paris_S1901M.fr.txt", spring.subject, spring.body)

    # every power votes the draw (secretly); the next wake-up ends the game
    for power in STANDARD.powers:
        await table.send(address(power),
                         f"SIGNON {power} {NAME} {password(power)}\nNULLE\n")
    for mail in table.mails():
        assert "NULLE" not in mail.subject
    await table.later(timedelta(minutes=5))
    end = table.last_to(address("TURKEY"), "fin de la partie")
    assert "La partie se termine par une nulle entre" in end.body
    check_golden("e2e_paris_end.fr.txt", end.subject, end.body)
    assert table.game(NAME).status == "finished"
