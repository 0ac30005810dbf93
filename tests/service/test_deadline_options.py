"""Issue 30 points 1 and 2 through mail: CLOCK and DAYS OFF are game options in three
languages; the start notice, SUMMARY and every results bulletin show the deadline they give.
The clock is the harness's ``now``, moved by the test; on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from judge.service import deadlines, wakeups
from judge.service.games import options
from judge.storage import Database
from judge.storage.models import Game, OutboundMail, Seat
from tests.service.commands_harness import GM, Harness
from tests.service.games import SETTINGS, new_game, send
from tests.service.games import START as GAMES_START
from tests.service.sample_game import SPRING_1901

ROME = ZoneInfo("Europe/Rome")
OPTIONS = {
    "en": "TIMEZONE Europe/Rome\nCLOCK 21:00\nDAYS OFF thursday sat sun",
    "it": "FUSO Europe/Rome\nORARIO 21:00\nGIORNI LIBERI giovedì sab dom",
    "fr": "FUSEAU Europe/Rome\nHORAIRE 21h00\nJOURS LIBRES jeudi sam dim",
}
SHOWN = {
    "en": ("Deadlines fall at M 21:00, R 21:00, A 21:00.", "No deadline on: Thu, Sat, Sun."),
    "it": ("Le scadenze cadono alle M 21:00, R 21:00, A 21:00.",
           "Nessuna scadenza: gio, sab, dom."),
    "fr": ("Les échéances tombent à M 21:00, R 21:00, A 21:00.",
           "Aucune échéance : jeu, sam, dim."),
}
SUMMARY = {"en": "SUMMARY alpha", "it": "RIASSUNTO alpha", "fr": "BILAN alpha"}


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_clock_and_days_off_set_the_deadline_the_start_notice_shows(
        db: Database, lang: str) -> None:
    h = Harness(db)
    players = h.started_game(options=OPTIONS[lang], lang=lang)
    game = h.game("alpha")
    assert options(game)["clock"] == {"M": "21:00", "R": "21:00", "A": "21:00"}
    assert options(game)["days_off"] == ["thu", "sat", "sun"]
    # started Monday 1 March 2027, 13:00 in Rome: 72 h later is Thursday 13:00, the first
    # 21:00 after it is Thursday's, a day off: Friday 5 March 21:00
    assert game.deadline is not None
    assert game.deadline.astimezone(ROME).replace(tzinfo=None) == datetime(2027, 3, 5, 21, 0)
    started = [m for m in h.outbox if m.to == players["FRANCE"] and m.kind != "reply"]
    assert any("2027-03-05 21:00 CET" in m.body for m in started), started
    summary = " ".join(h.reply(players["FRANCE"], SUMMARY[lang]).split())
    for line in SHOWN[lang]:
        assert line in summary, summary


def test_the_results_bulletin_announces_the_next_deadline_on_the_clock(db: Database) -> None:
    h = Harness(db)
    players = h.started_game(options=OPTIONS["en"])
    h.now = datetime(2027, 3, 5, 20, 0, tzinfo=UTC)  # Friday 21:00 in Rome: the deadline
    sent = h.mail(GM, "SIGNON GM alpha gmpass\nPROCESS S1901M")
    game = h.game("alpha")
    assert game.phase == "F1901M"
    # 72 h after Friday 21:00 is Monday 21:00: at least that long, so Monday it is
    assert game.deadline == datetime(2027, 3, 8, 20, 0, tzinfo=UTC)
    bulletins = [m for m in sent if m.to == players["ENGLAND"] and m.kind != "reply"]
    assert any("Mon Mar 08 2027 21:00:00 CET" in m.body for m in bulletins), bulletins


def test_per_kind_clock_and_clearing(db: Database) -> None:
    h = Harness(db)
    h.mail(GM, "CREATE alpha gmpass\nCLOCK M=21:00 R=12:00\nCLOCK A=0930\nDAYS OFF sun "
               "2027-12-25")
    assert options(h.game("alpha"))["clock"] == {"M": "21:00", "R": "12:00", "A": "09:30"}
    assert options(h.game("alpha"))["days_off"] == ["sun", "2027-12-25"]
    reply = h.reply(GM, "SIGNON GM alpha gmpass\nCLOCK no\nDAYS OFF no")
    assert "not allowed" not in reply, reply
    assert options(h.game("alpha"))["clock"] == {}
    assert options(h.game("alpha"))["days_off"] == []


@pytest.mark.parametrize("line", ["CLOCK 25:00", "CLOCK M=21:00 X=10:00", "DAYS OFF someday",
                                  "DAYS OFF 2027-02-30",
                                  "DAYS OFF mon tue wed thu fri sat sun"])
def test_bad_clock_and_days_off_are_refused(db: Database, line: str) -> None:
    h = Harness(db)
    reply = h.reply(GM, f"CREATE alpha gmpass\n{line}")
    assert "not allowed" in reply, reply
    assert not options(h.game("alpha")).get("days_off")
    assert not options(h.game("alpha")).get("clock")


def test_a_late_day_that_ends_on_a_day_off_moves_to_the_next_day_not_off(db: Database) -> None:
    """Under the italian rules a late day moves the deadline 24 hours; landing on a day off it
    moves on to the next day that is not off, and the player is still charged one day."""
    gid = new_game(db, language="it", days_off=["fri", "sat"])
    for power, given in SPRING_1901.items():
        if power != "ITALY":
            send(db, gid, power, given, GAMES_START)
    with db.session() as s:
        deadline = s.get(Game, gid).deadline
    # Monday 2 March 2026 13:00 in Rome + 72 h: Thursday 5 March 13:00, not a day off
    assert deadline.astimezone(ROME).replace(tzinfo=None) == datetime(2026, 3, 5, 13, 0)
    reports = wakeups.run_due(db, SETTINGS, deadline + timedelta(minutes=1))
    assert [r.action for r in reports] == ["extended"]
    with db.session() as s:
        game = s.get(Game, gid)
        italy = s.scalar(select(Seat).where(Seat.game_id == gid, Seat.power == "ITALY"))
        assert italy.late_days_used == 1
        # Friday and Saturday are off: Sunday 8 March 13:00
        assert game.deadline.astimezone(ROME).replace(tzinfo=None) == datetime(2026, 3, 8, 13, 0)
    assert "dom mar 08 2026 13:00:00 CET" in reports[0].body


def test_reminders_at_the_hours_the_game_sets_only_to_players_without_orders(
        db: Database) -> None:
    """Issue 30 point 5: REMINDERS 24 2 mails a reminder a day and two hours before the
    deadline, each time only to the players whose powers still have no orders, and a
    reminder names the reader's own power alone (nobody learns who else is late)."""
    h = Harness(db)
    players = h.started_game(options="REMINDERS 2 24")
    game = h.game("alpha")
    assert options(game)["reminders"] == [24, 2]
    deadline = game.deadline
    with db.session() as s:
        rows = [r.due_at for r in deadlines.open_rows(s, s.get(Game, game.id))
                if r.kind == "reminder"]
    assert sorted(rows) == [deadline - timedelta(hours=24), deadline - timedelta(hours=2)]
    for power, given in SPRING_1901.items():
        if power not in ("TURKEY", "ITALY"):
            send(db, game.id, power, given, h.now)

    def reminded(now: datetime) -> list[tuple[str, str]]:
        """The mails the scheduler's wake-up at ``now`` queued (only reminders are due)."""
        with db.session() as s:
            before = max((m.id for m in s.scalars(select(OutboundMail))), default=0)
        wakeups.run_due(db, SETTINGS, now)
        with db.session() as s:
            return [(m.to_addr, m.body) for m in s.scalars(
                select(OutboundMail).where(OutboundMail.id > before).order_by(OutboundMail.id))]

    first = reminded(deadline - timedelta(hours=23))
    assert sorted(to for to, _ in first) == sorted([players["TURKEY"], players["ITALY"]])
    for to, body in first:
        other = "Italy" if to == players["TURKEY"] else "Turkey"
        assert other not in body, body
    send(db, game.id, "ITALY", SPRING_1901["ITALY"], deadline - timedelta(hours=3))
    second = reminded(deadline - timedelta(hours=1))
    assert [to for to, _ in second] == [players["TURKEY"]]
    assert "Italy" not in second[0][1] and "Turkey" in second[0][1]


def test_no_reminders_when_the_game_wants_none(db: Database) -> None:
    h = Harness(db)
    h.started_game(options="PROMEMORIA no")
    game = h.game("alpha")
    assert options(game)["reminders"] == []
    with db.session() as s:
        assert [r.kind for r in deadlines.open_rows(s, s.get(Game, game.id))] == ["process"]


@pytest.mark.parametrize("zone,start,shown", [
    # clocks go forward in New York on 14 March 2027: Friday 07:00 EST + 48 h is Sunday 08:00
    # EDT; the first 20:00 after it is Sunday's, in summer time
    ("America/New_York", datetime(2027, 3, 12, 12, 0, tzinfo=UTC), "2027-03-14 20:00 EDT"),
    # clocks go forward in Rome on 28 March 2027
    ("Europe/Rome", datetime(2027, 3, 26, 12, 0, tzinfo=UTC), "2027-03-28 20:00 CEST"),
    # clocks go back in Rome on 31 October 2027
    ("Europe/Rome", datetime(2027, 10, 29, 12, 0, tzinfo=UTC), "2027-10-31 20:00 CET"),
])
def test_the_start_notice_shows_the_clock_deadline_across_dst_changes(
        db: Database, zone: str, start: datetime, shown: str) -> None:
    h = Harness(db, now=start)
    players = h.started_game(options=f"TIMEZONE {zone}\nCLOCK 20:00\nDEADLINES M=48")
    notices = [m for m in h.outbox if m.to == players["ENGLAND"] and m.kind != "reply"]
    assert any(shown in m.body for m in notices), [m.body for m in notices]
