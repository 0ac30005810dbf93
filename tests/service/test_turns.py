"""Turn processing against SQLite and PostgreSQL: the seed 001 sample game, idempotence,
preview, rollback, early processing, reminders, late days and the first ONP."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from judge.service import turns, wakeups
from judge.storage import Database
from judge.storage.gamerepo import current_orders
from judge.storage.models import Deadline, Game, OutboundMail, Seat, Turn
from tests.bulletins.test_golden import check_golden
from tests.service.games import SETTINGS, START, new_game, player, send
from tests.service.sample_game import FALL_1901, SPRING_1901, WINTER_1901


def play(db: Database, game_id: int, orders: dict[str, list[str]], when) -> turns.TurnReport:
    for power, given in orders.items():
        send(db, game_id, power, given, when)
    with db.session() as s:
        game = s.get(Game, game_id)
        return turns.process(s, game, when, SETTINGS)


def game_row(db: Database, game_id: int) -> Game:
    with db.session() as s:
        game = s.get(Game, game_id)
        assert game is not None
        return game


def test_sample_game_of_the_rulebook(db: Database) -> None:
    gid = new_game(db, rules="rulebook")
    when = START + timedelta(hours=1)
    spring = play(db, gid, SPRING_1901, when)
    assert (spring.action, spring.why, spring.next_phase) == ("adjudicated", "all_orders_in",
                                                               "F1901M")
    check_golden("sample_S1901M.en.txt", spring.subject, spring.body)
    assert "Army Budapest -> Galicia.  (*bounce*)" in spring.body
    assert "Fleet Sevastopol -> Black Sea.  (*bounce*)" in spring.body
    fall = play(db, gid, FALL_1901, when + timedelta(days=1))
    assert fall.next_phase == "W1901A"
    check_golden("sample_F1901M.en.txt", fall.subject, fall.body)
    winter = play(db, gid, WINTER_1901, when + timedelta(days=2))
    assert winter.next_phase == "S1902M"
    check_golden("sample_W1901A.en.txt", winter.subject, winter.body)
    game = game_row(db, gid)
    units = game.position["units"]
    assert sorted(units["GERMANY"]) == ["A HOL", "A MUN", "A RUH", "F DEN", "F KIE"]
    assert sorted(units["RUSSIA"]) == ["A GAL", "A SEV", "A STP", "A UKR", "F RUM", "F SWE"]
    assert sorted(units["FRANCE"]) == ["A BUR", "A POR", "F MAR", "F PIC"]
    with db.session() as s:
        phases = [t.phase for t in s.scalars(select(Turn).where(Turn.game_id == gid)
                                             .order_by(Turn.id))]
        bulletins = s.scalar(select(func.count(OutboundMail.id))
                             .where(OutboundMail.kind == "bulletin"))
    assert phases == ["S1901M", "F1901M", "W1901A"]
    assert bulletins == 3 * 8  # seven players and the GM, each phase


def test_processing_twice_never_adjudicates_twice(db: Database) -> None:
    gid = new_game(db)
    when = START + timedelta(hours=1)
    first = play(db, gid, SPRING_1901, when)
    assert first.action == "adjudicated"
    with db.session() as s:
        game = s.get(Game, gid)
        game.phase = "S1901M"  # as if a second worker had read the game before the commit
        again = turns.process(s, game, when, SETTINGS)
        s.rollback()
    assert again.action == "done_already"
    with db.session() as s:
        assert s.scalar(select(func.count(Turn.id))) == 1


def test_preview_stores_and_sends_nothing(db: Database) -> None:
    gid = new_game(db)
    for power, given in SPRING_1901.items():
        send(db, gid, power, given, START)
    with db.session() as s:
        report = turns.preview(s, s.get(Game, gid), START, SETTINGS)
    assert report.action == "preview"
    assert "PREVIEW" in report.body and "Army Vienna -> Trieste." in report.body
    with db.session() as s:
        assert s.scalar(select(func.count(Turn.id))) == 0
        assert s.scalar(select(func.count(OutboundMail.id))) == 0
        assert s.get(Game, gid).phase == "S1901M"


def test_rollback_returns_to_the_phase(db: Database) -> None:
    gid = new_game(db)
    play(db, gid, SPRING_1901, START + timedelta(hours=1))
    with db.session() as s:
        turns.rollback(s, s.get(Game, gid), "S1901M", START + timedelta(hours=2), SETTINGS)
    game = game_row(db, gid)
    assert game.phase == "S1901M"
    assert "A VIE" in game.position["units"]["AUSTRIA"]
    with db.session() as s:
        assert s.scalar(select(func.count(Turn.id))) == 0
    again = play(db, gid, SPRING_1901, START + timedelta(hours=3))
    assert again.action == "adjudicated"


def test_rollback_is_not_undone_at_once_by_the_orders_on_file(db: Database) -> None:
    """Play-test: the GM's ROLLBACK was followed seconds later by the same adjudication,
    because every power still had its orders on file before the first deadline."""
    gid = new_game(db)
    play(db, gid, SPRING_1901, START + timedelta(hours=1))
    with db.session() as s:
        turns.rollback(s, s.get(Game, gid), "S1901M", START + timedelta(hours=2), SETTINGS)
    with db.session() as s:
        report = turns.process(s, s.get(Game, gid), START + timedelta(hours=3), SETTINGS)
    assert (report.action, report.why) == ("nothing", "waiting_for_players")
    # once every power has sent its orders again, early processing is back
    again = play(db, gid, SPRING_1901, START + timedelta(hours=4))
    assert again.action == "adjudicated"


def test_after_a_rollback_the_deadline_uses_the_orders_on_file(db: Database) -> None:
    gid = new_game(db)
    play(db, gid, SPRING_1901, START + timedelta(hours=1))
    with db.session() as s:
        turns.rollback(s, s.get(Game, gid), "S1901M", START + timedelta(hours=2), SETTINGS)
    deadline = game_row(db, gid).deadline
    assert deadline is not None
    reports = wakeups.run_due(db, SETTINGS, deadline + timedelta(minutes=1))
    assert [r.action for r in reports] == ["adjudicated"]
    with db.session() as s:
        turn = s.scalar(select(Turn).where(Turn.game_id == gid))
        assert turn is not None and "A VIE - TRI" in str(turn.orders_submitted)


def test_rollback_withdraws_the_orders_sent_for_later_phases(db: Database) -> None:
    """Play-test: builds sent for W1901A came back after the GM rolled back to F1901M and
    the fall was played again on a different board."""
    gid = new_game(db)
    play(db, gid, SPRING_1901, START + timedelta(hours=1))
    play(db, gid, FALL_1901, START + timedelta(hours=2))
    send(db, gid, "AUSTRIA", ["A VIE B"], START + timedelta(hours=3))
    with db.session() as s:
        turns.rollback(s, s.get(Game, gid), "F1901M", START + timedelta(hours=4), SETTINGS)
    play(db, gid, FALL_1901, START + timedelta(hours=5))
    assert game_row(db, gid).phase == "W1901A"
    with db.session() as s:
        row = current_orders(s, gid, "W1901A", "AUSTRIA")
        assert row is not None and row.orders == [] and row.source == "rolled_back"


def test_deadline_with_missing_orders_charges_late_days_then_onp(db: Database) -> None:
    gid = new_game(db, language="it", late_bonus_days=1)
    for power, given in SPRING_1901.items():
        if power != "ITALY":
            send(db, gid, power, given, START)
    deadline = game_row(db, gid).deadline
    assert deadline is not None
    reports = wakeups.run_due(db, SETTINGS, deadline + timedelta(minutes=1))
    assert [r.action for r in reports] == ["extended"]
    assert "Italia è in ritardo" in reports[0].body
    with db.session() as s:
        seat = s.scalar(select(Seat).where(Seat.game_id == gid, Seat.power == "ITALY"))
        assert seat.late_days_used == 1
    later = game_row(db, gid).deadline
    assert later == deadline + timedelta(days=1)
    reports = wakeups.run_due(db, SETTINGS, later + timedelta(minutes=1))
    assert [r.action for r in reports] == ["adjudicated"]
    body = reports[0].body
    assert "primo ONP" in body
    assert "Armata Roma APPOGGIA Armata Venezia.  (*ONP*)" in body
    check_golden("onp1_S1901M.it.txt", reports[0].subject, body)
    with db.session() as s:
        seat = s.scalar(select(Seat).where(Seat.game_id == gid, Seat.power == "ITALY"))
        assert (seat.status, seat.strikes) == ("onp1", 1)


def test_early_processing_and_wait(db: Database) -> None:
    gid = new_game(db)
    for power, given in SPRING_1901.items():
        send(db, gid, power, given, START)
    with db.session() as s:
        seat = s.scalar(select(Seat).where(Seat.game_id == gid, Seat.power == "FRANCE"))
        seat.wait = True
    assert wakeups.sweep_early(db, SETTINGS, START + timedelta(minutes=5)) == []
    with db.session() as s:
        seat = s.scalar(select(Seat).where(Seat.game_id == gid, Seat.power == "FRANCE"))
        seat.wait = False
    reports = wakeups.sweep_early(db, SETTINGS, START + timedelta(minutes=6))
    assert [(r.action, r.why) for r in reports] == [("adjudicated", "all_orders_in")]


def test_reminder_goes_only_to_powers_without_orders(db: Database) -> None:
    gid = new_game(db)
    for power, given in SPRING_1901.items():
        if power != "TURKEY":
            send(db, gid, power, given, START)
    deadline = game_row(db, gid).deadline
    wakeups.run_due(db, SETTINGS, deadline - timedelta(hours=23))
    with db.session() as s:
        mails = list(s.scalars(select(OutboundMail)))
        reminders = list(s.scalars(select(Deadline).where(Deadline.kind == "reminder")))
    assert [m.to_addr for m in mails] == [player("TURKEY")]
    assert "TURKEY" not in mails[0].body and "Turkey" in mails[0].body
    assert all(r.done for r in reminders)


def test_turn_snapshot_keeps_the_bulletin_by_language(db: Database) -> None:
    gid = new_game(db, language="fr")
    report = play(db, gid, SPRING_1901, START + timedelta(hours=1))
    with db.session() as s:
        turn = s.scalar(select(Turn).where(Turn.game_id == gid))
        assert turn.bulletins["fr"]["body"] == report.body
        assert turn.orders_submitted["FRANCE"] == SPRING_1901["FRANCE"]
        assert turn.position_before["phase"] == "S1901M"
        assert turn.position_after["phase"] == "F1901M"
        assert {r["source"] for rs in turn.outcomes.values() for r in rs} == {"submitted"}


def test_two_workers_at_once_adjudicate_once(db: Database) -> None:
    import threading

    gid = new_game(db)
    for power, given in SPRING_1901.items():
        send(db, gid, power, given, START)
    when = START + timedelta(hours=1)
    actions: list[str] = []
    barrier = threading.Barrier(2)

    def worker() -> None:
        barrier.wait()
        with db.session() as s:
            actions.append(turns.process(s, s.get(Game, gid), when, SETTINGS).action)

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # the second worker gets the lock after the first commit: it finds the game already in
    # the next phase (nothing due) -- never a second adjudication
    assert sorted(actions) in (["adjudicated", "done_already"], ["adjudicated", "nothing"])
    with db.session() as s:
        assert s.scalar(select(func.count(Turn.id))) == 1
        assert s.scalar(select(func.count(OutboundMail.id))) == 8


def test_observers_get_the_bulletins(db: Database) -> None:
    gid = new_game(db, observers=["watcher@elsewhere.test"])
    play(db, gid, SPRING_1901, START + timedelta(hours=1))
    with db.session() as s:
        to = sorted(m.to_addr for m in s.scalars(select(OutboundMail)))
    assert "watcher@elsewhere.test" in to
    assert "gm@players.test" in to
    assert len(to) == 9
