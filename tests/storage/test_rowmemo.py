"""Rows remembered by key for the rest of a transaction (judge.storage.rowmemo): a remembered
row is the one a query would find, and anything that would change the query's answer makes
the database be asked again."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import event

from judge.storage import Database, claimrepo, gamerepo, playrepo, turnrepo
from judge.storage.models import Game, Seat

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _game(db: Database) -> None:
    with db.session() as s:
        account = gamerepo.account_for(s, "p@example.org", NOW)
        game = Game(name="Alpha", created=NOW, status="active", deadline=NOW.replace(year=2027))
        s.add(game)
        s.flush()
        s.add(Seat(game_id=game.id, power="FRANCE", account_id=account.id))


class Statements:
    def __init__(self, db: Database) -> None:
        self.count = 0
        event.listen(db.engine, "before_cursor_execute", self._seen)

    def _seen(self, *_: object) -> None:
        self.count += 1


def test_the_same_game_seat_and_account_are_asked_for_once(db: Database) -> None:
    _game(db)
    seen = Statements(db)
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        seat = playrepo.seat_by_power(s, game.id, "FRANCE")
        account = gamerepo.account_for(s, "P@example.org", NOW)
        asked = seen.count
        assert gamerepo.game_by_name(s, "ALPHA") is game
        assert playrepo.stored_hash(s, "Alpha", "FRANCE") == seat.password_hash  # type: ignore[union-attr]
        assert playrepo.seat_by_power(s, game.id, "FRANCE") is seat
        assert playrepo.account_by_address(s, "p@EXAMPLE.org") is account
        assert seen.count == asked
    with db.session() as s:  # a new transaction asks again
        assert gamerepo.game_by_name(s, "alpha") is not None
        assert seen.count > asked


def test_a_renamed_game_is_not_found_under_its_old_name(db: Database) -> None:
    _game(db)
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        game.name = "Beta"
        assert gamerepo.game_by_name(s, "alpha") is None
        assert gamerepo.game_by_name(s, "beta") is game


def test_a_deleted_seat_is_not_found(db: Database) -> None:
    _game(db)
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        seat = playrepo.seat_by_power(s, game.id, "FRANCE")
        s.delete(seat)  # not flushed yet: a query would flush it first
        assert playrepo.seat_by_power(s, game.id, "FRANCE") is None


def test_a_seat_added_in_a_rolled_back_savepoint_is_forgotten(db: Database) -> None:
    _game(db)
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        with s.begin_nested() as nested:
            s.add(Seat(game_id=game.id, power="ITALY"))
            assert playrepo.seat_by_power(s, game.id, "ITALY") is not None
            nested.rollback()
        assert playrepo.seat_by_power(s, game.id, "ITALY") is None
        assert playrepo.seat_by_power(s, game.id, "FRANCE") is not None


def test_an_early_row_added_then_closed_in_the_same_transaction_is_not_open(
        db: Database) -> None:
    _game(db)
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        assert not claimrepo.open_early_row(s, game.id, game.phase)
        claimrepo.add_early_row(s, game.id, game.phase, NOW)
        assert claimrepo.open_early_row(s, game.id, game.phase)
        turnrepo.close_deadlines(s, game.id)
        assert not claimrepo.open_early_row(s, game.id, game.phase)
