"""Issue 30 point 6: a player's record over his games (phases played and missed, powers
abandoned, replacements), shown by SUMMARY and the archive; a GM may require a minimum at JOIN.
On SQLite and PostgreSQL; the clock is the harness's ``now``."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from judge.archive.webapp import ArchiveApp
from judge.rules.reliability import Record
from judge.service import wakeups
from judge.storage import Database, recordrepo
from tests.archive.asgi import get
from tests.service.commands_harness import GM, PLAYERS, Harness, password_of
from tests.service.games import send
from tests.service.sample_game import SPRING_1901


def test_the_record_in_the_pure_rule() -> None:
    assert Record(played=9, missed=1).percent == 90
    assert Record().percent is None and Record().meets(100)  # a newcomer may join
    assert not Record(played=8, missed=2).meets(90) and Record(played=9, missed=1).meets(90)


def _play_spring_without(h: Harness, db: Database, late: str) -> None:
    """Every power but ``late``'s sends orders; the deadline processes the phase."""
    game = h.game("alpha")
    for power, orders in SPRING_1901.items():
        if power != late:
            send(db, game.id, power, orders, h.now)
    assert game.deadline is not None
    reports = wakeups.run_due(db, h.settings, game.deadline + timedelta(minutes=1))
    assert h.game("alpha").phase == "F1901M", reports


def test_summary_and_archive_show_each_players_record(db: Database) -> None:
    h = Harness(db)
    powers = h.started_game(options="RULES rulebook\nLATEDAYS 0")
    late = next(p for p, a in powers.items() if a == PLAYERS[0])
    _play_spring_without(h, db, late)
    with db.session() as s:
        got = recordrepo.records(s, [h.game("alpha").gm_account_id or 0])
    assert got == {}  # the GM played nothing
    summary = " ".join(h.reply(PLAYERS[1], "SUMMARY alpha").split())
    assert summary.count("1 of 1 phases played, 0 abandoned, 0 replaced") == 6, summary
    assert summary.count("0 of 1 phases played, 0 abandoned, 0 replaced") == 1, summary
    html = asyncio.run(get(ArchiveApp(db), "/games/alpha"))[2].decode()
    assert html.count("1 of 1 phases played") == 6 and "0 of 1 phases played" in html
    # the late player resigns: an abandoned power on his record
    h.mail(PLAYERS[0], f"SIGNON {late} alpha {password_of(PLAYERS[0])}\nRESIGN")
    with db.session() as s:
        account = h.seats("alpha")[late].account_id
        assert account is not None
        assert recordrepo.records(s, [account])[account] == Record(0, 1, 1, 0, 1)


def test_in_a_blind_game_summary_shows_no_record(db: Database) -> None:
    h = Harness(db)
    h.started_game(options="RULES rulebook\nLATEDAYS 0\nBLIND yes")
    _play_spring_without(h, db, "TURKEY")
    summary = h.reply(PLAYERS[1], "SUMMARY alpha")
    assert "phases played" not in summary


def test_a_gm_may_require_a_minimum_record_at_join(db: Database) -> None:
    h = Harness(db)
    powers = h.started_game(options="RULES rulebook\nLATEDAYS 0")
    late = next(p for p, a in powers.items() if a == PLAYERS[0])
    _play_spring_without(h, db, late)
    h.mail(GM, "CREATE beta gmpass\nAFFIDABILITA MINIMA 90")
    refused = " ".join(h.reply(PLAYERS[0], "JOIN beta pw").split())
    assert "asks for players who ordered in at least 90% of the phases" in refused, refused
    assert "your record is 0%" in refused
    assert "You joined game beta" in h.reply(PLAYERS[1], "JOIN beta pw")
    newcomer = "new@example.org"
    h.confirm(newcomer)
    assert "You joined game beta" in h.reply(newcomer, "JOIN beta pw")
