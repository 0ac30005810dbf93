"""The people at the table: a GM and seven players, each with a mail address and password."""

from __future__ import annotations

from tests.e2e.table import Table
from tests.standard_variant import STANDARD

GM = "gm@players.test"
GM_PASSWORD = "gm-secret"


def address(power: str) -> str:
    return f"{power.lower()}@players.test"


def password(power: str) -> str:
    return f"pw-{power.lower()}"


ALL_ADDRESSES = [GM, *(address(p) for p in STANDARD.powers)]


async def form_game(table: Table, name: str, options: list[str]) -> None:
    """The GM creates the game, the seven players join (each wanting a different power, so
    the preference assignment gives everyone their first choice), and the GM starts it."""
    await table.send(GM, "\n".join([f"CREATE {name} {GM_PASSWORD}",
                                    "ASSIGNMENT preferences", *options]) + "\n")
    for power in STANDARD.powers:
        await table.send(address(power), f"JOIN {name} {password(power)} {power}\n")
    await table.send(GM, f"SIGNON GM {name} {GM_PASSWORD}\nSTART\n")
    game = table.game(name)
    assert game.status == "active", game.status


async def orders(table: Table, name: str, power: str, lines: list[str]) -> None:
    await table.send(address(power),
                     "\n".join([f"SIGNON {power} {name} {password(power)}", *lines]) + "\n")


def golden_text(mail_subject: str, body: str) -> str:
    return f"Subject: {mail_subject}\n\n{body}"


def holds(table: Table, name: str, power: str) -> list[str]:
    """A hold order for every unit the power has now (enough to count as orders sent)."""
    return [f"{unit} H" for unit in table.game(name).position["units"].get(power, [])]
