"""(b) An Italian game: a first ONP (mutual supports), a second ONP with the others' orders,
a call for a replacement that times out, the Sommossa, and its secret votes published only
when the game ends."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.bulletins.test_golden import check_golden
from tests.e2e.players import GM, GM_PASSWORD, address, form_game, holds, orders
from tests.e2e.table import Table
from tests.service.sample_game import SPRING_1901
from tests.standard_variant import STANDARD

pytestmark = pytest.mark.slow
NAME = "roma"
OTHERS = [p for p in STANDARD.powers if p != "ITALY"]
MINORITY_VOTE = "A ROM - TUS"  # Germany's vote for an Italian unit: secret until the end


def assert_secret(table: Table, texts: list[str], voter: str) -> None:
    for mail in table.mails():
        if mail.to == address(voter):
            continue
        for text in texts:
            assert text not in mail.text, (text, mail.to, mail.subject)


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
async def test_onp_replacement_and_sommossa(table: Table) -> None:
    await form_game(table, NAME, ["LINGUA it", "REGOLE italiane", "RITARDI 0 0"])

    # Spring 1901: Italy sends nothing -> first ONP, its units support each other
    for power in OTHERS:
        await orders(table, NAME, power, SPRING_1901[power])
    await table.at(table.deadline(NAME) + timedelta(minutes=1))
    spring = table.last_to(address("FRANCE"), "risultati S1901M")
    assert "primo ONP" in spring.body
    assert "Armata Roma APPOGGIA Armata Venezia.  (*ONP*)" in spring.body
    check_golden("e2e_roma_S1901M.it.txt", spring.subject, spring.body)

    # Fall 1901: still nothing from Italy; the others say what its fleet should do
    for power in OTHERS:
        lines = holds(table, NAME, power)
        if power in ("FRANCE", "AUSTRIA"):
            lines += ["PER ITALIA", "F NAP - ION", "FINE"]
        if power == "ENGLAND":
            lines += ["PER ITALIA", "F NAP - TYS", "FINE"]
        await orders(table, NAME, power, lines)
    assert_secret(table, ["F NAP - TYS", "Mar Tirreno"], "ENGLAND")
    await table.at(table.deadline(NAME) + timedelta(minutes=1))
    fall = table.last_to(address("GERMANY"), "risultati F1901M")
    assert "secondo ONP" in fall.body
    assert "si cerca un sostituto per Italia" in fall.body
    assert "Flotta Napoli -> Mar Ionio.  (*a maggioranza*)" in fall.body
    check_golden("e2e_roma_F1901M.it.txt", fall.subject, fall.body)
    suspended_until = table.deadline(NAME)
    assert suspended_until == table.clock.now + timedelta(weeks=1)

    # a week passes, nobody takes Italy: it is declared in Sommossa
    await table.at(suspended_until + timedelta(minutes=1))
    notice = table.last_to(address("TURKEY"), "avviso W1901A")
    assert "Italia è dichiarata in SOMMOSSA" in notice.body
    check_golden("e2e_roma_sommossa.it.txt", notice.subject, notice.body)

    # Winter 1901: nobody sends builds, the automatic builds apply
    await table.at(table.deadline(NAME) + timedelta(minutes=1))
    assert table.game(NAME).phase == "S1902M"

    # Spring 1902: the others vote for the Italian army in Rome
    for power in OTHERS:
        lines = holds(table, NAME, power)
        vote = {"FRANCE": "A ROM - APU", "AUSTRIA": "A ROM - APU", "GERMANY": MINORITY_VOTE}
        if power in vote:
            lines += ["PER ITALIA", vote[power], "FINE"]
        await orders(table, NAME, power, lines)
    await table.at(table.deadline(NAME) + timedelta(minutes=1))
    spring2 = table.last_to(address("RUSSIA"), "risultati S1902M")
    assert "Armata Roma -> Puglia.  (*sommossa*)" in spring2.body
    assert "Italia:      0 giorni di ritardo residui, in SOMMOSSA." in spring2.body
    # no mail but the voter's own receipt ever showed a Sommossa vote
    assert_secret(table, [MINORITY_VOTE, "Roma -> Toscana"], "GERMANY")

    # FINE alone would only close a block: the GM ends the game by FINE PARTITA, twice
    await table.send(GM, f"SIGNON GM {NAME} {GM_PASSWORD}\nFINE PARTITA\n")
    await table.send(GM, f"SIGNON GM {NAME} {GM_PASSWORD}\nFINE PARTITA\n")
    end = table.last_to(address("ITALY"), "fine della partita")
    assert f"S1902M Germania per Italia: {MINORITY_VOTE}" in end.body
    assert "F1901M Inghilterra per Italia: F NAP - TYS" in end.body
    check_golden("e2e_roma_end.it.txt", end.subject, end.body)
