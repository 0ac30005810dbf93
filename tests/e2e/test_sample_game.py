"""(a) The sample game of seed 001 (2008 rulebook), Spring 1901 to the Winter 1901 builds,
played by mail in English: golden bulletins, and no order leaks before adjudication."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.bulletins.test_golden import check_golden
from tests.e2e.players import GM, address, form_game, orders
from tests.e2e.table import Table
from tests.service.sample_game import FALL_1901, SPRING_1901, WINTER_1901
from tests.standard_variant import STANDARD

pytestmark = pytest.mark.slow


def assert_no_foreign_orders(table: Table, phase_orders: dict[str, list[str]]) -> None:
    """Before adjudication nobody but the sender may see a power's orders (not the GM either)."""
    for mail in table.mails():
        for power, given in phase_orders.items():
            if mail.to == address(power):
                continue
            for order in given:
                assert order not in mail.body, (power, order, mail.to, mail.subject)


async def play_phase(table: Table, phase: str, phase_orders: dict[str, list[str]]) -> str:
    for power, given in phase_orders.items():
        await orders(table, "sample", power, given)
    assert_no_foreign_orders(table, phase_orders)
    # every order is in: the next wake-up processes the phase before its deadline
    await table.later(timedelta(minutes=10))
    bulletin = table.last_to(address("ENGLAND"), f"{phase} results")
    for reader in [GM, *(address(p) for p in STANDARD.powers)]:
        assert table.last_to(reader, f"{phase} results").body == bulletin.body
    check_golden(f"e2e_sample_{phase}.en.txt", bulletin.subject, bulletin.body)
    return bulletin.body


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
async def test_sample_game_by_mail(table: Table) -> None:
    await form_game(table, "sample", ["LANGUAGE en", "RULES rulebook"])
    spring = await play_phase(table, "S1901M", SPRING_1901)
    assert "Army Budapest -> Galicia.  (*bounce*)" in spring
    assert ":: Deadline: F1901M" in spring
    fall = await play_phase(table, "F1901M", FALL_1901)
    assert "Fleet North Sea CONVOY Army Yorkshire -> Norway." in fall
    assert "Russia:   6" in fall
    winter = await play_phase(table, "W1901A", WINTER_1901)
    assert "Build Fleet Edinburgh." in winter
    game = table.game("sample")
    assert game.phase == "S1902M"
    assert sorted(game.position["units"]["GERMANY"]) == ["A HOL", "A MUN", "A RUH", "F DEN",
                                                         "F KIE"]
