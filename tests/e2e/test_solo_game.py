"""A solo game by mail (issue 14, point 5a): one person against six computer powers.

CREATE with the option ``BOTS FRANCE`` and START: the creator plays France with the game's
password, the six other powers are the computer's. The computer powers' orders are on file from
the start of every phase (through the same use case as a player's mail), so the phase is
processed by the very mail that brings France's orders, with the usual bulletins and maps,
and the computer powers' orders are marked as theirs. Several phases are played, in English
and in Italian, over real LMTP on both databases.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from judge.adjudicator.jsonio import position_from_json
from judge.bots.engine import bot_orders
from judge.storage.models import OrderSet, Press, Turn
from judge.storage.models_bots import BotSeat
from tests.e2e.players import GM, GM_PASSWORD
from tests.e2e.table import Table
from tests.standard_variant import STANDARD

pytestmark = pytest.mark.slow
HUMAN = "FRANCE"


def _my_orders(table: Table, name: str) -> list[str]:
    """France's orders for the current phase: the plain engine's choice (any phase kind)."""
    import random

    game = table.game(name)
    position = position_from_json(game.position)
    return [str(o) for o in bot_orders(position, HUMAN, random.Random(game.phase), plain=True)]


WORDS = {
    "en": {"create": "CREATE", "lang": "LANGUAGE en", "bots": f"BOTS {HUMAN}", "start": "START",
           "signon": "SIGNON", "results": "{phase} results", "computer": "(*computer*)",
           "played": b"played by the computer", "letter": ("letter from", "news from")},
    "it": {"create": "CREA", "lang": "LINGUA it", "bots": "AUTOMI FRANCIA", "start": "INIZIA",
           "signon": "ACCEDI", "results": "risultati {phase}", "computer": "(*computer*)",
           "played": b"giocata dal computer", "letter": ("lettera da", "notizie da")},
}


async def _play(table: Table, name: str, lang: str, lines: list[str]) -> None:
    signon = WORDS[lang]["signon"]
    await table.send(GM, "\n".join([f"{signon} {HUMAN} {name} {GM_PASSWORD}", *lines]) + "\n")


def _rows(table: Table, model: Any, name: str) -> list[Any]:
    game = table.game(name)
    with table.db.session() as s:
        return list(s.scalars(select(model).where(model.game_id == game.id)))


@pytest.mark.parametrize(("database_url", "lang"), [("sqlite", "en"), ("postgresql", "en"),
                                                    ("postgresql", "it")],
                         indirect=["database_url"])
async def test_solo_game_against_six_computer_powers(table: Table, lang: str) -> None:
    name = "solo"
    w = WORDS[lang]
    await table.send(GM, f"{w['create']} {name} {GM_PASSWORD}\n{w['lang']}\n{w['bots']}\n"
                     f"{w['start']}\n")
    game = table.game(name)
    assert game.status == "active" and game.phase == "S1901M"
    assert game.options["bots"]["human"] == HUMAN
    bots = {row.power: row.personality for row in _rows(table, BotSeat, name)}
    assert sorted(bots) == sorted(p for p in STANDARD.powers if p != HUMAN)
    assert len(set(bots.values())) >= 4  # every character before one repeats
    # the computer powers ordered at the start of the phase, through the use case
    sets = [r for r in _rows(table, OrderSet, name) if r.phase == "S1901M"]
    assert sorted(r.power for r in sets) == sorted(bots)
    assert all(r.submitted_by_id is None and r.orders for r in sets)

    played: list[str] = []
    for _ in range(6):
        game = table.game(name)
        if game.status != "active":
            break
        phase = game.phase
        await _play(table, name, lang, _my_orders(table, name))
        game = table.game(name)
        # processed by the mail itself: no deadline, no wake-up
        assert game.phase != phase, phase
        played.append(phase)
        results = table.last_to(GM, str(w["results"]).format(phase=phase))
        if phase.endswith("M"):
            assert str(w["computer"]) in results.body
    turns = {t.phase: t for t in _rows(table, Turn, name)}
    assert {"S1901M", "F1901M", "S1902M"} <= set(turns)
    spring = turns["S1901M"]
    for power in bots:
        assert {r["source"] for r in spring.outcomes[power]} == {"computer"}
    assert {r["source"] for r in spring.outcomes[HUMAN]} == {"submitted"}
    # the movement bulletins carry the map
    subject = str(w["results"]).format(phase="S1901M").encode()
    raw = [c.raw for c in table.relay.messages if subject in c.raw]
    assert raw and all(b"Content-Disposition: attachment" in r for r in raw)
    assert all(w["played"] in r for r in raw)
    # the computer powers wrote: proposals to France in Spring, or news for everyone
    letters = _rows(table, Press, name)
    assert letters, "the computer powers wrote nothing"
    assert all(p.from_power in bots for p in letters)
    assert any(m for m in table.mails_to(GM) if any(k in m.subject for k in w["letter"]))
