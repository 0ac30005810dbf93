"""A game of the second map, Pure (seven capitals, every one adjacent to every other, four
centres win), played by mail from CREATE to the solo victory, with its own map drawing."""

from __future__ import annotations

from datetime import timedelta

import pytest

from judge.adjudicator.catalog import variant
from tests.e2e.players import address, form_game, orders
from tests.e2e.table import Table

pytestmark = pytest.mark.slow
NAME = "puro"
PURE = variant("pure")


async def _everyone(table: Table, moves: dict[str, list[str]]) -> None:
    """Orders from every power with units (holds unless ``moves`` says otherwise)."""
    units = table.game(NAME).position["units"]
    for power in PURE.powers:
        if units.get(power):
            await orders(table, NAME, power, moves.get(power, [f"{u} H" for u in units[power]]))
    await table.later(timedelta(minutes=5))


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
async def test_pure_is_played_by_mail(table: Table) -> None:
    await form_game(table, NAME, ["LANGUAGE en", "VARIANT pure"])
    game = table.game(NAME)
    assert game.variant == "pure"
    assert game.position["variant"] == "pure"
    assert game.position["units"] == {p: [u] for p, u in (
        ("AUSTRIA", "A VIE"), ("ENGLAND", "A LON"), ("FRANCE", "A PAR"), ("GERMANY", "A BER"),
        ("ITALY", "A ROM"), ("RUSSIA", "A MOS"), ("TURKEY", "A CON"))}

    # France takes London with German support: every capital borders every other (the
    # standard map would refuse Paris - London and Berlin's support)
    await _everyone(table, {"FRANCE": ["A PAR - LON"], "GERMANY": ["A BER S A PAR - LON"]})
    assert "London" in table.last_to(address("ENGLAND"), "S1901M results").body
    game = table.game(NAME)
    # the English army had nowhere to go: every other capital is held, Paris is where the
    # attack came from; so there is no retreat phase
    assert "ENGLAND" not in game.position["units"]
    assert game.position["units"]["FRANCE"] == ["A LON"]
    assert game.phase == "F1901M"

    # Fall: Germany takes Rome with Russian support; the Italian army's only way out is Paris,
    # empty since France moved (Berlin is where the attack came from)
    await _everyone(table, {"GERMANY": ["A BER - ROM"], "RUSSIA": ["A MOS S A BER - ROM"]})
    game = table.game(NAME)
    assert game.phase == "F1901R"
    assert game.position["dislodged"] == {"ITALY": {"A ROM": ["PAR"]}}
    await orders(table, NAME, "ITALY", ["A ROM R PAR"])
    await table.later(timedelta(days=2))
    game = table.game(NAME)
    centres = game.position["centers"]
    assert centres["FRANCE"] == ["LON"] and centres["GERMANY"] == ["BER", "ROM"]
    assert centres["ITALY"] == ["PAR"] and "ENGLAND" not in centres
    assert game.phase == "W1901A"

    # Winter: Germany builds on its free home centre; Pure has no fleets at all
    await orders(table, NAME, "GERMANY", ["F BER B", "A BER B"])
    await table.later(timedelta(days=2))
    game = table.game(NAME)
    assert game.phase == "S1902M"
    assert game.position["units"]["GERMANY"] == ["A BER", "A ROM"]
    assert game.position["units"]["ITALY"] == ["A PAR"]
    assert table.last_to(address("AUSTRIA"), "W1901A results")
    # four centres win Pure (the standard 18 would never be reached on seven)
    assert game.options["end"]["centres"] == 4
