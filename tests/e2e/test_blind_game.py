"""(d) A blind game: players talk through anonymous addresses at the judge, and no mail the
judge sends -- bulletin, reply, press, error -- ever carries a real address but its own
recipient's."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from tests.e2e.players import (
    ALL_ADDRESSES,
    GM,
    GM_PASSWORD,
    address,
    form_game,
    orders,
    password,
)
from tests.e2e.table import Table
from tests.service.sample_game import SPRING_1901
from tests.standard_variant import STANDARD

pytestmark = pytest.mark.slow
NAME = "ombra"


def anonymous(power: str) -> str:
    return f"{NAME}-{power.lower()}@example.org"


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
async def test_no_real_address_ever_leaves(table: Table) -> None:
    await form_game(table, NAME, ["LANGUAGE en", "BLIND yes", "PRESS white"])

    # press through the judge: to a relay address (England's own secret in it: the start
    # notice told England alone), and with PRESS TO
    start = next(m for m in table.mails_to(address("ENGLAND")) if "has started" in m.body)
    secret = re.search(rf"{NAME}-power-([0-9a-f]+)@", start.body)
    assert secret is not None
    await table.send(address("ENGLAND"), "Shall we share the North Sea?\n",
                     subject="hello", to=f"{NAME}-france-{secret.group(1)}@example.org")
    relayed = [m for m in table.mails_to(address("FRANCE")) if "North Sea" in m.body]
    assert len(relayed) == 1
    # the way to answer (France's own secret), and nothing more
    assert f"{NAME}-england-" in relayed[0].text
    # a mail from England's real address to the plain anonymous address is not press
    await table.send(address("ENGLAND"), "forged?\n", subject="x", to=anonymous("FRANCE"))
    assert not [m for m in table.mails_to(address("FRANCE")) if "forged?" in m.body]
    await table.send(address("FRANCE"), "\n".join([
        f"SIGNON FRANCE {NAME} {password('FRANCE')}", "PRESS TO ENGLAND", "Agreed: it stays empty.",
        "ENDPRESS"]) + "\n")
    # a wrong password and a mistaken order get error replies
    await table.send(address("GERMANY"), f"SIGNON GERMANY {NAME} wrong\nA BER - KIE\n")
    await orders(table, NAME, "ITALY", [*SPRING_1901["ITALY"], "A ROM - MOS"])
    # the GM reads the game status
    await table.send(GM, f"SIGNON GM {NAME} {GM_PASSWORD}\nLIST {NAME}\n")

    for power in STANDARD.powers:
        await orders(table, NAME, power, SPRING_1901[power])
    await table.later(timedelta(minutes=5))
    bulletin = table.last_to(address("TURKEY"), "S1901M results")
    assert "Army Vienna -> Trieste." in bulletin.body

    mails = table.mails()
    assert len(mails) > 20
    for mail in mails:
        for real in ALL_ADDRESSES:
            if real == mail.to:
                continue
            assert real not in mail.text.lower(), (real, mail.to, mail.subject)
