"""Issue 30 point 3: a player's announced absence (ABSENCE, ASSENZA; njudge's SET ABSENCE): no
deadline falls in it, within the game's ABSENCE LIMIT; everyone is told the deadline moved, and
in a blind game not why; under the italian rules a late day that would end in an absence ends
after it (still one day). The clock is the harness's ``now``; on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from judge.service import wakeups
from judge.service.games import options
from judge.storage import Database
from tests.service.commands_harness import GM, PLAYERS, Harness, password_of

ROME = ZoneInfo("Europe/Rome")
CLOCK = {"en": "CLOCK 20:00", "it": "ORARIO 20:00", "fr": "HORAIRE 20:00"}


def _signon(h: Harness, player: str) -> str:
    return f"SIGNON {h.power_of('alpha', player)} alpha {password_of(player)}\n"


def _local(when: datetime | None) -> datetime:
    assert when is not None
    return when.astimezone(ROME).replace(tzinfo=None)


@pytest.mark.parametrize("lang,line", [("en", "ABSENCE 2027-03-03 TO 2027-03-05"),
                                       ("it", "ASSENZA 2027-03-03 al 2027-03-05"),
                                       ("fr", "ABSENCE 2027-03-03 AU 2027-03-05")])
def test_a_deadline_in_an_absence_moves_past_it_and_everyone_is_told(
        db: Database, lang: str, line: str) -> None:
    h = Harness(db)
    h.started_game(options=CLOCK[lang], lang=lang)
    # started Monday 1 March 2027, 13:00 in Rome: due Thursday 4 March 20:00
    assert _local(h.game("alpha").deadline) == datetime(2027, 3, 4, 20, 0)
    away = PLAYERS[0]
    sent = h.mail(away, _signon(h, away) + line)
    assert _local(h.game("alpha").deadline) == datetime(2027, 3, 6, 20, 0)
    assert options(h.game("alpha"))["absences"][0]["start"] == "2027-03-03"
    others = [m for m in sent if m.to != away]
    told = {m.to for m in others}
    assert set(PLAYERS) - {away} <= told
    power = h.power_of("alpha", away)
    said = {"en": "announced an absence", "it": "ha annunciato un'assenza",
            "fr": "a annoncé une absence"}[lang]
    assert all(said in " ".join(m.body.split()) for m in others)
    if lang == "en":
        assert all(power.title() in m.body for m in others)
    assert any(m.to == away and "2027-03-06 20:00" in m.body for m in sent)


def test_in_a_blind_game_nobody_learns_who_is_away(db: Database) -> None:
    h = Harness(db)
    h.started_game(options="BLIND yes\nCLOCK 20:00")
    away = PLAYERS[0]
    power = h.power_of("alpha", away).title()
    sent = h.mail(away, _signon(h, away) + "ABSENCE 2027-03-04 2027-03-04")
    others = [m for m in sent if m.to != away]
    assert others and all("2027-03-05 20:00" in m.body for m in others)
    assert all(power not in m.body and "absence" not in m.body.lower() for m in others)


def test_absences_past_the_limits_or_in_the_past_are_refused(db: Database) -> None:
    h = Harness(db)
    h.started_game(options="ABSENCE LIMIT 5 7")
    away = PLAYERS[1]

    def reply(line: str) -> str:
        return " ".join(h.reply(away, _signon(h, away) + line).split())

    assert "may last 5 days at most" in reply("ABSENCE 2027-03-10 2027-03-15")
    assert "cannot start before today" in reply("ABSENCE 2027-02-27 2027-02-28")
    assert "before its first" in reply("ABSENCE 2027-03-12 2027-03-10")
    assert "is recorded" in reply("ABSENCE 2027-03-10 2027-03-14")
    # the same days again cost nothing; three more would pass the game's seven
    assert "is recorded" in reply("ABSENCE 2027-03-12 2027-03-13")
    assert len(options(h.game("alpha"))["absences"]) == 1  # nothing new: not kept twice
    assert "may be away 2 days more at most" in reply("ABSENCE 2027-04-01 2027-04-03")
    assert options(h.game("alpha"))["absence_limit"] == {"each": 5, "game": 7}
    h.mail(GM, "SIGNON GM alpha gmpass\nABSENCE LIMIT no")
    assert "allows no absences" in reply("ABSENCE 2027-03-20 2027-03-20")


def test_under_the_italian_rules_a_late_day_ending_in_an_absence_ends_after_it(
        db: Database) -> None:
    """Nobody sent orders: at the deadline each power is charged one late day and the
    deadline moves 24 hours, onto Friday, a day a player announced away: it ends on Saturday,
    and the late day charged is still one."""
    h = Harness(db)
    h.started_game(options="CLOCK 20:00")
    away = PLAYERS[2]
    h.mail(away, _signon(h, away) + "ASSENZA 2027-03-05 2027-03-05")
    deadline = h.game("alpha").deadline
    assert _local(deadline) == datetime(2027, 3, 4, 20, 0)  # not in the absence
    reports = wakeups.run_due(db, h.settings, deadline + timedelta(minutes=1))
    assert [r.action for r in reports] == ["extended"]
    assert _local(h.game("alpha").deadline) == datetime(2027, 3, 6, 20, 0)
    assert {s.late_days_used for s in h.seats("alpha").values()} == {1}


def test_a_player_who_leaves_takes_his_absences_with_him(db: Database) -> None:
    h = Harness(db)
    h.started_game(options="CLOCK 20:00")
    away = PLAYERS[3]
    h.mail(away, _signon(h, away) + "ABSENCE 2027-03-04 2027-03-06")
    assert _local(h.game("alpha").deadline) == datetime(2027, 3, 7, 20, 0)
    assert len(options(h.game("alpha"))["absences"]) == 1
    h.mail(away, _signon(h, away) + "RESIGN")
    assert options(h.game("alpha"))["absences"] == []
