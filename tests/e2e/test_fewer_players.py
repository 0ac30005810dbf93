"""Seed 001's games for fewer than seven players, played by mail over LMTP on both databases.

The three-player game: PLAYERS 3 at CREATE, three JOINs with preference lists over powers
(read over the seats), one orders mail per player carrying the orders of all his powers, and
a player who sends nothing: each of his two powers is charged its own late day, then has its
own ONP. The two-player game (the 1914 war): it starts in Spring 1914 with Italy neutral; the
lot for Italy is drawn, recorded and announced as the game reaches the Fall 1914 adjustments,
and from Spring 1915 the winner orders Italy in the same mail as his other powers.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from sqlalchemy import select

from judge.storage.archive_queries import game_archive
from judge.storage.gamerepo import current_orders
from judge.storage.models import Account, AuditLog, Seat
from tests.e2e.players import GM, GM_PASSWORD
from tests.e2e.table import Table

pytestmark = pytest.mark.slow

ANN, BOB, CAT = "ann@players.test", "bob@players.test", "cat@players.test"


def _holders(table: Table, name: str) -> dict[str, list[str]]:
    """Address -> the powers that address holds, as stored."""
    game = table.game(name)
    with table.db.session() as s:
        rows = s.execute(select(Account.address, Seat.power)
                         .join(Seat, Seat.account_id == Account.id)
                         .where(Seat.game_id == game.id)).all()
    out: dict[str, list[str]] = {}
    for address, power in rows:
        out.setdefault(address, []).append(power)
    return {a: sorted(p) for a, p in out.items()}


def _statuses(table: Table, name: str) -> dict[str, str]:
    game = table.game(name)
    with table.db.session() as s:
        return {r.power: r.status for r in s.scalars(select(Seat).where(Seat.game_id == game.id))}


def _holds(table: Table, name: str, powers: list[str]) -> list[str]:
    units = table.game(name).position["units"]
    return [f"{u} H" for p in powers for u in units.get(p, [])]


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
async def test_three_players_hold_seven_powers(table: Table) -> None:
    name = "tre"
    await table.send(GM, f"CREATE {name} {GM_PASSWORD}\nASSIGNMENT preferences\n"
                         "PLAYERS 3\nLATEDAYS 1 1\n")
    assert table.game(name).variant == "standard-3"
    # preferences name powers; a seat ranks where its first-named power does
    await table.send(ANN, f"JOIN {name} pw-ann ENGLAND\n")
    await table.send(BOB, f"JOIN {name} pw-bob RUSSIA FRANCE\n")
    await table.send(CAT, f"JOIN {name} pw-cat TURKEY\n")
    await table.send(GM, f"SIGNON GM {name} {GM_PASSWORD}\nSTART\n")
    assert table.game(name).status == "active"
    assert _holders(table, name) == {ANN: ["AUSTRIA", "ENGLAND", "GERMANY"],
                                     BOB: ["ITALY", "RUSSIA"], CAT: ["FRANCE", "TURKEY"]}
    started = table.last_to(ANN, "")
    assert "You play Austria, England, Germany." in started.body
    record = table.game(name).options["assignment_record"]
    assert sorted(record["powers"].values()) == [
        "AUSTRIA+ENGLAND+GERMANY", "FRANCE+TURKEY", "ITALY+RUSSIA"]

    # one mail (signed on as any one of the powers) carries the orders of all three
    await table.send(ANN, f"SIGNON ENGLAND {name} pw-ann\nF LON - NTH\nA VIE - GAL\n"
                          "A BER - SIL\n")
    reply = table.last_to(ANN, "")
    assert reply.body.count("on file") == 3, reply.body
    await table.send(BOB, "\n".join([f"SIGNON RUSSIA {name} pw-bob",
                                     *_holds(table, name, ["ITALY", "RUSSIA"])]) + "\n")
    # Cat sends nothing: France and Turkey are late, one late day each
    await table.at(table.deadline(name) + timedelta(minutes=1))
    notice = table.last_to(ANN, "")
    assert "France is late" in notice.body and "Turkey is late" in notice.body, notice.body
    assert table.game(name).phase == "S1901M"
    # ... then, with no late day left, each has its own first ONP
    await table.at(table.deadline(name) + timedelta(minutes=1))
    game = table.game(name)
    assert game.phase == "F1901M"
    statuses = _statuses(table, name)
    assert statuses["FRANCE"] == "onp1" and statuses["TURKEY"] == "onp1"
    assert statuses["ENGLAND"] == "active" and statuses["ITALY"] == "active"
    bulletin = table.last_to(BOB, "S1901M results").body
    assert "France sent no orders" in bulletin and "Turkey sent no orders" in bulletin
    # the bulletin says who holds which powers
    assert "(with England, Germany)" in bulletin and "(with Italy)" in bulletin
    units = game.position["units"]
    assert "F NTH" in units["ENGLAND"] and "A GAL" in units["AUSTRIA"]
    assert "A SIL" in units["GERMANY"]
    # and the archive says who holds which powers
    archived = game_archive(table.db, name)
    assert archived is not None
    shown = {p["power"]: p["with"] for p in archived["players"]}
    assert shown["ENGLAND"] == ["AUSTRIA", "GERMANY"] and shown["TURKEY"] == ["FRANCE"]


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
async def test_two_players_draw_the_lot_for_italy(table: Table) -> None:
    name = "guerra"
    await table.send(GM, f"CREA {name} {GM_PASSWORD}\nLINGUA en\nGIOCATORI 2\n"
                         "ASSEGNAZIONE preferenze\n")
    game = table.game(name)
    assert game.variant == "standard-2" and game.options["end"]["centres"] == 24
    await table.send(ANN, f"JOIN {name} pw-ann ENGLAND\n")
    await table.send(BOB, f"JOIN {name} pw-bob GERMANY\n")
    await table.send(GM, f"SIGNON GM {name} {GM_PASSWORD}\nSTART\n")
    game = table.game(name)
    assert game.phase == "S1914M"
    assert _holders(table, name) == {ANN: ["ENGLAND", "FRANCE", "RUSSIA"],
                                     BOB: ["AUSTRIA", "GERMANY", "TURKEY"]}
    assert "ITALY" in game.position["units"]  # neutral: its units stand and hold

    async def both(moves_ann: list[str], moves_bob: list[str]) -> None:
        await table.send(ANN, "\n".join([f"SIGNON FRANCE {name} pw-ann", *moves_ann]) + "\n")
        await table.send(BOB, "\n".join([f"SIGNON AUSTRIA {name} pw-bob", *moves_bob]) + "\n")
        await table.later(timedelta(minutes=5))

    # Italian orders are nobody's: a line for an Italian unit is refused
    await table.send(BOB, f"SIGNON TURKEY {name} pw-bob\nA ROM - APU\n")
    refused = table.last_to(BOB, "").body
    assert "Orders for S1914M on file" not in refused and "A ROM" in refused, refused
    # England sails for Norway (a neutral centre): the Fall 1914 adjustments will be played
    await both(["F EDI - NWG", *_holds(table, name, ["FRANCE", "RUSSIA"]),
                "F LON H", "A LVP H"],
               _holds(table, name, ["AUSTRIA", "GERMANY", "TURKEY"]))
    assert table.game(name).phase == "F1914M"
    assert "lot_record" not in table.game(name).options

    async def fall_1914() -> dict:
        await both(["F NWG - NWY", *_holds(table, name, ["FRANCE", "RUSSIA"]),
                    "F LON H", "A LVP H"],
                   _holds(table, name, ["AUSTRIA", "GERMANY", "TURKEY"]))
        game = table.game(name)
        assert game.phase == "W1914A"
        record = game.options["lot_record"]
        # seeded and recorded: the draw can be checked from the record
        assert random.Random(record["seed"]).choice(record["seats"]) == record["winner"]
        assert record["power"] == "ITALY" and record["joins"] in ("ENGLAND", "AUSTRIA")
        winner = ANN if record["joins"] == "ENGLAND" else BOB
        joined = "England" if winner == ANN else "Austria"
        bulletin = table.last_to(ANN, "F1914M results").body
        assert "The lot for Italy is drawn" in bulletin and f"player of {joined}" in bulletin
        assert "ITALY" in _holders(table, name)[winner]
        return dict(record)

    drawn = await fall_1914()
    # a ROLLBACK to before the lot undoes it: no record, Italy has no seat, the audit keeps it
    await table.send(GM, f"SIGNON GM {name} {GM_PASSWORD}\nROLLBACK F1914M\n")
    game = table.game(name)
    assert game.phase == "F1914M" and "lot_record" not in game.options
    assert not any("ITALY" in powers for powers in _holders(table, name).values())
    with table.db.session() as s:
        undone = s.scalars(select(AuditLog).where(AuditLog.game_id == game.id,
                                                  AuditLog.action == "lot.undone")).all()
        assert [u.detail["record"] for u in undone] == [drawn]
    # played again, the game reaches the adjustments and the lot is drawn anew (a new seed)
    again = await fall_1914()
    assert again["seed"] != drawn["seed"]
    winner = ANN if again["joins"] == "ENGLAND" else BOB
    assert not any("ITALY" in powers for who, powers in _holders(table, name).items()
                   if who != winner)

    # Winter: England builds on Edinburgh, its one free home centre
    await table.send(ANN, f"SIGNON ENGLAND {name} pw-ann\nF EDI B\n")
    await table.later(timedelta(days=2))
    game = table.game(name)
    assert game.phase == "S1915M"
    assert "F EDI" in game.position["units"]["ENGLAND"]
    # from Spring 1915 the winner orders Italy in the same mail as his other powers
    password = "pw-ann" if winner == ANN else "pw-bob"
    first = "FRANCE" if winner == ANN else "AUSTRIA"
    await table.send(winner, f"SIGNON {first} {name} {password}\nA ROM - APU\n")
    assert "Orders for S1915M on file" in table.last_to(winner, "").body
    with table.db.session() as s:
        row = current_orders(s, game.id, "S1915M", "ITALY")
        assert row is not None and row.orders == ["A ROM - APU"]
    # a ROLLBACK to the phase the lot was drawn on reaching keeps it (and Italy's seat)
    await table.send(GM, f"SIGNON GM {name} {GM_PASSWORD}\nROLLBACK W1914A\n")
    game = table.game(name)
    assert game.phase == "W1914A" and game.options["lot_record"] == again
    assert "ITALY" in _holders(table, name)[winner]
